// doctest main for tests that need ranks: every rank runs every case; ranks
// other than 0 speak only when they fail; the exit code is the worst rank's.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <mpi.h>

#include <cstdio>
#include <sstream>

int main(int argc, char** argv) {
  int provided = 0;
  int rank = 0;
  int global = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::ostringstream quiet;
  doctest::Context ctx(argc, argv);
  if (rank != 0) ctx.setCout(&quiet);
  int local = ctx.run();
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (local != 0 && rank != 0) std::fprintf(stderr, "[rank %d]\n%s", rank, quiet.str().c_str());
  MPI_Finalize();
  return global;
}
