#pragma once
// The one hash of a word: XXH3 of the word with its first byte lowered
// (ASCII A-Z only), so that `Apple` and `apple` have the same hash, the same
// owner rank and the same Bloom filter bits. It is computed once per word or
// candidate and reused for owner, filter and table.
#include <xxhash.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace spellcheck {

inline bool is_ascii_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
inline char ascii_lower(char c) {
  return is_ascii_upper(static_cast<unsigned char>(c)) ? static_cast<char>(c + 32) : c;
}

inline uint64_t word_hash(std::string_view w) {
  if (w.empty() || !is_ascii_upper(static_cast<unsigned char>(w[0]))) return XXH3_64bits(w.data(), w.size());
  // Short words (nearly all) are lowered on the stack: no allocation.
  char buf[64];
  if (w.size() <= sizeof buf) {
    for (size_t i = 0; i < w.size(); ++i) buf[i] = w[i];
    buf[0] = ascii_lower(buf[0]);
    return XXH3_64bits(buf, w.size());
  }
  // Long words (rare): a per-thread buffer, reused.
  thread_local std::string long_word;
  long_word.assign(w);
  long_word[0] = ascii_lower(long_word[0]);
  return XXH3_64bits(long_word.data(), long_word.size());
}

// A 64-bit finaliser (xor-shift, multiply): spreads every input bit over
// the whole word, for the hashes built here from cheaper parts (ingest's
// table keys, the affix filter's byte-by-byte hashes).
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  return x;
}

// Owner rank of a word hash: the low 32 bits scaled to [0, p) by a multiply
// and a shift (Lemire's range reduction). The published design takes hash
// mod p; a 64-bit division costs tens of cycles and every candidate that
// passes the trigram filter needs its owner (a fifth of the candidate loop
// went to `div`). The Bloom filter picks blocks from the high 32 bits, so
// the two stay independent.
inline int owner_of(uint64_t h, int ranks) {
  return static_cast<int>((static_cast<uint64_t>(static_cast<uint32_t>(h)) * static_cast<uint64_t>(ranks)) >> 32);
}

// Who owns a hash: owner_of, or, for tables compiled in 2^bucket_bits
// buckets of the low 32 bits (a compiled ranked index), the same scaling of
// the bucket, so that every rank holds whole buckets.
struct Ownership {
  int ranks = 1;
  unsigned bucket_bits = 0;  // 0: owner_of (the same on one bucket: then one rank)
  int operator()(uint64_t h) const {
    if (bucket_bits == 0) return owner_of(h, ranks);
    const uint64_t bucket = static_cast<uint32_t>(h) >> (32 - bucket_bits);
    return static_cast<int>((bucket * static_cast<uint64_t>(ranks)) >> bucket_bits);
  }
};

}  // namespace spellcheck
