#pragma once
// BloomFilter: a split-block Bloom filter (as in Parquet). A key touches one
// 32-byte block, half a cache line (one miss per probe, which a prefetch
// hides), and sets one bit in each of the block's eight 32-bit lanes; the
// eight lanes are computed and tested together (the loops vectorise). The
// filter is cut into segments: with the allgather exchange, segment r holds
// the keys of rank r's shard; with the all-reduce exchange there is one
// segment for all keys.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__x86_64__) && !defined(__AVX2__)
#include <emmintrin.h>
#define SPELLCHECK_BLOOM_SSE2 1
#endif

namespace spellcheck {

class BloomFilter {
 public:
  static constexpr size_t kLanes = 8;
  static constexpr size_t kBlockBytes = kLanes * sizeof(uint32_t);

  BloomFilter() = default;
  BloomFilter(size_t segments, size_t blocks_per_segment);

  // Blocks so that `entries` keys get about `bits_per_entry` bits each.
  static size_t blocks_for(uint64_t entries, double bits_per_entry);

  // Thread-safe insert (bits are set with atomic OR).
  void insert(uint64_t h, size_t segment) {
    uint32_t* b = block(h, segment);
    uint32_t m[kLanes];
    lane_masks(h, m);
    for (size_t i = 0; i < kLanes; ++i) std::atomic_ref<uint32_t>(b[i]).fetch_or(m[i], std::memory_order_relaxed);
  }
  // The same for a filter only this thread fills: plain ORs (eight locked
  // ORs per key cost ten times as much).
  void insert_unshared(uint64_t h, size_t segment) {
    uint32_t* b = block(h, segment);
    uint32_t m[kLanes];
    lane_masks(h, m);
    for (size_t i = 0; i < kLanes; ++i) b[i] |= m[i];
  }
  bool maybe_contains(uint64_t h, size_t segment) const {
#ifdef SPELLCHECK_BLOOM_SSE2
    const uint32_t* b = block(h, segment);
    __m128i lo, hi;
    masks_sse2(h, lo, hi);
    const __m128i miss = _mm_or_si128(_mm_andnot_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), lo),
                                      _mm_andnot_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 4)), hi));
    return _mm_movemask_epi8(_mm_cmpeq_epi32(miss, _mm_setzero_si128())) == 0xFFFF;
#else
    Lanes b;
    std::memcpy(&b, block(h, segment), sizeof b);
    const Lanes miss = masks(h) & ~b;
    uint64_t w[kLanes / 2];
    std::memcpy(w, &miss, sizeof w);
    return (w[0] | w[1] | w[2] | w[3]) == 0;
#endif
  }
  void prefetch(uint64_t h, size_t segment) const { __builtin_prefetch(block(h, segment)); }

  size_t segments() const { return segments_; }
  // The filter as 64-bit words, for the exchanges (one segment is a whole
  // number of words).
  size_t words_per_segment() const { return blocks_per_segment_ * kBlockBytes / sizeof(uint64_t); }
  uint64_t* data() { return reinterpret_cast<uint64_t*>(lanes_.get()); }
  const uint64_t* data() const { return reinterpret_cast<const uint64_t*>(lanes_.get()); }
  size_t words() const { return segments_ * words_per_segment(); }
  size_t bytes() const { return segments_ * blocks_per_segment_ * kBlockBytes; }
  // Fraction of bits set: with 8 bits per key, fill^8 estimates the
  // false-positive rate of a uniformly loaded filter.
  double fill_ratio() const;

 private:
  uint32_t* block(uint64_t h, size_t segment) const {
    return lanes_.get() + (segment * blocks_per_segment_ + block_index(h)) * kLanes;
  }
  // The high half of the hash picks the block (multiply-shift range
  // reduction, no division); the owner rank comes from the low half.
  size_t block_index(uint64_t h) const { return static_cast<size_t>(((h >> 32) * blocks_per_segment_) >> 32); }
  // One bit per lane from the low half of the hash, remixed by odd salts:
  // lane i gets bit (salt[i] * x) >> 27. Every build sets the same bits.
  static constexpr uint32_t kSalt[kLanes] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                             0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
  static uint32_t salted(uint64_t h) { return static_cast<uint32_t>(h ^ (h >> 32)); }
#ifdef SPELLCHECK_BLOOM_SSE2
  // SSE2 (x86-64 without AVX2) has no per-lane variable shift: 1 << k is
  // made as the float 2^k (exponent field k + 127) converted to an integer;
  // 2^31 converts to 0x80000000, which is 1 << 31 as well.
  using Half = uint32_t __attribute__((vector_size(16)));
  static __m128i half_masks(Half salt, uint32_t x) {
    const Half exponent = (((salt * x) >> 27) + 127) << 23;
    __m128i e;
    std::memcpy(&e, &exponent, sizeof e);
    return _mm_cvttps_epi32(_mm_castsi128_ps(e));
  }
  static void masks_sse2(uint64_t h, __m128i& lo, __m128i& hi) {
    const uint32_t x = salted(h);
    lo = half_masks(Half{kSalt[0], kSalt[1], kSalt[2], kSalt[3]}, x);
    hi = half_masks(Half{kSalt[4], kSalt[5], kSalt[6], kSalt[7]}, x);
  }
  static void lane_masks(uint64_t h, uint32_t (&m)[kLanes]) {
    __m128i lo, hi;
    masks_sse2(h, lo, hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(m), lo);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(m + 4), hi);
  }
#else
  // Eight 32-bit lanes as one vector (GCC vector extension: one AVX2
  // register with its per-lane shift).
  using Lanes = uint32_t __attribute__((vector_size(32)));
  static Lanes masks(uint64_t h) {
    const Lanes salt = {kSalt[0], kSalt[1], kSalt[2], kSalt[3], kSalt[4], kSalt[5], kSalt[6], kSalt[7]};
    const Lanes one = {1, 1, 1, 1, 1, 1, 1, 1};
    return one << ((salt * salted(h)) >> 27);
  }
  static void lane_masks(uint64_t h, uint32_t (&m)[kLanes]) {
    const Lanes v = masks(h);
    std::memcpy(m, &v, sizeof m);
  }
#endif

  struct FreeAligned {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint32_t[], FreeAligned> lanes_;
  size_t segments_ = 0;
  size_t blocks_per_segment_ = 0;
};

// Which segment to probe for a key owned by `owner`.
inline size_t filter_segment(const BloomFilter& f, int owner) {
  return f.segments() == 1 ? 0 : static_cast<size_t>(owner);
}

}  // namespace spellcheck
