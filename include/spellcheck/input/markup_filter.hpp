#pragma once
// Markup filters (--filter html|markdown|tex|nroff): what is not prose in a
// marked-up document (tags, macros, code, link targets) is blanked in
// place, in the reader's buffer, before the tokenizer sees it. Blanking keeps
// every byte where it was, so stream positions, lines and columns (--report)
// stay those of the file.
//
// The contract every filter keeps:
// - A skipped byte becomes ' ', except '\n', which stays (line numbers).
//   Prose bytes stay as they are.
// - A filter may decode (an entity, an accent macro) when the decoded text is
//   no longer than what it replaces: the decoded bytes are written where the
//   construct began, the rest of the word moved up after them, and the bytes
//   freed at the word's end blanked. A token then starts where it started in
//   the file, and every later token too.
// - Constructs end tokens: "un<b>real</b>" gives "un" and "real".
// - A filter sees a file's bytes once, in order, in pieces (streaming), and
//   keeps its state (inside a comment, a code block, ...) between pieces.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "spellcheck/common/text_filters.hpp"

namespace spellcheck {

// A filter may hold back at most this many bytes at the end of a piece (an
// unfinished "</scr", an entity, a word with an entity in it, a run that may
// turn out to be a URL). The reader's buffer is far bigger.
inline constexpr size_t kMarkupMaxHeld = 4096;

// One file's filter, from the file's first byte on.
class MarkupFilter {
 public:
  virtual ~MarkupFilter() = default;
  // buf[0, n) continues the file where the previous call's result left off
  // (the first call: at the file's first byte). Blanks (and decodes) in
  // place; returns k <= n: bytes [0, k) are final, bytes [k, n) untouched,
  // and the next call starts with the byte at k. at_end: n reaches the end of the file, and k == n.
  // Otherwise k >= n - kMarkupMaxHeld, unless whole_file().
  virtual size_t filter(unsigned char* buf, size_t n, bool at_end) = 0;
  // True for a filter that needs the whole file in one call (a parser that
  // does not stream): it returns 0 until at_end.
  virtual bool whole_file() const { return false; }

  // Records a corpus format's filter could not read (a malformed JSON line,
  // a truncated WARC record): how many, and where the first kMalformedKept
  // of them start, as offsets from the first byte this filter was given.
  // Their bytes are blanked; the run goes on (--strict makes it exit 2).
  struct Malformed {
    uint64_t count = 0;
    std::vector<uint64_t> first;
    void add(uint64_t offset) {
      if (count++ < kMalformedKept) first.push_back(offset);
    }
  };
  static constexpr size_t kMalformedKept = 100;
  const Malformed& malformed() const { return malformed_; }

 protected:
  Malformed malformed_;
};

// The filter for m (nullptr for Markup::none).
std::unique_ptr<MarkupFilter> make_markup_filter(Markup m);
// The filter that keeps the text of a corpus format's records (nullptr for
// CorpusFormat::text).
std::unique_ptr<MarkupFilter> make_corpus_filter(CorpusFormat f, const InputFormats& formats);

}  // namespace spellcheck
