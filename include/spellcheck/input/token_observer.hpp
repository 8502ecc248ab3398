#pragma once
// A second look at the text, token by token (context, issue 32): the
// document reader hands an observer each thread's tokens in text order, in
// batches, with two hashes each: the word as written, and the word with its
// first letter lowered (a sentence's first word and the same word inside it
// are one context).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "spellcheck/input/detail/word_table.hpp"

namespace spellcheck {

struct ObservedToken {
  uint64_t exact = 0;     // the table's hash of the word as written (exact_token_hash)
  uint64_t context = 0;   // context_token_hash
  uint64_t position = 0;  // stream position (InputPlan offsets)
  uint64_t mark = 0;      // its line mark (line_marks.hpp) if the reader counts lines, else 0
  uint32_t length = 0;    // its bytes
  uint8_t before = 0;     // the byte before it in the text the tokenizer saw (0: a file's first byte)
};

// Called by the reading threads, each with its own thread number (below
// the reader's team size); calls for one thread number never overlap.
class TokenObserver {
 public:
  virtual ~TokenObserver() = default;
  // A work unit begins: bytes [begin, end) of plan file `file` (the tokens
  // whose first byte lies in the range snapped as document_reader.hpp
  // says). A file's units partition it: the unit ending at `begin` holds
  // the neighbour before this one's first token (or an earlier unit, if
  // that one has no tokens).
  virtual void unit_begins(int thread, uint32_t file, uint64_t begin, uint64_t end) = 0;
  // The unit's next tokens, in text order.
  virtual void tokens(int thread, const ObservedToken* tokens, size_t n) = 0;
};

inline uint64_t exact_token_hash(const WordKey& k) { return k.h; }

// Words of up to 16 bytes: the first byte ASCII-lowered; longer words as
// written (rare; a capital there costs a missed context only).
inline uint64_t context_token_hash(const WordKey& k) {
  if (k.len > kInlineWordBytes) return k.h;
  const uint64_t first = k.w0 & 0xFF;
  const uint64_t w0 = first >= 'A' && first <= 'Z' ? k.w0 | 0x20 : k.w0;
  return word_table_hash(w0, k.w1, k.len);
}

inline uint64_t exact_token_hash(std::string_view w) { return key_of(w).h; }
inline uint64_t context_token_hash(std::string_view w) { return context_token_hash(key_of(w)); }

}  // namespace spellcheck
