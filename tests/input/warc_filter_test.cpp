// The WARC filter: hand-built WARC files (each record's Content-Length
// counted here) for every record type and every malformed case; streaming
// in pieces cut anywhere gives the bytes, malformed records and record
// callbacks of one whole call; and a WET file made of real prose (the
// licences in /usr/share/common-licenses) tokenizes as its payloads do.
#include "spellcheck/input/detail/warc_filter.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "spellcheck/input/detail/html_filter.hpp"
#include "spellcheck/input/tokenizer.hpp"

using namespace spellcheck;

namespace {

unsigned char* bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

// s with every byte but '\n' blanked, as a filter skips it.
std::string blanked(std::string s) {
  for (char& ch : s)
    if (ch != '\n') ch = ' ';
  return s;
}

// A record's header block: version line, WARC-Type, the extra lines, the
// Content-Length of payload, the empty line.
std::string head(std::string_view type, std::string_view payload, std::string_view extra = "",
                 std::string_view version = "WARC/1.0") {
  return std::string(version) + "\r\nWARC-Type: " + std::string(type) +
         "\r\nWARC-Record-ID: <urn:uuid:0b7e7a5c-1d34-4c0e-9f3b-52a4c0f7a1de>\r\n" + std::string(extra) +
         "Content-Length: " + std::to_string(payload.size()) + "\r\n\r\n";
}

constexpr std::string_view kTrailer = "\r\n\r\n";

std::string record(std::string_view type, std::string_view payload, std::string_view extra = "") {
  return head(type, payload, extra) + std::string(payload) + std::string(kTrailer);
}

// The record's bytes when only its payload is kept.
std::string kept(std::string_view type, std::string_view payload, std::string_view extra = "") {
  return blanked(head(type, payload, extra)) + std::string(payload) + blanked(std::string(kTrailer));
}

std::string html_filtered(std::string s) {
  auto f = make_html_filter();
  REQUIRE(f->filter(bytes(s), s.size(), true) == s.size());
  return s;
}

struct Run {
  std::string out;
  uint64_t malformed = 0;
  std::vector<uint64_t> first;
  std::vector<std::pair<uint64_t, std::string>> records;
  bool operator==(const Run&) const = default;
};

// Feeds in in pieces ending at cuts (ascending), as a reader does: the bytes
// from the returned k on are kept and the next piece appended to them. Each
// callback must come before its record's payload is final.
Run streamed(std::string_view in, const std::vector<size_t>& cuts) {
  WarcFilter f;
  Run r;
  size_t final_end = 0;
  f.on_record([&](uint64_t offset, std::string_view uri) {
    // The payload starts after the header block's empty line.
    REQUIRE(final_end <= in.find("\r\n\r\n", offset) + 4);
    r.records.emplace_back(offset, uri);
  });
  std::string buf;
  size_t pos = 0;
  for (size_t i = 0; i <= cuts.size(); ++i) {
    const size_t next = i < cuts.size() ? cuts[i] : in.size();
    buf.append(in.substr(pos, next - pos));
    pos = next;
    const bool at_end = i == cuts.size();
    const size_t k = f.filter(bytes(buf), buf.size(), at_end);
    REQUIRE(k <= buf.size());
    if (at_end) REQUIRE(k == buf.size());
    REQUIRE(buf.size() - k <= kMarkupMaxHeld);
    r.out.append(buf, 0, k);
    final_end += k;
    buf.erase(0, k);
  }
  r.malformed = f.malformed().count;
  r.first = f.malformed().first;
  return r;
}

Run whole(std::string_view in) { return streamed(in, {}); }

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  for_each_token(s, [&](std::string_view t, size_t) { out.emplace_back(t); });
  return out;
}

const std::string kHtmlBody =
    "<html><head><title>Cats</title><script>var x = 1;</script></head>\n"
    "<body><p>Cats &amp; dogs are <b>pets</b>.</p></body></html>\n";

std::string http(std::string_view content_type, std::string_view body, std::string_view extra = "") {
  return "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: " + std::string(content_type) + "\r\n" +
         std::string(extra) + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

}  // namespace

TEST_CASE("warcinfo is blanked, a conversion record's payload kept byte for byte") {
  const std::string info = "software: spellcheck-test\r\nformat: WARC File Format 1.1\r\n";
  const std::string text = "The quick brown fox\njumps over the lazy dog.\n\nSecond paragraph.";
  const std::string uri = "WARC-Target-URI: http://example.com/fox\r\n";
  const std::string in = record("warcinfo", info) + record("conversion", text, uri);
  const Run r = whole(in);
  CHECK(r.out == blanked(record("warcinfo", info)) + kept("conversion", text, uri));
  CHECK(r.malformed == 0);
  REQUIRE(r.records.size() == 1);
  CHECK(r.records[0].first == record("warcinfo", info).size());
  CHECK(r.records[0].second == "http://example.com/fox");
}

