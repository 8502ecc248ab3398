#include "spellcheck/dictionary/affix_filter.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

namespace {

// A key has a few distinct affixes, so kDefaultBitsPerKey = 24 gives each
// about 5 bits: a probe errs a few percent of the time, which only widens a
// window by a position now and then, and the filter is half the size of
// one with 48 bits and built in half the time (results/design-choices.md,
// bench/candidates_bench).

// Prefixes and suffixes are hashed byte by byte as the scan goes (FNV-1a),
// each with its own seed, then mixed (mix64) so that every bit of the probe
// hash is usable.
constexpr uint64_t kPrefixSeed = 0xcbf29ce484222325ULL;
constexpr uint64_t kSuffixSeed = 0x84222325cbf29ce4ULL;
constexpr uint64_t kPrime = 0x100000001b3ULL;

inline uint64_t step(uint64_t h, char c) { return (h ^ static_cast<unsigned char>(c)) * kPrime; }

}  // namespace

void AffixFilter::FreeAligned::operator()(uint64_t* p) const { std::free(p); }

AffixFilter::AffixFilter(uint64_t keys, double bits_per_key) {
  words_ = static_cast<size_t>((static_cast<double>(keys) * bits_per_key + 63) / 64);
  if (words_ < 8) words_ = 8;
  const size_t bytes = (words_ * sizeof(uint64_t) + 63) / 64 * 64;
  bits_.reset(static_cast<uint64_t*>(std::aligned_alloc(64, bytes)));
  if (!bits_) throw std::bad_alloc();
  std::memset(bits_.get(), 0, bytes);
}

AffixFilter AffixFilter::of_words(size_t words) {
  AffixFilter f;
  f.words_ = words;
  const size_t bytes = std::max<size_t>(64, (words * sizeof(uint64_t) + 63) / 64 * 64);
  f.bits_.reset(static_cast<uint64_t*>(std::aligned_alloc(64, bytes)));
  if (!f.bits_) throw std::bad_alloc();
  std::memset(f.bits_.get(), 0, bytes);
  return f;
}

void AffixFilter::set(uint64_t h, bool exclusive) {
  uint64_t& w = bits_[index(h)];
  const uint64_t m = mask(h);
  // Shared prefixes ("un", "re") hit the same words again and again: read
  // first, write only when a bit is new.
  if ((w & m) == m) return;
  if (exclusive) w |= m;
  else std::atomic_ref<uint64_t>(w).fetch_or(m, std::memory_order_relaxed);
}

void AffixFilter::add_key(std::string_view key, bool exclusive) {
  uint64_t h = kPrefixSeed;
  for (size_t k = 0; k < key.size(); ++k) {
    h = step(h, key[k]);
    set(mix64(h), exclusive);
  }
  h = kSuffixSeed;
  for (size_t j = key.size(); j-- > 1;) {
    h = step(h, key[j]);
    set(mix64(h), exclusive);
  }
}

void AffixFilter::merge(const AffixFilter& other) {
  if (other.empty()) return;  // a copy no thread filled
  for (size_t i = 0; i < words_; ++i) bits_[i] |= other.bits_[i];
}

size_t AffixFilter::prefix_reach(std::string_view w) const {
  if (w.empty()) return 0;
  uint64_t h = step(kPrefixSeed, ascii_lower(w[0]));
  if (!test(mix64(h))) return 0;
  for (size_t k = 1; k < w.size(); ++k) {
    h = step(h, w[k]);
    if (!test(mix64(h))) return k;
  }
  return w.size();
}

size_t AffixFilter::suffix_reach(std::string_view w) const {
  uint64_t h = kSuffixSeed;
  for (size_t j = w.size(); j-- > 0;) {
    h = step(h, w[j]);
    if (!test(mix64(h))) return j + 1;
  }
  return 0;
}

}  // namespace spellcheck
