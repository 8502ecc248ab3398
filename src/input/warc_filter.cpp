#include "spellcheck/input/detail/warc_filter.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "spellcheck/input/detail/html_filter.hpp"

namespace spellcheck {

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// Skipped bytes become ' '; '\n' stays (line numbers). Branch-free, so it
// vectorises over a blanked payload.
void blank(unsigned char* p, size_t len) {
  for (size_t i = 0; i < len; ++i) p[i] = p[i] == '\n' ? '\n' : ' ';
}

// p[0, len) starts with prefix's first min(len, prefix.size()) bytes.
bool starts_as(const unsigned char* p, size_t len, std::string_view prefix) {
  return std::memcmp(p, prefix.data(), std::min(len, prefix.size())) == 0;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

// ASCII case-insensitive; b is lower case.
bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != b[i]) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The end (one past its '\n') of the header block in p[0, len): the first
// empty line ("\r\n" or "\n"); kNone when it is not there yet.
size_t block_end(const unsigned char* p, size_t len) {
  for (size_t s = 0; s < len;) {
    const auto* q = static_cast<const unsigned char*>(std::memchr(p + s, '\n', len - s));
    if (q == nullptr) return kNone;
    const size_t nl = static_cast<size_t>(q - p);
    if (nl == s || (nl == s + 1 && p[s] == '\r')) return nl + 1;
    s = nl + 1;
  }
  return kNone;
}

// Calls f(name, value) for the "Name: value" lines of a header block, after
// its first line (the version or status line). Folded lines are ignored.
template <class F>
void for_each_field(std::string_view block, F&& f) {
  size_t s = block.find('\n');
  while (s != std::string_view::npos && s + 1 < block.size()) {
    const size_t e = block.find('\n', s + 1);
    const std::string_view line = block.substr(s + 1, e == std::string_view::npos ? e : e - s - 1);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos && !line.empty() && line[0] != ' ' && line[0] != '\t')
      f(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
    s = e;
  }
}

// "text/html; charset=utf-8" -> "text/html".
std::string_view media_type(std::string_view content_type) {
  return trim(content_type.substr(0, content_type.find(';')));
}

bool is_html(std::string_view media) { return iequals(media, "text/html") || iequals(media, "application/xhtml+xml"); }

// Decimal digits only, at most 18 (no overflow).
bool parse_length(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  uint64_t v = 0;
  for (const char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + static_cast<uint64_t>(ch - '0');
  }
  out = v;
  return true;
}

}  // namespace

struct WarcFilter::Cursor {
  unsigned char* buf;
  size_t n;
  bool at_end;
  size_t p = 0;  // the first byte not yet final
};

size_t WarcFilter::filter(unsigned char* buf, size_t n, bool at_end) {
  Cursor c{buf, n, at_end};
  for (bool go = true; go && c.p < n;) {
    switch (state_) {
      case State::between: go = between(c); break;
      case State::header: go = header(c); break;
      case State::http_header: go = http_header(c); break;
      case State::body: go = body(c); break;
      case State::resync: go = resync(c); break;
    }
  }
  // The file ends inside a payload: a truncated record, read as far as it goes.
  if (at_end && (state_ == State::body || state_ == State::http_header) && remaining_ > 0) {
    malformed_.add(record_at_);
    state_ = State::between;
    html_.reset();
  }
  consumed_ += c.p;
  return c.p;
}

// After a record: CR/LF are blanked, then a record must start with "WARC/".
bool WarcFilter::between(Cursor& c) {
  while (c.p < c.n && (c.buf[c.p] == '\r' || c.buf[c.p] == '\n')) {
    if (c.buf[c.p] == '\r') c.buf[c.p] = ' ';
    ++c.p;
  }
  const size_t avail = c.n - c.p;
  if (avail == 0) return true;
  const std::string_view magic = "WARC/";
  const bool magic_so_far = starts_as(c.buf + c.p, avail, magic);
  if (magic_so_far && avail < magic.size() && !c.at_end) return false;  // "WAR" at a piece's end
  if (magic_so_far && avail >= magic.size()) {
    state_ = State::header;
    return true;
  }
  // Stray bytes where a record should start (a wrong Content-Length, junk).
  bad_record(c);
  return true;
}

// Counts the record starting at c.p as malformed and skips to the next line
// "WARC/1." (the bad bytes are blanked on the way).
void WarcFilter::bad_record(Cursor& c) {
  malformed_.add(consumed_ + c.p);
  state_ = State::resync;
  line_start_ = false;
}