TEST_CASE("a response's HTTP headers are blanked and its HTML body filtered") {
  const std::string payload = http("text/html; charset=UTF-8", kHtmlBody);
  const std::string extra =
      "WARC-Target-URI: <https://example.org/cats>\r\nContent-Type: application/http; msgtype=response\r\n";
  const std::string in = record("response", payload, extra);
  const std::string head_bytes = head("response", payload, extra);
  const std::string http_head = payload.substr(0, payload.size() - kHtmlBody.size());
  const Run r = whole(in);
  CHECK(r.out == blanked(head_bytes) + blanked(http_head) + html_filtered(kHtmlBody) + blanked(std::string(kTrailer)));
  CHECK(words(r.out) == std::vector<std::string>{"Cats", "Cats", "dogs", "are", "pets"});
  REQUIRE(r.records.size() == 1);
  CHECK(r.records[0] == std::pair<uint64_t, std::string>{0, "https://example.org/cats"});
}

TEST_CASE("bodies that are not text, or are encoded, are blanked") {
  const std::string ct = "Content-Type: application/http;msgtype=response\r\n";
  const std::string png = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR words in an image", 35);
  for (const std::string& payload :
       {http("image/png", png), http("application/json", "{\"word\": \"text\"}"),
        http("text/html", kHtmlBody, "Content-Encoding: gzip\r\n"),
        http("text/html", kHtmlBody, "Transfer-Encoding: chunked\r\n"), std::string("no HTTP here\r\n\r\nwords"),
        std::string("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n<p>headers never end</p>")}) {
    const std::string in = record("response", payload, ct);
    const Run r = whole(in);
    CHECK(r.out == blanked(in));
    CHECK(r.records.empty());
    CHECK(r.malformed == 0);
  }
  // A response that is not HTTP (dns:), whatever it holds.
  const std::string dns =
      record("response", "20240101 example.org. 300 IN A 93.184.216.34", "Content-Type: text/dns\r\n");
  CHECK(whole(dns).out == blanked(dns));
}

TEST_CASE("text/plain bodies and resource records") {
  const std::string ct = "Content-Type: application/http; msgtype=response\r\n";
  const std::string plain = "Plain words, kept.\n";
  const std::string payload = http("text/plain; charset=utf-8", plain);
  const std::string in = record("response", payload, ct);
  CHECK(whole(in).out == blanked(head("response", payload, ct)) +
                             blanked(payload.substr(0, payload.size() - plain.size())) + plain +
                             blanked(std::string(kTrailer)));

  const std::string html_ct = "Content-Type: text/html\r\n";
  CHECK(whole(record("resource", kHtmlBody, html_ct)).out ==
        blanked(head("resource", kHtmlBody, html_ct)) + html_filtered(kHtmlBody) + blanked(std::string(kTrailer)));
  CHECK(whole(record("resource", plain, "Content-Type: text/plain\r\n")).out ==
        kept("resource", plain, "Content-Type: text/plain\r\n"));
  const std::string pdf = record("resource", "%PDF-1.4 words", "Content-Type: application/pdf\r\n");
  CHECK(whole(pdf).out == blanked(pdf));
  CHECK(whole(pdf).records.empty());
}

TEST_CASE("request, metadata, revisit records are blanked whole") {
  for (const char* type : {"request", "metadata", "revisit", "continuation", "warcinfo"}) {
    const std::string in = record(type, "GET /index.html HTTP/1.1\r\nHost: example.org\r\n\r\nsome words");
    const Run r = whole(in);
    CHECK(r.out == blanked(in));
    CHECK(r.records.empty());
    CHECK(r.malformed == 0);
  }
}

TEST_CASE("WARC/1.1, lower-case names, a Content-Length of 0") {
  const std::string text = "Lower case headers still count.";
  const std::string h = "WARC/1.1\r\nwarc-type: conversion\r\nwarc-target-uri: http://a.example/\r\ncontent-length: " +
                        std::to_string(text.size()) + "\r\n\r\n";
  const std::string empty = record("conversion", "");
  const std::string in = h + text + std::string(kTrailer) + empty;
  const Run r = whole(in);
  CHECK(r.out == blanked(h) + text + blanked(std::string(kTrailer)) + blanked(empty));
  CHECK(r.malformed == 0);
  REQUIRE(r.records.size() == 2);
  CHECK(r.records[0].second == "http://a.example/");
  CHECK(r.records[1] == std::pair<uint64_t, std::string>{in.size() - empty.size(), ""});
}

