#include "spellcheck/common/cpus.hpp"

#include <sched.h>

namespace spellcheck {

int cpus_available() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

bool threads_exceed_cpus(int threads, int cpus) { return cpus > 0 && threads > cpus; }

const char* threads_over_cpus_advice() {
  return "mpirun binds each rank to one core by default when it starts few ranks: "
         "try mpirun --bind-to none, or --map-by slot:PE=THREADS; under Slurm, --cpus-per-task";
}

}  // namespace spellcheck
