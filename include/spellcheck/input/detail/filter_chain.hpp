#pragma once
// One file's filters in a row (its markup filter, then the url filter), run
// over the reader's buffer ahead of the tokenizer: each filter has its own
// cursor, as each may hold back a few bytes at the end of a piece.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
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

  // The corpus format's records (JSON Lines, WARC; jsonl_filter.hpp,
  // warc_filter.hpp): f(offset, id) for each, offset counted from the
  // first byte given to run(), id its id_field member (JSON Lines) or its
  // WARC-Target-URI. False (f unused) when the file has no records.
  using RecordFn = std::function<void(uint64_t offset, std::string_view id)>;
  bool on_record(RecordFn f, const std::string& id_field);

 private:
  struct Stage {
    std::unique_ptr<MarkupFilter> filter;
    size_t done = 0;  // bytes at the buffer's start this filter has decided
  };
  std::vector<Stage> stages_;
  MarkupFilter* corpus_ = nullptr;
};

}  // namespace spellcheck
