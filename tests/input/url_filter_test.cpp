// The url filter: hunspell's decisions on hand-written cases, then against
// the reference's one-byte-at-a-time rule (tests/reference/reference_text.hpp)
// on random text, whole and streamed in pieces cut anywhere.
#include "spellcheck/input/detail/url_filter.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "reference/reference_text.hpp"

using namespace spellcheck;

namespace {

// The filter over text fed in pieces ending at the cuts (ascending), each
// call given what is left from the last one, as the document reader does.
std::string streamed(std::string text, std::vector<size_t> cuts) {
  auto f = make_url_filter();
  cuts.push_back(text.size());
  size_t done = 0;
  for (size_t k = 0; k < cuts.size(); ++k) {
    const size_t end = std::max(cuts[k], done);
    const bool at_end = k + 1 == cuts.size();
    auto* p = reinterpret_cast<unsigned char*>(text.data()) + done;
    const size_t n = end - done;
    const size_t got = f->filter(p, n, at_end);
    REQUIRE(got <= n);
    if (at_end) REQUIRE(got == n);
    else REQUIRE(got + kMarkupMaxHeld >= n);
    done += got;
  }
  return text;
}

std::string whole(std::string text) { return streamed(std::move(text), {}); }

std::string naive(std::string text) {
  reference::blank_urls(text);
  return text;
}

}  // namespace

// n blanks.
std::string sp(size_t n) { return std::string(n, ' '); }

TEST_CASE("URLs, addresses and paths go; prose with slashes and colons stays") {
  CHECK(whole("see http://example.com/a?b=c&d=e#f now") == std::string("see ") + sp(30) + " now");
  CHECK(whole("mail user@example.org.") == std::string("mail ") + sp(17));
  CHECK(whole("run /usr/bin/env, then") == std::string("run ") + sp(12) + ", then");
  CHECK(whole("C:\\Windows\\x y") == sp(12) + " y");
  CHECK(whole("(https://x.y/z)") == std::string("(") + sp(13) + ")");
  CHECK(whole("and/or 10:30 km/h e.g. note: yes") == "and/or 10:30 km/h e.g. note: yes");
  CHECK(whole("@handle and #tag") == "@handle and #tag");
  CHECK(whole("ftp://host\nnext") == sp(10) + "\nnext");
  CHECK(whole("caf\xC3\xA9@b.fr ok") == sp(10) + " ok");
  CHECK(whole("") == "");
  CHECK(whole("/") == " ");
}

TEST_CASE("the same as the reference's rule, whole and in pieces cut anywhere") {
  const std::vector<std::string> parts = {"http", "://", ":", "/", "@",  "a",   "bc",  " ",  "\n",
                                          ".",    "-",   "~", "%", "?",  "=",   "&",   "x1", "\xC3\xA9",
                                          "'",    ",",   "(", ")", "\\", "www", "com", "  "};
  std::mt19937_64 rng(7);
  for (int it = 0; it < 3000; ++it) {
    std::string text;
    const size_t n = rng() % 40;
    for (size_t k = 0; k < n; ++k) text += parts[rng() % parts.size()];
    CAPTURE(text);
    const std::string want = naive(text);
    REQUIRE(whole(text) == want);
    for (size_t cut = 0; cut <= text.size(); ++cut) REQUIRE(streamed(text, {cut}) == want);
    const size_t a = rng() % (text.size() + 1), b = rng() % (text.size() + 1);
    REQUIRE(streamed(text, {std::min(a, b), std::max(a, b)}) == want);
  }
}

TEST_CASE("a run longer than what may be held: its start is released, its end still judged") {
  // 5000 bytes of one run with no sign of a URL yet: released, not held;
  // the '@' in the next piece makes the rest of the run a URL.
  std::string text(5000, 'a');
  auto f = make_url_filter();
  CHECK(f->filter(reinterpret_cast<unsigned char*>(text.data()), text.size(), false) == text.size());
  CHECK(text == std::string(5000, 'a'));
  std::string rest = "aa@b.c tail";
  CHECK(f->filter(reinterpret_cast<unsigned char*>(rest.data()), rest.size(), true) == rest.size());
  CHECK(rest == sp(6) + " tail");
  // A URL longer than that: blanked as it goes.
  auto g = make_url_filter();
  std::string url = "http://" + std::string(5000, 'x');
  CHECK(g->filter(reinterpret_cast<unsigned char*>(url.data()), url.size(), false) == url.size());
  CHECK(url == sp(5007));
  std::string more = "yy/z end";
  CHECK(g->filter(reinterpret_cast<unsigned char*>(more.data()), more.size(), true) == more.size());
  CHECK(more == sp(4) + " end");
}
