// The JSON Lines filter: the text value kept and decoded byte for byte,
// everything else blanked; malformed records counted where they start;
// streaming in pieces cut anywhere gives the bytes of one whole call; and
// on random JSONL the filtered tokens are those of the decoded text values.
#include "spellcheck/input/detail/jsonl_filter.hpp"

#include <doctest/doctest.h>
#include <simdjson.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "spellcheck/input/tokenizer.hpp"

using namespace spellcheck;

namespace {

unsigned char* bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

struct Result {
  std::string out;
  std::vector<uint64_t> malformed;
  std::vector<std::pair<uint64_t, std::string>> records;
  bool operator==(const Result&) const = default;
};

std::unique_ptr<JsonlFilter> make(Result& r, const std::string& id_field) {
  auto f = make_jsonl_filter("text");
  if (!id_field.empty())
    f->on_record([&r](uint64_t off, std::string_view id) { r.records.emplace_back(off, std::string(id)); }, id_field);
  return f;
}

Result run_whole(std::string s, const std::string& id_field = "") {
  Result r;
  auto f = make(r, id_field);
  REQUIRE(f->filter(bytes(s), s.size(), true) == s.size());
  r.out = std::move(s);
  r.malformed = f->malformed().first;
  CHECK(f->malformed().count == r.malformed.size());
  return r;
}

std::string filtered(std::string s) { return run_whole(std::move(s)).out; }

// Feeds in in pieces ending at cuts (ascending), as a reader does: the bytes
// from the returned k on are kept and the next piece appended to them.
Result streamed(std::string_view in, const std::vector<size_t>& cuts, const std::string& id_field = "") {
  Result r;
  auto f = make(r, id_field);
  std::string buf;
  size_t pos = 0;
  for (size_t i = 0; i <= cuts.size(); ++i) {
    const size_t next = i < cuts.size() ? cuts[i] : in.size();
    buf.append(in.substr(pos, next - pos));
    pos = next;
    const bool at_end = i == cuts.size();
    const size_t k = f->filter(bytes(buf), buf.size(), at_end);
    REQUIRE(k <= buf.size());
    if (at_end) REQUIRE(k == buf.size());
    // Held back: an unfinished line, no '\n' in it.
    REQUIRE(buf.find('\n', k) == std::string::npos);
    r.out.append(buf, 0, k);
    buf.erase(0, k);
  }
  r.malformed = f->malformed().first;
  return r;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  for_each_token(s, [&](std::string_view t, size_t) { out.emplace_back(t); });
  return out;
}

std::string sp(size_t n) { return std::string(n, ' '); }

}  // namespace

TEST_CASE("a plain record: the text value stays, the rest is blanked") {
  CHECK(filtered("{\"text\": \"Hello world\"}\n") == sp(10) + "Hello world" + sp(2) + "\n");
  CHECK(filtered("{\"text\":\"\"}\n") == sp(11) + "\n");
}

TEST_CASE("other members are blanked, whatever they hold") {
  const std::string in =
      R"({"id": 7, "meta": {"text": "no", "a": [1, "text", {"x": null}]}, "text": "yes sir", "b": [true, -1.5e3]})";
  const size_t at = in.find("yes sir");
  CHECK(filtered(in) == sp(at) + "yes sir" + sp(in.size() - at - 7));
  CHECK(filtered(R"({"title": "text", "texts": "no", "text": "ok"})") == sp(42) + "ok" + sp(2));
}

TEST_CASE("escapes are decoded, the run of non-space bytes compacted") {
  // "{"text": "" is 10 bytes, the closing "} 2.
  auto one = [](const std::string& value) { return filtered("{\"text\": \"" + value + "\"}").substr(10); };
  CHECK(one(R"(caf\u00e9 na\u00efve)") == "café" + sp(5) + "naïve" + sp(4) + sp(2));
  CHECK(one(R"(don\u2019t)") == "don\xE2\x80\x99t   " + sp(2));
  CHECK(one(R"(\"quoted\")") == "\"quoted\"" + sp(2) + sp(2));
  CHECK(one(R"(line\nbreak)") == "line  break" + sp(2));
  CHECK(one(R"(a\r\t\b\fz \\ \/)") == "a" + sp(8) + "z \\  / " + sp(2));
  CHECK(one(R"(x\ud83d\ude00y)") == "x\xF0\x9F\x98\x80y" + sp(8) + sp(2));  // U+1F600 separates tokens, not runs
  CHECK(one(R"(x\ud835\udc00y)") == "x\xF0\x9D\x90\x80y" + sp(8) + sp(2));  // U+1D400 is a letter
  CHECK(one(R"(\u00c9l\u00e8ve\u2014fin)") ==
        "\xC3\x89l\xC3\xA8ve\xE2\x80\x94"
        "fin" +
            sp(11) + sp(2));
  // A URL or path reads as unescaped (the url filter sees it whole).
  CHECK(one(R"(http:\/\/x.org\/a C:\\dir)") == "http://x.org/a" + sp(3) + " C:\\dir" + sp(1) + sp(2));
  CHECK(one(R"(it\u0027s \u0041B)") == "it's      AB     " + sp(2));
  CHECK(one(R"(a\u000ab)") == "a" + sp(6) + "b" + sp(2));  // an escaped line end is no line end
}

