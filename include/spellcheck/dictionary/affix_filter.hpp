#pragma once
// AffixFilter: which prefixes and which proper suffixes dictionary keys have
// (keys are entries with their first byte lowered, as in Shard), as one Bloom
// filter. It bounds where an edit of a word can be useful.
//
// An edit at position i keeps the bytes before i: if no key starts with
// w[0..i), no edit at i or after it can make a key. Likewise the bytes after
// the edit end the candidate: if no key ends with them, the edit is useless.
// So for a misspelled word, one scan from each end gives a window of edit
// positions (usually a few around the real typo, and none at all for a
// token that is nowhere near a word), and every edit outside it is skipped
// before it is spelled, hashed or probed. The trigram filter checks the
// bytes right around an edit; this checks everything else.
//
// A suffix here starts after a key's first byte, so it is raw bytes, as in
// the candidate (whose first byte only is lowered for the lookup).
// False positives only widen the window; there are no false negatives.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace spellcheck {

class AffixFilter {
 public:
  AffixFilter() = default;
  static constexpr double kDefaultBitsPerKey = 24;
  // Sized for about `keys` dictionary keys (all shards together).
  explicit AffixFilter(uint64_t keys, double bits_per_key = kDefaultBitsPerKey);
  // An empty filter of `words` 64-bit words (a compiled file's, read into data()).
  static AffixFilter of_words(size_t words);

  // Adds every prefix and every proper suffix of one key (first byte
  // already lowered). Thread-safe (atomic OR) unless `exclusive`: then only
  // one thread may write this filter.
  void add_key(std::string_view key, bool exclusive = false);
  // This |= other (same size, or empty).
  void merge(const AffixFilter& other);

  // The largest k such that key form of w (first byte lowered) may start
  // with w[0..k) some key: an edit at position i can make a key only if
  // i <= prefix_reach(w).
  size_t prefix_reach(std::string_view w) const;
  // The smallest j such that w[j..) may be a proper suffix of some key
  // (w.size() when even the last byte is none): bytes w[j'..) kept after
  // position >= 1 of a candidate need j' >= suffix_reach(w).
  size_t suffix_reach(std::string_view w) const;

  bool empty() const { return words_ == 0; }
  uint64_t* data() { return bits_.get(); }
  const uint64_t* data() const { return bits_.get(); }
  size_t words() const { return words_; }
  size_t bytes() const { return words_ * sizeof(uint64_t); }

 private:
  // One 64-bit word per affix (one cache miss per probe), three bits in it.
  static uint64_t mask(uint64_t h) {
    return (uint64_t{1} << (h & 63)) | (uint64_t{1} << ((h >> 6) & 63)) | (uint64_t{1} << ((h >> 12) & 63));
  }
  size_t index(uint64_t h) const { return static_cast<size_t>(((h >> 32) * words_) >> 32); }
  bool test(uint64_t h) const {
    const uint64_t m = mask(h);
    return (bits_[index(h)] & m) == m;
  }
  void set(uint64_t h, bool exclusive);

  struct FreeAligned {
    void operator()(uint64_t* p) const;
  };
  std::unique_ptr<uint64_t[], FreeAligned> bits_;
  size_t words_ = 0;
};

}  // namespace spellcheck
