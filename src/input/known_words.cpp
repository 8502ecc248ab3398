#include "spellcheck/input/known_words.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

namespace {

// 0 marks an empty slot: a hash of 0 is stored as 1 (a collision more).
uint64_t nonzero(uint64_t h) { return h ? h : 1; }

uint64_t kept_bits() {
  const char* bits = std::getenv("SPELLCHECK_KNOWN_HASH_BITS");
  const long n = bits ? std::strtol(bits, nullptr, 10) : 64;
  return n >= 64 || n <= 0 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

// The slot a hash starts probing from (its low bits may be all that is kept).
uint64_t spread(uint64_t h) { return h * 0x9E3779B97F4A7C15ULL; }

}  // namespace

void KnownWords::HashSet::build(const std::vector<uint64_t>& hashes, uint64_t keep) {
  const uint64_t n = std::bit_ceil(std::max<uint64_t>(16, hashes.size() * 2));
  slots.assign(n, 0);
  mask = n - 1;
  for (const uint64_t raw : hashes) {
    const uint64_t h = nonzero(raw & keep);
    for (uint64_t i = home(h);; i = (i + 1) & mask) {
      if (slots[i] == h) break;
      if (slots[i] == 0) {
        slots[i] = h;
        break;
      }
    }
  }
}

uint64_t KnownWords::HashSet::home(uint64_t h) const { return spread(h) >> (64 - std::countr_zero(slots.size())); }

bool KnownWords::HashSet::contains(uint64_t h) const {
  if (slots.empty()) return false;
  for (uint64_t i = home(h);; i = (i + 1) & mask) {
    if (slots[i] == h) return true;
    if (slots[i] == 0) return false;
  }
}

KnownWords::KnownWords(const std::vector<uint64_t>& keys, const std::vector<uint64_t>& exact) : keep_(kept_bits()) {
  keys_.build(keys, keep_);
  exact_.build(exact, keep_);
}

const KnownWords::HashSet& KnownWords::set_for(std::string_view w) const {
  return is_ascii_upper(static_cast<unsigned char>(w[0])) ? keys_ : exact_;
}

uint64_t KnownWords::hash_of(std::string_view w) const { return nonzero(word_hash(w) & keep_); }

bool KnownWords::probably_correct(std::string_view w) const {
  if (w.empty() || keys_.slots.empty()) return false;
  return set_for(w).contains(hash_of(w));
}

void KnownWords::probably_correct(const std::string_view* words, size_t n, uint8_t* out) const {
  constexpr size_t kAhead = 8;  // lookups in flight
  if (keys_.slots.empty()) return;
  uint64_t hashes[kAhead];
  for (size_t b = 0; b < n; b += kAhead) {
    const size_t m = std::min(kAhead, n - b);
    for (size_t j = 0; j < m; ++j) {
      if (words[b + j].empty()) continue;
      hashes[j] = hash_of(words[b + j]);
      const HashSet& set = set_for(words[b + j]);
      __builtin_prefetch(&set.slots[set.home(hashes[j])]);
    }
    for (size_t j = 0; j < m; ++j) out[b + j] = !words[b + j].empty() && set_for(words[b + j]).contains(hashes[j]);
  }
}

}  // namespace spellcheck
