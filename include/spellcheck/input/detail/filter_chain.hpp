#pragma once
// One file's filters in a row (its markup filter, then the url filter), run
// over the reader's buffer ahead of the tokenizer: each filter has its own
// cursor, as each may hold back a few bytes at the end of a piece.
#include <cstddef>
#include <memory>
#include <vector>

#include "spellcheck/common/text_filters.hpp"
#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

struct InputFile;

class FilterChain {
 public:
  // The filters a file takes: its corpus format's (jsonl, warc), its
  // markup's, then the url filter if f asks for it.
  FilterChain(const InputFile& file, const TextFilters& f, const InputFormats& formats);

  bool empty() const { return stages_.empty(); }
  // A filter needs the whole file in one buffer (markup_filter.hpp).
  bool whole_file() const;

  // buf[0, n) is the buffer; at_end: n is the end of the range. Runs every
  // filter as far as the one before it has decided; returns how many bytes
  // at the buffer's start are final (n when at_end).
  size_t run(unsigned char* buf, size_t n, bool at_end);
  // The first `bytes` bytes (final) left the buffer.
  void dropped(size_t bytes);
  // The records the corpus format's filter could not read (nullptr: no
  // such filter).
  const MarkupFilter::Malformed* malformed() const { return corpus_ ? &corpus_->malformed() : nullptr; }

 private:
  struct Stage {
    std::unique_ptr<MarkupFilter> filter;
    size_t done = 0;  // bytes at the buffer's start this filter has decided
  };
  std::vector<Stage> stages_;
  const MarkupFilter* corpus_ = nullptr;
};

}  // namespace spellcheck
