// Times the pieces of the read and shuffle phases on one dictionary, to see
// where fixed costs go:  mpirun -n P phases_bench DICTIONARY
#include <cstdio>
#include <string>
#include <vector>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/shard.hpp"
#include "spellcheck/input/reader.hpp"

using namespace spellcheck;

int main(int argc, char** argv) {
  mpi::Environment env(argc, argv, MPI_THREAD_SERIALIZED);
  {
    mpi::Comm comm;
    if (argc < 2) return 2;
    double t = mpi::now();
    auto lap = [&](const char* what) {
      const double n = mpi::now();
      if (comm.rank() == 0) std::printf("%-28s %8.3f ms\n", what, 1e3 * (n - t));
      t = n;
    };
    TextChunk chunk = read_line_share(comm, argv[1]);
    lap("MPI-IO read");
    WordList w = lines_to_words(chunk.bytes, SIZE_MAX, nullptr);
    lap("clean lines");
    std::vector<uint64_t> h(w.size());
    for (size_t i = 0; i < w.size(); ++i) h[i] = word_hash(w[i]);
    lap("hash");
    Routed r = route_by_owner(comm, w, h);  // copies: w is used below
    lap("route_by_owner");
    Shard s;
    s.build(std::move(r.words), std::move(r.hashes));
    lap("shard build");
    size_t found = 0;
    for (size_t i = 0; i < w.size(); i += 7) found += s.contains(w[i], h[i]) ? 1 : 0;
    lap("lookups (1/7 of entries)");
    if (comm.rank() == 0) std::printf("entries %zu found %zu\n", w.size(), found);
  }
  return 0;
}
