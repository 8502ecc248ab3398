// The nroff filter: each construct blanked or kept, byte for byte; pieces
// cut anywhere give the same bytes as one call; real man pages leave no
// request or escape names behind.
#include "spellcheck/input/detail/nroff_filter.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/input/tokenizer.hpp"

#include "input/filter_harness.hpp"

using namespace spellcheck;

namespace {

std::string whole(std::string s) { return testing::filter_whole(make_nroff_filter, std::move(s)); }
std::string pieces(const std::string& s, const std::vector<size_t>& cuts) {
  return testing::filter_pieces(make_nroff_filter, s, cuts);
}
using testing::gunzip;
using testing::tokens;

}  // namespace

TEST_CASE("nroff: requests are blanked, text lines kept") {
  CHECK(whole(".TH LS 1 \"2023\"\nSome text.\n.PP\nMore\n") == "               \nSome text.\n   \nMore\n");
  CHECK(whole(".br\n'sp 2\n.  in +4\nx\n") == "   \n     \n        \nx\n");
  CHECK(whole(".\n.\\\" a comment\ntext\n") == " \n             \ntext\n");
  // A request line continued by a backslash.
  CHECK(whole(".ds xx a \\\nb c\nok\n") == "          \n   \nok\n");
}

TEST_CASE("nroff: text macros keep their arguments, blank name and quotes") {
  CHECK(whole(".SH \"SEE ALSO\"\n") == "     SEE ALSO \n");
  CHECK(whole(".B bold words\n") == "   bold words\n");
  CHECK(whole(".BR ls (1),\n") == "    ls (1),\n");
  // .IP: the tag is prose, the indent is not.
  CHECK(whole(".IP \\(bu 4\nitem\n") == "          \nitem\n");
  CHECK(whole(".IP \"two words\" 2m\nx\n") == "     two words    \nx\n");
  CHECK(whole(".IP tag\nx\n") == "    tag\nx\n");
  CHECK(whole(".TP\n.B \\-a\nall\n") == "   \n     a\nall\n");
}

TEST_CASE("nroff: mdoc text macros keep their words, blank the macros called on them") {
  CHECK(whole(".Sy Dq word Ar file\n.Nd list Fl files\nA Fl x\n") ==
        "       word    file\n    list    files\nA Fl x\n");
  CHECK(whole(".Sh DESCRIPTION\n.Ss Sub Xr ls 1 .\n.It Fl v\n") == "    DESCRIPTION\n    Sub    ls 1 .\n        \n");
}

TEST_CASE("nroff: definitions, examples and table heads are blanked") {
  CHECK(whole(".de XX\nword\n..\nafter\n") == "      \n    \n  \nafter\n");
  CHECK(whole(".ig\nnot this\n..\nyes\n") == "   \n        \n  \nyes\n");
  CHECK(whole(".EX\ncode here\n.EE\nprose\n") == "   \n         \n   \nprose\n");
  CHECK(whole(".TS\ntab(:);\nl l.\nA:B\n.TE\n") == "   \n       \n    \nA:B\n   \n");
  // .nf/.fi only change filling: the text in between stays.
  CHECK(whole(".nf\nkept\n.fi\n") == "   \nkept\n   \n");
}

TEST_CASE("nroff: font, size, string, register and motion escapes are blanked") {
  CHECK(whole("\\fBbold\\fR and \\fIit\\fP\n") == "   bold    and    it   \n");
  CHECK(whole("\\f(CWx\\f[B]y\\f[]z\n") == "     x     y    z\n");
  CHECK(whole("\\s+2big\\s0 \\s-2s\\s12t\\s(12u\\s[10]v\n") == "    big        s    t     u      v\n");
  CHECK(whole("\\*(lqq\\*(rq \\*R \\*[str]w\n") == "     q                 w\n");
  CHECK(whole("\\n(.lx \\n+ay \\n[reg]z\n") == "     x     y        z\n");
  CHECK(whole("a\\h'1i'b \\v'-1v'c \\w'abc'd\n") == "a      b        c        d\n");
  CHECK(whole("x\\-y \\e\\\\ z\\c\n") == "x  y      z  \n");
}

TEST_CASE("nroff: comments are blanked, the newline kept") {
  CHECK(whole("text \\\" comment\nnext\n") == "text           \nnext\n");
  CHECK(whole("text \\# comment\nnext\n") == "text           \nnext\n");
}

