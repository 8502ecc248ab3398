#include "spellcheck/bloom_filter.hpp"

#include <omp.h>

#include <bit>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

namespace spellcheck {

BloomFilter::BloomFilter(size_t segments, size_t blocks_per_segment)
    : segments_(segments), blocks_per_segment_(blocks_per_segment) {
  // Blocks aligned to 64 bytes never straddle a cache line.
  const size_t bytes = std::max<size_t>(64, (segments * blocks_per_segment * kBlockBytes + 63) / 64 * 64);
  lanes_.reset(static_cast<uint32_t*>(std::aligned_alloc(64, bytes)));
  if (!lanes_) throw std::bad_alloc();
  std::memset(lanes_.get(), 0, bytes);
}

size_t BloomFilter::blocks_for(uint64_t entries, double bits_per_entry) {
  const double bits = std::ceil(static_cast<double>(entries) * bits_per_entry);
  const size_t blocks = static_cast<size_t>(std::ceil(bits / (kBlockBytes * 8.0)));
  return blocks < 1 ? 1 : blocks;
}

double BloomFilter::fill_ratio() const {
  if (bytes() == 0) return 0.0;
  uint64_t set = 0;
  const uint64_t* w = reinterpret_cast<const uint64_t*>(lanes_.get());
  for (size_t i = 0; i < words(); ++i) set += static_cast<uint64_t>(std::popcount(w[i]));
  return static_cast<double>(set) / (8.0 * static_cast<double>(bytes()));
}

}  // namespace spellcheck

#include "spellcheck/first_error.hpp"
#include "spellcheck/shard.hpp"

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