TEST_CASE("no prose: the text member absent, null, a number, an object") {
  for (const std::string in : {R"({"body": "words here"})", R"({"text": null})", R"({"text": 12})",
                               R"({"text": {"text": "x"}})", R"({"text": ["x"]})", R"({})"}) {
    const Result r = run_whole(in + "\n");
    CHECK(r.out == sp(in.size()) + "\n");
    CHECK(r.malformed.empty());
  }
}

TEST_CASE("a malformed line is blanked and counted where it starts") {
  const std::string a = R"({"text": "good one"})", bad = R"({"text": "bad" )", b = R"({"text": "good two"})";
  const Result r = run_whole(a + "\n" + bad + "\n" + b + "\n");
  CHECK(r.out == sp(10) + "good one  \n" + sp(bad.size()) + "\n" + sp(10) + "good two  \n");
  CHECK(r.malformed == std::vector<uint64_t>{a.size() + 1});
  for (const std::string& in :
       {std::string("{\"text\": \"caf\xC3\"}"),           // invalid UTF-8 in the string
        std::string("{\"text\": \"x\xFF\"}"),             // invalid UTF-8 in the string
        std::string(R"({"text": "a\x"})"),                // bad escape
        std::string(R"({"text": "a\ud800"})"),            // lone surrogate
        std::string(R"({"other": "a\q", "text": "x"})"),  // bad escape elsewhere
        std::string(R"({"text": "a"} trailing garbage)"), std::string(R"({"text": "a"}})"),
        std::string(R"(["text", "a"])"), std::string(R"("text")"), std::string("{\"text\": \"a\tb\"}"),
        std::string(R"({"text": "a", "n": 01})"), std::string(R"({"text": "a", "n": tru})"),
        std::string(R"({"text": "a",})"), std::string("{\"text\": \"a\""), std::string("not json")}) {
    CAPTURE(in);
    const Result m = run_whole("\n" + in + "\n");
    CHECK(m.out == std::string("\n") + sp(in.size()) + "\n");
    CHECK(m.malformed == std::vector<uint64_t>{1});
  }
}

TEST_CASE("empty and white-space lines are not records; a last line needs no '\\n'") {
  const Result r = run_whole("\n  \t\r\n{\"text\": \"a\"}");
  CHECK(r.out == "\n    \n" + sp(10) + "a  ");
  CHECK(r.malformed.empty());
}

TEST_CASE("duplicate keys: the first text member is the prose") {
  CHECK(filtered(R"({"text": "first", "text": "second"})") == sp(10) + "first" + sp(20));
  CHECK(filtered(R"({"text": null, "text": "second"})") == sp(32));
  CHECK(filtered(R"({"t\u0065xt": "escaped key"})") == sp(15) + "escaped key" + sp(2));
}

TEST_CASE("CRLF line ends: the '\\r' is blanked") {
  CHECK(filtered("{\"text\": \"a b\"}\r\n{\"text\": \"c\"}\r\n") == sp(10) + "a b   \n" + sp(10) + "c   \n");
}

TEST_CASE("record ids") {
  const std::string in = std::string(R"({"id": "doc\u00e9 1", "text": "a"})") + "\n\n" + R"({"text": "b", "id": 42 })" +
                         "\n" + R"({"text": "c"})" + "\n" + R"({"id": "x", "text": )" + "\n" + R"({"id": [1]})";
  const Result r = run_whole(in, "id");
  using P = std::pair<uint64_t, std::string>;
  const size_t l3 = in.find("{\"text\": \"b\"");
  const size_t l4 = in.find("{\"text\": \"c\"");
  const size_t l5 = in.find("{\"id\": \"x\"");
  const size_t l6 = in.find("{\"id\": [1]");
  CHECK(r.records == std::vector<P>{{0, "doc\xC3\xA9 1"}, {l3, "42"}, {l4, ""}, {l5, ""}, {l6, ""}});
  CHECK(r.malformed == std::vector<uint64_t>{l5});
  CHECK(words(r.out) == std::vector<std::string>{"a", "b", "c"});
}

namespace {

const std::string kSample = std::string(R"({"id": 1, "text": "caf\u00e9 don\u2019t \"q\" x\ny\ud83d\ude00z"})") +
                            "\r\n\n" + R"({"text": "bad)" + "\n" + R"({"meta": {"text": "no"}, "text": "two words"})" +
                            "\n   \n" + R"({"id": "b", "text": null})" + "\n" + R"({"text": "last \u00e9l\u00e8ve"})";

}  // namespace

TEST_CASE("streaming: pieces cut anywhere give the bytes of one whole call") {
  const Result whole = run_whole(kSample, "id");
  REQUIRE(whole.malformed.size() == 1);
  for (size_t a = 0; a <= kSample.size(); ++a) {
    CAPTURE(a);
    CHECK(streamed(kSample, {a}, "id") == whole);
  }
  for (size_t step = 1; step < 9; ++step) {
    std::vector<size_t> cuts;
    for (size_t c = step; c < kSample.size(); c += step) cuts.push_back(c);
    CHECK(streamed(kSample, cuts, "id") == whole);
  }
}

