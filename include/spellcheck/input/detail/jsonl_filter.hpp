#pragma once
// The JSON Lines filter: each line of the file is one record, a JSON
// object. The string value of its top-level member text_field is the
// record's prose; every other byte of the line is blanked (keys, other
// values, braces, the text value's own quotes, a '\r' before the '\n').
//
// The text value's escapes are decoded in place by the compaction rule of
// markup_filter.hpp: \" \\ \/ give the character; \n \r \t \b \f (and any
// \u escape of a control character) give ' ', never '\n', so that line
// numbers stay record numbers; \uXXXX (surrogate pairs too) gives its UTF-8
// bytes. What is compacted is a run of non-space bytes, not only a word: a
// decoded character other than white space joins the run, white space ends
// it. So the run reads as the unescaped text does (`http:\/\/x.org\/a` is
// `http://x.org/a` for the url filter, `C:\\dir` is `C:\dir`); the cost is
// that a token after an escape in the same run starts a few bytes early
// (its --report column), tokens after the run where they were.
//
// A record whose text member is absent or not a string gives no prose. A
// line that simdjson does not accept whole (not JSON, not an object,
// trailing bytes, a bad escape or invalid UTF-8 anywhere) is malformed:
// blanked, and its first byte's offset recorded. Empty and white-space-only
// lines are not records. A last line without '\n' is a record.
//
// Streaming works on whole lines, an exception to kMarkupMaxHeld: a call
// returns the end of the last complete line (after its '\n') and holds the
// unfinished one back, up to kMaxLineBytes - 1 bytes. The caller must give
// pieces of at least kMaxLineBytes + 1 bytes (unless at_end). A line of
// kMaxLineBytes bytes or more is malformed, however it was cut: blanked to
// its '\n'.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

// The longest line (without its '\n') read as a record.
inline constexpr size_t kMaxLineBytes = size_t{8} << 20;

class JsonlFilter : public MarkupFilter {
 public:
  using RecordFn = std::function<void(uint64_t offset, std::string_view id)>;
  // Calls f once per record (every line that is not blank, malformed ones
  // too), in order, with the offset of its first byte (counted as for
  // malformed()) and the value of its top-level member id_field: a string
  // unescaped, a number as written; empty when absent, of another type,
  // when id_field is empty, or in a malformed record. The view is valid
  // during the call only.
  virtual void on_record(RecordFn f, std::string id_field) = 0;
};

std::unique_ptr<JsonlFilter> make_jsonl_filter(std::string text_field);

}  // namespace spellcheck