TEST_CASE("malformed records are counted, blanked, and the next record still read") {
  const std::string good = record("conversion", "Good words here.");
  const std::string good_kept = kept("conversion", "Good words here.");
  SUBCASE("a truncated last record") {
    const std::string full = record("conversion", "Truncated words then the file ends");
    const std::string in = good + full.substr(0, full.size() - 12);
    const Run r = whole(in);
    CHECK(r.malformed == 1);
    CHECK(r.first == std::vector<uint64_t>{good.size()});
    CHECK(r.out == good_kept + kept("conversion", "Truncated words then the file ends").substr(0, full.size() - 12));
  }
  SUBCASE("a file cut inside a header block") {
    const std::string in = good + "WARC/1.0\r\nWARC-Type: conv";
    const Run r = whole(in);
    CHECK(r.out == good_kept + blanked("WARC/1.0\r\nWARC-Type: conv"));
    CHECK(r.first == std::vector<uint64_t>{good.size()});
  }
  SUBCASE("a garbage line between records") {
    const std::string in = good + "garbage line\r\nmore WARC/1.0 junk\n" + good;
    const Run r = whole(in);
    CHECK(r.out == good_kept + blanked("garbage line\r\nmore WARC/1.0 junk\n") + good_kept);
    CHECK(r.first == std::vector<uint64_t>{good.size()});
    CHECK(r.records.size() == 2);
  }
  SUBCASE("no Content-Length, or not a number") {
    const std::string none = "WARC/1.0\r\nWARC-Type: conversion\r\n\r\nwords without a length\r\n\r\n";
    const std::string bad = "WARC/1.0\r\nWARC-Type: conversion\r\nContent-Length: 12x\r\n\r\nwords\r\n\r\n";
    const std::string in = none + bad + good;
    const Run r = whole(in);
    CHECK(r.out == blanked(none + bad) + good_kept);
    CHECK(r.first == std::vector<uint64_t>{0, none.size()});
  }
  SUBCASE("a Content-Length too short leaves stray bytes") {
    std::string h = head("conversion", "0123456789");
    const std::string in = h + "0123456789 and more\r\n\r\n" + good;
    const Run r = whole(in);
    CHECK(r.out == blanked(h) + "0123456789" + blanked(" and more\r\n\r\n") + good_kept);
    CHECK(r.first == std::vector<uint64_t>{h.size() + 10});
  }
  SUBCASE("a header block longer than kMarkupMaxHeld") {
    const std::string in = "WARC/1.0\r\nWARC-Type: conversion\r\nX-Long: " + std::string(kMarkupMaxHeld, 'x') + "\r\n" +
                           "Content-Length: 5\r\n\r\nwords\r\n\r\n" + good;
    const Run r = whole(in);
    CHECK(r.out == blanked(in.substr(0, in.size() - good.size())) + good_kept);
    CHECK(r.first == std::vector<uint64_t>{0});
  }
  SUBCASE("a file that is no WARC") {
    const std::string in = "just some text\nWARC/1 no\n";
    const Run r = whole(in);
    CHECK(r.out == blanked(in));
    CHECK(r.malformed == 1);
  }
}

TEST_CASE("pieces cut anywhere give the bytes, counts and callbacks of one call") {
  const std::string ct = "Content-Type: application/http; msgtype=response\r\n";
  const std::string long_html = "<p>" + std::string(kMarkupMaxHeld + 300, 'a') + " caf&eacute; <b>x</b></p>";
  const std::string in = record("warcinfo", "software: x\r\n") +
                         record("conversion", "Words\nand lines.", "WARC-Target-URI: http://a/\r\n") +
                         record("response", http("text/html", kHtmlBody), ct) + "junk\r\n" +
                         record("response", http("image/png", "\x89PNG..."), ct) +
                         record("resource", long_html, "Content-Type: text/html\r\n") +
                         record("request", "GET / HTTP/1.1\r\n\r\n") + "WARC/1.1\r\nContent-Length: x\r\n\r\n" +
                         record("conversion", "") + head("conversion", "Last, truncated.") + "Last";
  const Run one = whole(in);
  CHECK(one.malformed == 3);
  CHECK(one.records.size() == 5);
  for (size_t cut = 0; cut <= in.size(); ++cut) REQUIRE(streamed(in, {cut}) == one);
  std::vector<size_t> every(in.size());
  for (size_t i = 0; i < in.size(); ++i) every[i] = i;
  CHECK(streamed(in, every) == one);
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<size_t> cuts;
    for (size_t at = 0; (at += rng() % 700) < in.size();) cuts.push_back(at);
    REQUIRE(streamed(in, cuts) == one);
  }
}

TEST_CASE("a WET file of real prose tokenizes as its payloads") {
  const std::filesystem::path dir = "/usr/share/common-licenses";
  if (!std::filesystem::is_directory(dir)) return;
  std::string wet = record("warcinfo", "isPartOf: CC-MAIN-TEST\r\nformat: WARC File Format 1.0\r\n");
  std::vector<std::string> payload_words;
  size_t docs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream f(e.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(f)), {});
    const std::string extra = "WARC-Target-URI: https://licenses.example/" + e.path().filename().string() +
                              "\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: text/plain\r\n";
    wet += record("conversion", text, extra);
    for (auto& w : words(text)) payload_words.push_back(std::move(w));
    ++docs;
  }
  REQUIRE(docs > 5);
  const Run r = whole(wet);
  CHECK(r.malformed == 0);
  CHECK(r.records.size() == docs);
  const std::vector<std::string> got = words(r.out);
  CHECK(got == payload_words);
  for (const char* w : {"WARC", "Target", "URI", "Record", "Content", "Length"})
    CHECK(std::count(got.begin(), got.end(), w) == std::count(payload_words.begin(), payload_words.end(), w));
  std::vector<size_t> cuts;
  for (size_t at = 1000; at < wet.size(); at += 4093) cuts.push_back(at);
  CHECK(streamed(wet, cuts) == r);
}