// At a record's first byte: the header block is held until its empty line
// is in the buffer, up to kMarkupMaxHeld bytes.
bool WarcFilter::header(Cursor& c) {
  const size_t window = std::min(c.n - c.p, kMarkupMaxHeld);
  const size_t end = block_end(c.buf + c.p, window);
  if (end == kNone) {
    if (window < kMarkupMaxHeld && !c.at_end) return false;
    bad_record(c);  // too long, or cut by the file's end
    return true;
  }
  const std::string_view block(reinterpret_cast<const char*>(c.buf + c.p), end);
  std::string_view type, content_type;
  bool has_length = false, length_ok = true;
  target_uri_.clear();
  for_each_field(block, [&](std::string_view name, std::string_view value) {
    if (iequals(name, "warc-type")) type = value;
    else if (iequals(name, "content-type")) content_type = value;
    else if (iequals(name, "content-length")) {
      has_length = true;
      length_ok = parse_length(value, remaining_);
    } else if (iequals(name, "warc-target-uri")) {
      // WARC/1.0's grammar put the URI in <>; some writers still do.
      if (value.size() >= 2 && value.front() == '<' && value.back() == '>') value = value.substr(1, value.size() - 2);
      target_uri_.assign(value);
    }
  });
  if (!has_length || !length_ok) {
    bad_record(c);
    return true;
  }
  record_at_ = consumed_ + c.p;
  start_payload(type, media_type(content_type));  // before the blanking: the views are into the block
  blank(c.buf + c.p, end);
  c.p += end;
  return true;
}

// Chooses what the payload becomes from the record's WARC-Type and
// Content-Type.
void WarcFilter::start_payload(std::string_view type, std::string_view media) {
  state_ = State::body;
  body_ = Body::blank;
  if (iequals(type, "conversion")) {
    keep_body(Body::keep);
  } else if (iequals(type, "response")) {
    if (iequals(media, "application/http")) state_ = State::http_header;
  } else if (iequals(type, "resource")) {
    if (is_html(media)) keep_body(Body::html);
    else if (iequals(media, "text/plain")) keep_body(Body::keep);
  }
}

// The payload (from here on) is prose: announce the record, before any of
// its bytes are final.
void WarcFilter::keep_body(Body kind) {
  body_ = kind;
  if (kind == Body::html) html_ = make_html_filter();
  if (on_record_) on_record_(record_at_, target_uri_);
}

// At a response payload's first byte: the HTTP status line and headers,
// held until their empty line is in the buffer (within the payload and
// kMarkupMaxHeld). Unreadable headers: the payload is blanked whole.
bool WarcFilter::http_header(Cursor& c) {
  state_ = State::body;
  body_ = Body::blank;
  const size_t window = static_cast<size_t>(std::min<uint64_t>(remaining_, kMarkupMaxHeld));
  const size_t avail = std::min(c.n - c.p, window);
  const size_t end = block_end(c.buf + c.p, avail);
  if (end == kNone) {
    if (avail < window && !c.at_end) {
      state_ = State::http_header;
      return false;
    }
    return true;
  }
  const std::string_view block(reinterpret_cast<const char*>(c.buf + c.p), end);
  if (!block.starts_with("HTTP/")) return true;
  std::string_view media;
  bool encoded = false;
  for_each_field(block, [&](std::string_view name, std::string_view value) {
    if (iequals(name, "content-type")) media = media_type(value);
    // Compressed or chunked bodies are stored as sent: not text to us.
    else if (iequals(name, "content-encoding") || iequals(name, "transfer-encoding"))
      encoded = encoded || !(value.empty() || iequals(value, "identity"));
  });
  if (!encoded && is_html(media)) keep_body(Body::html);
  else if (!encoded && iequals(media, "text/plain")) keep_body(Body::keep);
  blank(c.buf + c.p, end);
  c.p += end;
  remaining_ -= end;
  return true;
}

// Payload bytes, counted down; never held (the HTML filter may hold back
// an unfinished tag or reference of its own).
bool WarcFilter::body(Cursor& c) {
  const size_t avail = static_cast<size_t>(std::min<uint64_t>(remaining_, c.n - c.p));
  size_t done = avail;
  if (body_ == Body::blank) blank(c.buf + c.p, avail);
  else if (body_ == Body::html) done = html_->filter(c.buf + c.p, avail, avail == remaining_ || c.at_end);
  c.p += done;
  remaining_ -= done;
  if (remaining_ == 0) {
    state_ = State::between;
    html_.reset();
  }
  return done == avail;
}

// Blanks up to the next line that starts with "WARC/1.", the start of a
// record.
bool WarcFilter::resync(Cursor& c) {
  const std::string_view magic = "WARC/1.";
  while (c.p < c.n) {
    const size_t avail = c.n - c.p;
    if (line_start_ && starts_as(c.buf + c.p, avail, magic)) {
      if (avail >= magic.size()) {
        state_ = State::header;
        return true;
      }
      if (!c.at_end) return false;
    }
    const auto* q = static_cast<const unsigned char*>(std::memchr(c.buf + c.p, '\n', avail));
    const size_t stop = q == nullptr ? c.n : static_cast<size_t>(q - c.buf);
    blank(c.buf + c.p, stop - c.p);
    line_start_ = q != nullptr;
    c.p = q == nullptr ? c.n : stop + 1;
  }
  return true;
}

std::unique_ptr<MarkupFilter> make_warc_filter() { return std::make_unique<WarcFilter>(); }

}  // namespace spellcheck
