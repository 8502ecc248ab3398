#pragma once
// BloomFilter: a split-block Bloom filter. A key touches one 64-byte block
// (one cache line: one miss per probe, and a prefetch hides it) and sets one
// bit in each of the block's eight 64-bit words. The filter is cut into
// segments: with the allgather exchange, segment r holds the keys of rank r's
// shard; with the all-reduce exchange there is one segment for all keys.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace spellcheck {

class BloomFilter {
 public:
  static constexpr size_t kWordsPerBlock = 8;

  BloomFilter() = default;
  BloomFilter(size_t segments, size_t blocks_per_segment);

  // Blocks so that `entries` keys get about `bits_per_entry` bits each.
  static size_t blocks_for(uint64_t entries, double bits_per_entry);

  // Thread-safe insert (bits are set with atomic OR).
  void insert(uint64_t h, size_t segment) {
    uint64_t* b = block(h, segment);
    for (size_t i = 0; i < kWordsPerBlock; ++i)
      std::atomic_ref<uint64_t>(b[i]).fetch_or(bit(h, i), std::memory_order_relaxed);
  }
  bool maybe_contains(uint64_t h, size_t segment) const {
    const uint64_t* b = block(h, segment);
    uint64_t miss = 0;
    for (size_t i = 0; i < kWordsPerBlock; ++i) miss |= bit(h, i) & ~b[i];
    return miss == 0;
  }
  void prefetch(uint64_t h, size_t segment) const { __builtin_prefetch(block(h, segment)); }

  size_t segments() const { return segments_; }
  size_t words_per_segment() const { return blocks_per_segment_ * kWordsPerBlock; }
  uint64_t* segment_data(size_t s) { return words_.data() + s * words_per_segment(); }
  uint64_t* data() { return words_.data(); }
  size_t words() const { return words_.size(); }
  size_t bytes() const { return words_.size() * sizeof(uint64_t); }
  // Fraction of bits set: with k = 8 bits per key, fill^8 estimates the
  // false-positive rate of a uniformly loaded filter.
  double fill_ratio() const;

 private:
  uint64_t* block(uint64_t h, size_t segment) {
    return words_.data() + (segment * blocks_per_segment_ + block_index(h)) * kWordsPerBlock;
  }
  const uint64_t* block(uint64_t h, size_t segment) const {
    return words_.data() + (segment * blocks_per_segment_ + block_index(h)) * kWordsPerBlock;
  }
  // The high half of the hash picks the block (multiply-shift range
  // reduction, no division); the owner rank uses h mod p, the low bits.
  size_t block_index(uint64_t h) const { return static_cast<size_t>(((h >> 32) * blocks_per_segment_) >> 32); }
  // One bit per word from the low half, remixed by odd salts (as in the
  // Parquet split-block filter).
  static uint64_t bit(uint64_t h, size_t i) {
    static constexpr uint32_t kSalt[kWordsPerBlock] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                                       0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
    const uint32_t x = static_cast<uint32_t>(h ^ (h >> 32)) * kSalt[i];
    return uint64_t{1} << (x >> 26);
  }

  std::vector<uint64_t> words_;
  size_t segments_ = 0;
  size_t blocks_per_segment_ = 0;
};

}  // namespace spellcheck

#include "spellcheck/mpi.hpp"
#include "spellcheck/options.hpp"

namespace spellcheck {

class Shard;

// Collective: the filter every rank probes before any lookup. allgather:
// each rank fills a segment for its own shard (sized for the largest shard)
// and all segments are allgathered, so the probe also knows the owner;
// allreduce: one filter sized for the whole dictionary, OR-reduced.
BloomFilter build_filter(const mpi::Comm& comm, const Shard& shard, double bits_per_entry, FilterExchange how);

// Which segment to probe for a key owned by `owner`.
inline size_t filter_segment(const BloomFilter& f, int owner) {
  return f.segments() == 1 ? 0 : static_cast<size_t>(owner);
}

}  // namespace spellcheck
