#pragma once
// The WARC filter (ISO 28500, WARC/1.0 and 1.1: Common Crawl's .warc and
// .warc.wet files, decompressed by the reader). A WARC file is a sequence
// of records: a version line "WARC/1.x", header lines "Name: value", an
// empty line, Content-Length payload bytes, then "\r\n\r\n". What is kept:
// - conversion records (WET, extracted text): the payload, as it is;
// - response records of Content-Type application/http: the HTTP body, after
//   the HTTP headers, when its Content-Type is text/html or
//   application/xhtml+xml (through a fresh HTML filter per record) or
//   text/plain (as it is). Other bodies (images, PDF, JSON) and bodies
//   stored with a Content-Encoding or Transfer-Encoding (gzip, br, chunked:
//   WARC keeps the raw HTTP bytes) are blanked;
// - resource records of Content-Type text/html, application/xhtml+xml or
//   text/plain: the payload, like an HTTP body.
// Everything else is blanked: version and header lines, the CR/LF between
// records, the HTTP headers, and every other record type (warcinfo,
// request, metadata, revisit, continuation).
//
// Malformed records (counted in malformed(), at their first byte): a record
// that does not start with "WARC/" where one is expected (bytes between
// records that are not CR/LF), a header block without a Content-Length or
// with one that is not a number, a header block longer than kMarkupMaxHeld
// bytes, and a record the file ends in (a truncated last record: what was
// read is filtered as usual). After a bad header or stray bytes the filter
// blanks up to the next line that starts with "WARC/1." and goes on there.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

class WarcFilter final : public MarkupFilter {
 public:
  // offset: the record's first byte, counted from the first byte given to
  // the filter; target_uri: its WARC-Target-URI ("" if absent).
  using RecordCallback = std::function<void(uint64_t offset, std::string_view target_uri)>;

  // f is called for every record whose payload is (partly) kept as prose
  // (conversion; response and resource records with a text body), before
  // any of its payload bytes are returned as final.
  void on_record(RecordCallback f) { on_record_ = std::move(f); }

  size_t filter(unsigned char* buf, size_t n, bool at_end) override;

 private:
  enum class State : uint8_t {
    between,      // after a record (or at the start): CR/LF, then "WARC/"
    header,       // at a record's first byte, its header block to be read
    http_header,  // at a response payload's first byte: the HTTP headers
    body,         // payload bytes counted down
    resync,       // after a malformed record: up to a line "WARC/1."
  };
  enum class Body : uint8_t { blank, keep, html };
  struct Cursor;

  bool between(Cursor& c);
  bool header(Cursor& c);
  bool http_header(Cursor& c);
  bool body(Cursor& c);
  bool resync(Cursor& c);
  void start_payload(std::string_view type, std::string_view media);
  void keep_body(Body kind);
  void bad_record(Cursor& c);

  State state_ = State::between;
  Body body_ = Body::blank;
  bool line_start_ = false;             // resync: at a line's first byte
  uint64_t consumed_ = 0;               // bytes returned as final so far
  uint64_t record_at_ = 0;              // the current record's first byte
  uint64_t remaining_ = 0;              // payload bytes still to come
  std::string target_uri_;              // the current record's WARC-Target-URI
  std::unique_ptr<MarkupFilter> html_;  // the current record's HTML body
  RecordCallback on_record_;
};

std::unique_ptr<MarkupFilter> make_warc_filter();

}  // namespace spellcheck
