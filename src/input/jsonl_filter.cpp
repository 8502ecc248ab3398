#include "spellcheck/input/detail/jsonl_filter.hpp"
#include "spellcheck/common/utf8.hpp"

#include <simdjson.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "spellcheck/input/tokenizer.hpp"

namespace spellcheck {

namespace {

void blank_line(unsigned char* p, size_t n) { std::memset(p, ' ', n); }  // a line holds no '\n'

// The value of 4 hex digits at p; a value above 0xFFFF when one is not.
uint32_t hex4(const unsigned char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned char b = p[i], l = b | 0x20;
    const uint32_t d = b >= '0' && b <= '9' ? b - '0' : l >= 'a' && l <= 'f' ? l - 'a' + 10u : 0x10000u;
    v = v * 16 + d;
  }
  return v;
}

struct Escape {
  uint32_t cp;  // what it stands for; ' ' for the white space and control escapes
  size_t len;   // of the escape, '\\' included
};

// The escape at p[0] == '\\', avail bytes left in the string. simdjson has
// validated it; whatever else comes is a separator, never a crash.
Escape parse_escape(const unsigned char* p, size_t avail) {
  if (avail < 2) return {' ', avail};
  if (p[1] == '"' || p[1] == '\\' || p[1] == '/') return {p[1], 2};
  if (p[1] != 'u') return {' ', 2};  // \n \r \t \b \f: a space, not a line end
  if (avail < 6) return {' ', avail};
  uint32_t cp = hex4(p + 2);
  if (cp >= 0xD800 && cp < 0xDC00 && avail >= 12 && p[6] == '\\' && p[7] == 'u') {
    const uint32_t lo = hex4(p + 8);
    if (lo >= 0xDC00 && lo < 0xE000) return {0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00), 12};
  }
  if (cp < 0x20 || (cp >= 0xD800 && cp < 0xE000) || cp > 0xFFFF) cp = ' ';
  return {cp, 6};
}

// A JSON string's raw bytes p[0, len), decoded in place: see the header.
// Bytes [0, w) are done; in a run compacted after a decoded escape w < r
// and [w, r) are free, blanked where the run ends.
class Decoder {
 public:
  Decoder(unsigned char* p, size_t len) : p_(p), len_(len) {}

  void run() {
    while (r_ < len_) {
      if (w_ == r_) {  // no gap: bytes stay up to the next escape
        const void* q = std::memchr(p_ + r_, '\\', len_ - r_);
        if (q == nullptr) return;
        r_ = w_ = static_cast<size_t>(static_cast<const unsigned char*>(q) - p_);
        escape();
      } else if (p_[r_] == '\\') {
        escape();
      } else {
        compact_one();
      }
    }
    end_word();
  }

 private:
  void end_word() {
    std::memset(p_ + w_, ' ', r_ - w_);
    w_ = r_;
  }

  void escape() {
    const Escape e = parse_escape(p_ + r_, len_ - r_);
    unsigned char d[4];
    const size_t dl = write_utf8(e.cp, d);
    if (e.cp > ' ') {
      std::memcpy(p_ + w_, d, dl);  // the run goes on
      w_ += dl;
      r_ += e.len;
      return;
    }
    end_word();
    std::memcpy(p_ + r_, d, dl);
    std::memset(p_ + r_ + dl, ' ', e.len - dl);
    w_ = r_ += e.len;
  }

  // In a run after a gap: moves its next byte up, or ends it at white
  // space (a JSON string holds no raw control character).
  void compact_one() {
    if (p_[r_] <= ' ') return end_word();
    p_[w_++] = p_[r_++];
  }

  unsigned char* const p_;
  const size_t len_;
  size_t r_ = 0, w_ = 0;
};

// Where the members of a line that simdjson's DOM parser has accepted
// are: the DOM keeps no source offsets, so the raw bytes of a value are
// found by scanning the (valid) line again.
class RawScan {
 public:
  RawScan(const char* p, size_t n) : p_(p), n_(n) {}

  size_t skip_space(size_t i) const {
    while (i < n_ && (p_[i] == ' ' || p_[i] == '\t' || p_[i] == '\r' || p_[i] == '\n')) ++i;
    return i;
  }

  // p_[i] == '"': the index of the closing quote.
  size_t string_end(size_t i) const {
    for (size_t j = i + 1;; ++j) {
      const void* q = std::memchr(p_ + j, '"', n_ - j);
      if (q == nullptr) return n_;  // not after validation
      j = static_cast<size_t>(static_cast<const char*>(q) - p_);
      size_t k = j;
      while (p_[k - 1] == '\\') --k;
      if ((j - k) % 2 == 0) return j;  // not escaped
    }
  }

  // The end of the value at i.
  size_t value_end(size_t i) const {
    if (p_[i] == '"') return string_end(i) + 1;
    if (p_[i] != '{' && p_[i] != '[') {
      while (i < n_ && p_[i] != ',' && p_[i] != '}' && p_[i] != ']' && p_[i] != ' ' && p_[i] != '\t' && p_[i] != '\r')
        ++i;
      return i;
    }
    for (size_t depth = 0; i < n_; ++i) {
      const char c = p_[i];
      if (c == '"') i = string_end(i);
      else if (c == '{' || c == '[') ++depth;
      else if ((c == '}' || c == ']') && --depth == 0) return i + 1;
    }
    return n_;
  }

