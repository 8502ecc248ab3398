#include "spellcheck/dictionary/filters.hpp"

#include <omp.h>

#include <vector>

#include "spellcheck/common/first_error.hpp"
#include "spellcheck/common/options.hpp"
#include "spellcheck/dictionary/shard.hpp"

namespace spellcheck {

BloomFilter build_filter(const mpi::Comm& comm, const Shard& shard, double bits_per_entry, FilterExchange how) {
  const auto& hashes = shard.hashes();
  const size_t n = hashes.size();
  if (how == FilterExchange::allreduce) {
    const uint64_t total = mpi::allreduce_sum(comm, static_cast<uint64_t>(n));
    BloomFilter f(1, BloomFilter::blocks_for(total, bits_per_entry));
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) f.insert(hashes[i], 0);
    mpi::allreduce_bor(comm, f.data(), f.words());
    return f;
  }
  const uint64_t largest = mpi::allreduce_max(comm, static_cast<uint64_t>(n));
  const size_t blocks = BloomFilter::blocks_for(largest, bits_per_entry);
  BloomFilter mine(1, blocks);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) mine.insert(hashes[i], 0);
  BloomFilter all(static_cast<size_t>(comm.size()), blocks);
  mpi::allgather_words(comm, mine.data(), mine.words(), all.data());
  return all;
}

TrigramFilter build_trigram_filter(const mpi::Comm& comm, const Shard& shard) {
  TrigramFilter t = shard.trigrams();
  mpi::allreduce_bor(comm, t.data(), t.words());
  return t;
}

AffixFilter build_affix_filter(const mpi::Comm& comm, const Shard& shard) {
  const WordList& keys = shard.key_words();
  const uint64_t total = mpi::allreduce_sum(comm, static_cast<uint64_t>(keys.size()));
  AffixFilter f(total);
  // A few threads fill filters of their own, ORed at the end: atomic ORs
  // into one shared filter made its cache lines travel between the cores
  // for every new bit. Many threads share one (the copies would cost more
  // memory than the contention).
  // Copies are made for the threads the team has (it may be smaller than
  // asked); merge() skips a copy no thread made.
  const int threads = omp_get_max_threads();
  if (threads <= 4) {
    std::vector<AffixFilter> own(static_cast<size_t>(threads - 1));
    FirstError err;
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      AffixFilter& mine = t == 0 ? f : own[static_cast<size_t>(t - 1)];
      if (t > 0) err.run([&] { mine = AffixFilter(total); });
#pragma omp for schedule(dynamic, 4096)
      for (size_t i = 0; i < keys.size(); ++i)
        if (!err.failed()) mine.add_key(keys[i], true);
    }
    err.rethrow();
    for (const auto& o : own) f.merge(o);
  } else {
#pragma omp parallel for schedule(dynamic, 4096)
    for (size_t i = 0; i < keys.size(); ++i) f.add_key(keys[i]);
  }
  mpi::allreduce_bor(comm, f.data(), f.words());
  return f;
}

}  // namespace spellcheck
