#include "spellcheck/bloom_filter.hpp"

#include <bit>
#include <cmath>

namespace spellcheck {

BloomFilter::BloomFilter(size_t segments, size_t blocks_per_segment)
    : words_(segments * blocks_per_segment * kWordsPerBlock, 0),
      segments_(segments),
      blocks_per_segment_(blocks_per_segment) {}

size_t BloomFilter::blocks_for(uint64_t entries, double bits_per_entry) {
  const double bits = std::ceil(static_cast<double>(entries) * bits_per_entry);
  const size_t blocks = static_cast<size_t>(std::ceil(bits / (kWordsPerBlock * 64.0)));
  return blocks < 1 ? 1 : blocks;
}

double BloomFilter::fill_ratio() const {
  if (words_.empty()) return 0.0;
  uint64_t set = 0;
  for (uint64_t w : words_) set += static_cast<uint64_t>(std::popcount(w));
  return static_cast<double>(set) / (64.0 * static_cast<double>(words_.size()));
}

}  // namespace spellcheck

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

}  // namespace spellcheck
