#include "spellcheck/input/known_words.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

namespace {

uint64_t kept_bits() {
  const char* bits = std::getenv("SPELLCHECK_KNOWN_HASH_BITS");
  const long n = bits ? std::strtol(bits, nullptr, 10) : 64;
  return n >= 64 || n <= 0 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

// The slot a hash starts probing from (its low bits may be all that is kept).
uint64_t spread(uint64_t h) { return h * 0x9E3779B97F4A7C15ULL; }

}  // namespace

// A hash as stored: its exact bit clear, and never 0 (an empty slot).
uint64_t KnownWords::hash_of(std::string_view w) const {
  const uint64_t h = (word_hash(w) & keep_) & ~kExact;
  return h ? h : 2;
}

uint64_t KnownWords::home(uint64_t h) const { return spread(h) >> shift_; }

void KnownWords::insert(uint64_t raw, bool exact) {
  uint64_t h = (raw & keep_) & ~kExact;
  if (h == 0) h = 2;
  for (uint64_t i = home(h);; i = (i + 1) & mask_) {
    if (slots_[i] == 0 || (slots_[i] & ~kExact) == h) {
      slots_[i] = h | (slots_[i] & kExact) | (exact ? kExact : 0);
      return;
    }
  }
}

uint64_t KnownWords::find(uint64_t h) const {
  for (uint64_t i = home(h);; i = (i + 1) & mask_) {
    if (slots_[i] == 0 || (slots_[i] & ~kExact) == h) return slots_[i];
  }
}

KnownWords::KnownWords(const std::vector<uint64_t>& keys, const std::vector<uint64_t>& exact) : keep_(kept_bits()) {
  // At most 5 keys in 8 slots.
  const uint64_t n = std::bit_ceil(std::max<uint64_t>(16, keys.size() + keys.size() / 2 + 1));
  slots_.assign(n, 0);
  mask_ = n - 1;
  shift_ = 64 - std::countr_zero(n);
  for (const uint64_t h : keys) insert(h, false);
  for (const uint64_t h : exact) insert(h, true);
}

// SPEC's rule: a capitalised word by its key, any other by an exact entry.
bool KnownWords::correct(std::string_view w, uint64_t found) const {
  return found != 0 && (is_ascii_upper(static_cast<unsigned char>(w[0])) || (found & kExact) != 0);
}

bool KnownWords::probably_correct(std::string_view w) const {
  if (w.empty() || slots_.empty()) return false;
  return correct(w, find(hash_of(w)));
}

void KnownWords::probably_correct(const std::string_view* words, size_t n, uint8_t* out) const {
  constexpr size_t kAhead = 8;  // lookups in flight
  if (slots_.empty()) return;
  uint64_t hashes[kAhead];
  for (size_t b = 0; b < n; b += kAhead) {
    const size_t m = std::min(kAhead, n - b);
    for (size_t j = 0; j < m; ++j) {
      hashes[j] = hash_of(words[b + j]);
      __builtin_prefetch(&slots_[home(hashes[j])]);
    }
    for (size_t j = 0; j < m; ++j) out[b + j] = !words[b + j].empty() && correct(words[b + j], find(hashes[j]));
  }
}

}  // namespace spellcheck