TEST_CASE("nroff: zero-width escapes join the word around them") {
  CHECK(whole("ex\\%ample\n") == "example  \n");
  CHECK(whole("foo\\&bar x\n") == "foobar   x\n");
  CHECK(whole("\\&.dot\n") == "  .dot\n");
  CHECK(whole("a\\|b\\^c\n") == "abc    \n");
  CHECK(tokens(whole("\\fBex\\%am\\&ple\\fP\n")) == std::vector<std::string>{"example"});
}

TEST_CASE("nroff: letter special characters are decoded, others blanked") {
  CHECK(whole("caf\\('e ok\n") == "caf\xC3\xA9   ok\n");
  CHECK(whole("Stra\\(sse\n") ==
        "Stra\xC3\x9F"
        "e  \n");
  CHECK(whole("don\\(aqt\n") == "don't   \n");
  CHECK(whole("M\\(:uller\n") == "M\xC3\xBCller  \n");
  CHECK(whole("M\\[:u]ller \\[u00E9]t\\['e]\n") == "M\xC3\xBCller    \xC3\xA9t\xC3\xA9         \n");
  CHECK(whole("a\\(bub \\(em c \\[dq]d\n") == "a    b      c      d\n");
}

TEST_CASE("nroff: any cut gives the same bytes as one call") {
  const std::string doc =
      ".TH X 1\n.SH NAME\n.IP \"a b\" 4\n.Sy Dq word  Ar file\nx \\- caf\\('e ex\\%ample\n.de "
      "YY\nbody\n..\n\\fBbold\\fR \\h'2m'text \\\" c\n"
      ".TS\nl.\nA\n.TE\n.EX\ncode\n.EE\nM\\[:u]ller \\*(lqq\\*(rq \\s+2b\\s0\n.ds a \\\nb\nend\n";
  const std::string want = whole(doc);
  for (size_t a = 0; a <= doc.size(); ++a) {
    CAPTURE(a);
    REQUIRE(pieces(doc, {a}) == want);
    for (size_t b = a; b <= doc.size(); b += 7) REQUIRE(pieces(doc, {a, b}) == want);
  }
  // Byte at a time.
  std::vector<size_t> every;
  for (size_t i = 1; i < doc.size(); ++i) every.push_back(i);
  CHECK(pieces(doc, every) == want);
}

TEST_CASE("nroff: a long word with a joining escape is held back no more than allowed") {
  const std::string doc = "a\\&" + std::string(1000, 'b') + " end\n";
  const std::string want = whole(doc);
  std::vector<size_t> cuts;
  for (size_t i = 10; i < doc.size(); i += 100) cuts.push_back(i);
  const std::string got = pieces(doc, cuts);
  CHECK(got.size() == doc.size());
  CHECK(tokens(got).back() == "end");
}

// Real man pages (manpages-de etc. are in install-deps.sh; these are from
// packages every Debian has).
TEST_CASE("nroff: real man pages leave no request or escape names") {
  const std::vector<std::string> pages = {"/usr/share/man/man1/ls.1.gz",   "/usr/share/man/man1/bash.1.gz",
                                          "/usr/share/man/man1/gzip.1.gz", "/usr/share/man/man1/tar.1.gz",
                                          "/usr/share/man/man1/find.1.gz", "/usr/share/man/man1/grep.1.gz"};
  const std::vector<std::string> banned = {"fB", "fR", "fI", "fP", "TH", "SH", "PP", "br", "TP", "RS", "RE", "sp"};
  for (const auto& page : pages) {
    CAPTURE(page);
    REQUIRE_MESSAGE(std::filesystem::exists(page), page, " is missing (packages coreutils, bash, gzip, tar, ",
                    "findutils, grep with their man pages: see scripts/install-deps.sh)");
    const std::string src = gunzip(page);
    size_t before = 0;
    for (const auto& t : tokens(src)) before += std::find(banned.begin(), banned.end(), t) != banned.end();
    CHECK(before > 0);  // the check below can fail
    const std::string out = whole(src);
    REQUIRE(out.size() == src.size());
    for (size_t i = 0; i < src.size(); ++i)
      if (src[i] == '\n') REQUIRE(out[i] == '\n');
    for (const auto& t : tokens(out)) {
      CAPTURE(t);
      CHECK(std::find(banned.begin(), banned.end(), t) == banned.end());
    }
    std::vector<size_t> cuts;
    std::mt19937 rng(7);
    for (size_t at = 0; at < src.size(); at += 1 + rng() % 4096) cuts.push_back(at);
    CHECK(pieces(src, cuts) == out);
  }
}