TEST_CASE("a line of kMaxLineBytes or more is malformed, whole or in pieces") {
  const std::string big = "{\"text\": \"" + std::string(kMaxLineBytes, 'a') + "\"}";
  const std::string in = R"({"text": "ok"})"
                         "\n" +
                         big + "\n" + R"({"text": "end"})";
  const Result whole = run_whole(in);
  CHECK(whole.malformed == std::vector<uint64_t>{15});
  CHECK(words(whole.out) == std::vector<std::string>{"ok", "end"});
  std::vector<size_t> cuts;  // a reader's buffer of kMaxLineBytes + 1 bytes
  for (size_t c = kMaxLineBytes + 1; c < in.size(); c += kMaxLineBytes / 3) cuts.push_back(c);
  CHECK(streamed(in, cuts) == whole);
  const std::string just = "{\"text\": \"" + std::string(kMaxLineBytes - 13, 'b') + "\"}\n";  // one byte short
  CHECK(just.size() == kMaxLineBytes);
  CHECK(run_whole(just).malformed.empty());
}

namespace {

// A random JSON string body with every escape kind, raw UTF-8 letters and
// separators.
std::string random_body(std::mt19937& rng) {
  static const std::vector<std::string> pieces = {"word",
                                                  "Straße",
                                                  "naïve",
                                                  "日本",
                                                  " ",
                                                  "  ",
                                                  ", ",
                                                  "'",
                                                  "don't",
                                                  "x'",
                                                  "\\\"",
                                                  "\\\\",
                                                  "\\/",
                                                  "\\n",
                                                  "\\r",
                                                  "\\t",
                                                  "\\b",
                                                  "\\f",
                                                  "\\u00e9",
                                                  "\\u00C9",
                                                  "\\u2019",
                                                  "\\u0027",
                                                  "\\u0041",
                                                  "\\u2014",
                                                  "\\u0020",
                                                  "\\u000a",
                                                  "\\ud83d\\ude00",
                                                  "\\ud835\\udc00",
                                                  "\\u65e5",
                                                  "—",
                                                  "42",
                                                  "a1b",
                                                  "e\\u0301",
                                                  "\xE2\x80\x99",
                                                  "-",
                                                  ".",
                                                  "\\u00a0"};
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1), len(0, 12);
  std::string s;
  for (size_t i = len(rng); i > 0; --i) s += pieces[pick(rng)];
  return s;
}

std::string random_other(std::mt19937& rng) {
  static const std::vector<std::string> values = {"1",
                                                  "-2.5e3",
                                                  "null",
                                                  "true",
                                                  "[]",
                                                  "{}",
                                                  "\"text\"",
                                                  R"({"text": "inner words", "n": [1, {"m": "deep"}]})",
                                                  R"(["text", "more words", 3])",
                                                  R"("sentence with \"quotes\" and \u00e9")"};
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  return values[pick(rng)];
}

// A random record; the decoded text (or nothing) appended to texts.
std::string random_record(std::mt19937& rng, std::string& texts) {
  std::uniform_int_distribution<int> die(0, 9);
  std::vector<std::string> members;
  for (int i = die(rng) % 4; i > 0; --i)
    members.push_back("\"k" + std::to_string(die(rng)) + "\": " + random_other(rng));
  const int kind = die(rng);
  if (kind < 7) members.push_back("\"text\": \"" + random_body(rng) + "\"");
  else if (kind == 7) members.push_back("\"text\": null");
  else if (kind == 8) members.push_back("\"text\": 3");
  std::shuffle(members.begin(), members.end(), rng);
  std::string rec = "{";
  for (size_t i = 0; i < members.size(); ++i) rec += (i ? ", " : "") + members[i];
  rec += "}";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(rec).get(doc) == simdjson::SUCCESS);
  std::string_view text;
  if (doc["text"].get(text) == simdjson::SUCCESS) {
    std::string t(text);
    for (char& c : t)
      if (c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') c = ' ';
    texts += t;
  }
  texts += '\n';
  return rec;
}

}  // namespace

TEST_CASE("property: the filtered tokens are the tokens of the decoded text values") {
  std::mt19937 rng(20240611);
  for (int round = 0; round < 300; ++round) {
    std::string in, texts;
    for (int i = 0; i < 8; ++i) in += random_record(rng, texts) + (i % 3 == 2 ? "\r\n" : "\n");
    const Result r = run_whole(in);
    CAPTURE(in);
    CHECK(r.malformed.empty());
    CHECK(r.out.size() == in.size());
    CHECK(words(r.out) == words(texts));
    if (round % 30 == 0) {
      std::uniform_int_distribution<size_t> cut(0, in.size());
      size_t a = cut(rng), b = cut(rng);
      if (a > b) std::swap(a, b);
      CHECK(streamed(in, {a, b}) == r);
    }
  }
}
