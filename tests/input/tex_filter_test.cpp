// The TeX filter: each construct blanked, kept or decoded, byte for byte;
// pieces cut anywhere give the same bytes as one call; a real LaTeX book
// leaves no command names behind.
#include "spellcheck/input/detail/tex_filter.hpp"

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

std::string whole(std::string s) { return testing::filter_whole(make_tex_filter, std::move(s)); }
std::string pieces(const std::string& s, const std::vector<size_t>& cuts) {
  return testing::filter_pieces(make_tex_filter, s, cuts);
}
using testing::gunzip;
using testing::tokens;

}  // namespace

TEST_CASE("tex: control words are blanked, their arguments stay") {
  CHECK(whole("Text \\emph{word} and \\section{Title}\n") == "Text       word  and          Title \n");
  CHECK(whole("{a} b~c & d \\\\ e\\\\[2pt] f\n") == " a  b c   d    e        f\n");
  CHECK(whole("``quote'' don't\n") == "  quote   don't\n");
  CHECK(whole("\\verylongcommandname" + std::string(100, 'x') + " y\n") == std::string(120, ' ') + " y\n");
}

TEST_CASE("tex: comments are blanked, \\% is not one") {
  CHECK(whole("a % comment\nb \\% c\n") == "a          \nb    c\n");
}

TEST_CASE("tex: math is blanked") {
  CHECK(whole("x $a+b$ y $$z$$ w \\(q\\) v \\[r\\] u\n") == "x       y       w       v       u\n");
  CHECK(whole("\\begin{equation}\nE=mc^2\n\\end{equation}\nafter \\begin{align*}x\\end{align*} y\n") ==
        "                \n      \n              \nafter                             y\n");
  CHECK(whole("$a\\$b$ c $$x$y$$ d\n") == "       c         d\n");
}

TEST_CASE("tex: verbatim environments, \\verb and \\lstinline are blanked") {
  CHECK(whole("\\begin{verbatim}\n\\emph{code}\n\\end{verbatim}\nok \\verb|\\x y| \\verb*+a+ "
              "\\lstinline[language=C]{int x;} z\n") ==
        "                \n           \n              \nok                                                      z\n");
  CHECK(whole("\\begin{lstlisting}[x]\nfoo\n\\end{lstlisting} y\n") ==
        "                     \n   \n                 y\n");
}

TEST_CASE("tex: non-prose arguments are blanked, options included") {
  CHECK(whole("\\cite[p.~3]{key} \\ref{fig} \\label{l} \\input{file} \\includegraphics[width=3cm]{img.png} x\n") ==
        std::string(87, ' ') + "x\n");
  CHECK(whole("\\usepackage[T1]{fontenc}\\documentclass[a4]{article}\n") == std::string(51, ' ') + "\n");
  CHECK(whole("\\href{http://x.org}{link text} \\url{http://a%20b} c\n") ==
        "                    link text                     c\n");
  CHECK(whole("\\newcommand{\\foo}[1]{body #1} \\newcommand\\bar{b} \\renewcommand*{\\x}[2][d]{y} t\n") ==
        std::string(77, ' ') + "t\n");
  CHECK(whole("\\hspace{1cm}\\vspace*{2pt}\\setlength{\\parskip}{3mm}\\color{red}x\n") == std::string(61, ' ') + "x\n");
  CHECK(whole("\\begin{tabular}{|l|c|}a&b\\end{tabular}\\begin{figure}[htb]\\caption{Cap}\\end{figure}\n") ==
        "                      a b                                         Cap             \n");
}

TEST_CASE("tex: accents are decoded, the word compacted") {
  CHECK(whole("caf\\'e x\n") == "caf\xC3\xA9  x\n");
  CHECK(whole("Schr\\\"{o}dinger\n") ==
        "Schr\xC3\xB6"
        "dinger   \n");
  CHECK(whole("na\\\"\\i ve {\\'e}t{\\'e}\n") == "na\xC3\xAFve    \xC3\xA9t\xC3\xA9      \n");
  CHECK(whole("Stra\\ss e {\\ss} \\c{c}a \\v s\n") ==
        "Stra\xC3\x9F"
        "e   \xC3\x9F    \xC3\xA7"
        "a    \xC5\xA1  \n");
  CHECK(whole("\\'{\\i} \\o\\ \\aa{}\n") == "\xC3\xAD     \xC3\xB8  \xC3\xA5   \n");
  CHECK(whole("hy\\-phen etc.\\@ x\\/y \\ \n") == "hyphen   etc.   xy     \n");
  CHECK(tokens(whole("\\emph{Schr\\\"odinger's} d\\'ej\\`a\n")) == std::vector<std::string>{"Schr\xC3\xB6"
                                                                                            "dinger's",
                                                                                            "d\xC3\xA9j\xC3\xA0"});
}

TEST_CASE("tex: any cut gives the same bytes as one call") {
  const std::string doc =
      "\\documentclass[a4]{article}\n% comment\n\\begin{document}\ncaf\\'e {\\'e}t{\\'e} Stra\\ss e $x$ "
      "$$y$$ \\(z\\)\n\\begin{verbatim}\n\\x\n\\end{verbatim}\n\\cite[p.~1]{k} \\verb|a| \\emph{word}\n"
      "\\begin{equation}a\\end{equation} Schr\\\"{o}dinger \\newcommand\\x[1]{b} hy\\-phen\n\\end{document}\n";
  const std::string want = whole(doc);
  for (size_t a = 0; a <= doc.size(); ++a) {
    CAPTURE(a);
    REQUIRE(pieces(doc, {a}) == want);
    for (size_t b = a; b <= doc.size(); b += 7) REQUIRE(pieces(doc, {a, b}) == want);
  }
  std::vector<size_t> every;
  for (size_t i = 1; i < doc.size(); ++i) every.push_back(i);
  CHECK(pieces(doc, every) == want);
}

// A real LaTeX book: the C++ Annotations (package c++-annotations-latex,
// in scripts/install-deps.sh).
TEST_CASE("tex: a real LaTeX document leaves no command names") {
  const std::string path = "/usr/share/doc/c++-annotations/cplusplus.latex.gz";
  REQUIRE_MESSAGE(std::filesystem::exists(path), path,
                  " is missing: install the Debian package c++-annotations-latex (scripts/install-deps.sh)");
  const std::vector<std::string> banned = {"documentclass", "usepackage",    "textbf",     "emph",     "texttt",
                                           "typeout",       "makecell",      "setlength",  "verbatim", "itemize",
                                           "textless",      "textbackslash", "centerline", "footnote", "subsubsection"};
  const std::string src = gunzip(path);
  size_t before = 0;
  for (const auto& t : tokens(src)) before += std::find(banned.begin(), banned.end(), t) != banned.end();
  CHECK(before > 1000);  // the check below can fail
  const std::string out = whole(src);
  REQUIRE(out.size() == src.size());
  for (size_t i = 0; i < src.size(); ++i)
    if (src[i] == '\n') REQUIRE(out[i] == '\n');
  size_t kept = 0;
  for (const auto& t : tokens(out)) {
    CAPTURE(t);
    CHECK(std::find(banned.begin(), banned.end(), t) == banned.end());
    ++kept;
  }
  CHECK(kept > 100000);  // the prose stays
  std::vector<size_t> cuts;
  std::mt19937 rng(7);
  for (size_t at = 0; at < src.size(); at += 1 + rng() % 4096) cuts.push_back(at);
  CHECK(pieces(src, cuts) == out);
}
