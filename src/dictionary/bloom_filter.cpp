#include "spellcheck/dictionary/bloom_filter.hpp"

#include <algorithm>
#include <bit>
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