  // The raw value of the top-level member number idx; after the object's
  // '{' the first time, then always further on.
  std::string_view member_value(size_t idx) {
    if (at_ == 0) at_ = skip_space(0) + 1;
    for (;;) {
      const size_t key = skip_space(at_);
      const size_t value = skip_space(skip_space(string_end(key) + 1) + 1);  // after the ':'
      const size_t end = value_end(value);
      at_ = skip_space(end) + 1;  // after the ',' (or the '}')
      if (member_++ == idx) return {p_ + value, end - value};
    }
  }

 private:
  const char* const p_;
  const size_t n_;
  size_t at_ = 0, member_ = 0;
};

// What a record holds, as offsets in its line.
struct Found {
  bool have_text = false;
  size_t begin = 0, end = 0;  // the text value's raw bytes, quotes excluded
};

class JsonlFilterImpl final : public JsonlFilter {
 public:
  explicit JsonlFilterImpl(std::string text_field) : text_field_(std::move(text_field)) {}

  void on_record(RecordFn f, std::string id_field) override {
    record_fn_ = std::move(f);
    id_field_ = std::move(id_field);
  }

  size_t filter(unsigned char* buf, size_t n, bool at_end) override {
    size_t pos = 0;
    if (skipping_long_) pos = skip_long(buf, n);
    while (pos < n) {
      const void* q = std::memchr(buf + pos, '\n', n - pos);
      if (q != nullptr) {
        const size_t e = static_cast<size_t>(static_cast<const unsigned char*>(q) - buf);
        line(buf + pos, e - pos, consumed_ + pos);
        pos = e + 1;
      } else if (at_end || n - pos >= kMaxLineBytes) {
        line(buf + pos, n - pos, consumed_ + pos);
        skipping_long_ = !at_end;  // too long: blanked up to its '\n', in the calls to come
        pos = n;
      } else {
        break;  // an unfinished line: held back
      }
    }
    consumed_ += pos;
    return pos;
  }

 private:
  // The rest of a too long line: blanked up to its '\n'.
  size_t skip_long(unsigned char* buf, size_t n) {
    const void* q = std::memchr(buf, '\n', n);
    const size_t e = q == nullptr ? n : static_cast<size_t>(static_cast<const unsigned char*>(q) - buf);
    blank_line(buf, e);
    if (q == nullptr) return n;
    skipping_long_ = false;
    return e + 1;
  }

  // One line, without its '\n'.
  void line(unsigned char* p, size_t len, uint64_t offset) {
    size_t i = 0;
    while (i < len && i < kMaxLineBytes && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r')) ++i;
    if (i == len) return blank_line(p, len);  // not a record
    Found found;
    id_.clear();
    if (len >= kMaxLineBytes || !parse(p, len, found)) {
      blank_line(p, len);
      malformed_.add(offset);
      return report(offset);
    }
    report(offset);
    if (!found.have_text) return blank_line(p, len);
    blank_line(p, found.begin);
    blank_line(p + found.end, len - found.end);
    Decoder(p + found.begin, found.end - found.begin).run();
  }

  void report(uint64_t offset) {
    if (record_fn_) record_fn_(offset, id_);
  }

  // Parses the line from a padded copy; false when malformed. The DOM
  // parser validates all of it (faster here than walking every value of
  // the ondemand API: see the bench); the raw bytes of the text member are
  // then found with a RawScan.
  bool parse(const unsigned char* p, size_t len, Found& found) {
    if (copy_.size() < len + simdjson::SIMDJSON_PADDING) copy_.resize(len + simdjson::SIMDJSON_PADDING);
    std::memcpy(copy_.data(), p, len);
    simdjson::dom::object obj;
    if (parser_.parse(copy_.data(), len, false).get_object().get(obj)) return false;
    constexpr size_t kNone = ~size_t{0};
    size_t text = kNone, id = kNone, idx = 0;
    simdjson::dom::element id_value;
    for (const auto member : obj) {
      if (text == kNone && member.key == text_field_) {
        text = member.value.is_string() ? idx : kNone - 1;  // not a string: no prose
      } else if (id == kNone && !id_field_.empty() && member.key == id_field_) {
        id = idx;
        id_value = member.value;
      }
      ++idx;
    }
    RawScan scan(copy_.data(), len);
    const auto raw_id = [&] {
      std::string_view s;
      if (id_value.get_string().get(s) == simdjson::SUCCESS) id_.assign(s);
      else if (id_value.is_number()) id_.assign(scan.member_value(id));
    };
    if (id != kNone && id < text) raw_id();  // the scan goes forward only
    if (text < kNone - 1) {
      const std::string_view v = scan.member_value(text);
      found.have_text = true;
      found.begin = static_cast<size_t>(v.data() - copy_.data()) + 1;
      found.end = found.begin + v.size() - 2;
    }
    if (id != kNone && id > text) raw_id();
    return true;
  }

  const std::string text_field_;
  std::string id_field_;
  RecordFn record_fn_;
  std::string id_;  // the record's id (reused)
  simdjson::dom::parser parser_;
  std::vector<char> copy_;  // the line, padded for simdjson (grows, never shrinks)
  uint64_t consumed_ = 0;   // bytes of the file before buf[0]
  bool skipping_long_ = false;
};

}  // namespace

std::unique_ptr<JsonlFilter> make_jsonl_filter(std::string text_field) {
  return std::make_unique<JsonlFilterImpl>(std::move(text_field));
}

}  // namespace spellcheck
