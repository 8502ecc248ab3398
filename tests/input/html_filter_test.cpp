// The HTML filter: every construct blanked and every one kept, byte for
// byte; character references decoded with the word compacted; streaming in
// pieces cut anywhere gives the bytes of one whole call; and the HTML of the
// Debian Reference (debian-reference-en) leaves no markup word behind.
#include "spellcheck/input/detail/html_filter.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "spellcheck/input/tokenizer.hpp"

using namespace spellcheck;

namespace {

unsigned char* bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

std::string filtered(std::string s) {
  auto f = make_html_filter();
  REQUIRE(f->filter(bytes(s), s.size(), true) == s.size());
  return s;
}

// Feeds in in pieces ending at cuts (ascending), as a reader does: the bytes
// from the returned k on are kept and the next piece appended to them.
std::string streamed(std::string_view in, const std::vector<size_t>& cuts) {
  auto f = make_html_filter();
  std::string out, buf;
  size_t pos = 0;
  for (size_t i = 0; i <= cuts.size(); ++i) {
    const size_t next = i < cuts.size() ? cuts[i] : in.size();
    buf.append(in.substr(pos, next - pos));
    pos = next;
    const bool at_end = i == cuts.size();
    const size_t k = f->filter(bytes(buf), buf.size(), at_end);
    REQUIRE(k <= buf.size());
    if (at_end) REQUIRE(k == buf.size());
    REQUIRE(buf.size() - k <= kMarkupMaxHeld);
    out.append(buf, 0, k);
    buf.erase(0, k);
  }
  return out;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  for_each_token(s, [&](std::string_view t, size_t) { out.emplace_back(t); });
  return out;
}

}  // namespace

TEST_CASE("tags are blanked, text stays, newlines stay") {
  CHECK(filtered("<p>Hello <b>world</b></p>") == "   Hello    world        ");
  CHECK(filtered("un<b>real</b>") == "un   real    ");
  CHECK(filtered("<a href=\"x.html\" class=c\n data-x>link</a>") == "                        \n        link    ");
  CHECK(filtered("<BR/>a<br />b") == "     a      b");
  CHECK(filtered("a < b, a<3, a <= b") == "a < b, a<3, a <= b");
}

TEST_CASE("alt and title values are prose, in any quoting") {
  CHECK(filtered("<img src=\"cat.png\" alt=\"A cat\">") == "                        A cat  ");
  CHECK(filtered("<img TITLE='Big dog' Alt=bare>") == "            Big dog      bare ");
  CHECK(filtered("<abbr title = \"it&#39;s\" lang=en>x</abbr>") == "               it's              x       ");
  CHECK(filtered("<a data-alt=\"no\" alt=\"yes\">") == "                      yes  ");
  CHECK(filtered("<img alt=\"caf&eacute;\">") == "          café        ");
}

TEST_CASE("comments, declarations, processing instructions and CDATA are blanked") {
  CHECK(filtered("a<!-- x\ny -->b") == "a      \n     b");
  CHECK(filtered("a<!-- <b>bold</b> -- still -->b") == "a                             b");
  CHECK(filtered("a<!---->b<!-->c<!--->d") == "a       b     c      d");
  CHECK(filtered("<!DOCTYPE html PUBLIC \"x\">Text") == "                          Text");
  CHECK(filtered("<?xml version=\"1.0\"?>Text") == "                     Text");
  CHECK(filtered("a<![CDATA[ x > y ]]>b") == "a                   b");
  CHECK(filtered("a</b\n>c</>d") == "a   \n c   d");
}

TEST_CASE("the content of code elements is blanked up to their end tag") {
  CHECK(filtered("<script>if (a<b) x();</script>after") == "                              after");
  CHECK(filtered("<STYLE type=x>p { color: red }</Style >after") == "                                       after");
  CHECK(filtered("a<code class=\"x\">int</CODE>b") == "a                          b");
  CHECK(filtered("<pre>line one\nline <b>two</b>\n</pre>x") == "             \n               \n      x");
  CHECK(filtered("<kbd>ls</kbd> <samp>out</samp> <var>n</var> <tt>t</tt>.") ==
        "                                                      .");
  CHECK(filtered("<code/>after") == "       after");
  CHECK(filtered("<pre><code>x</code>y</pre>z") == "                          z");
  CHECK(filtered("<codex>kept</codex>") == "       kept        ");
  CHECK(filtered("<script>never ended") == "                   ");
}

TEST_CASE("character references") {
  SUBCASE("letters are decoded, the word compacted") {
    CHECK(filtered("caf&eacute; na&iuml;ve") == "café       naïve    ");
    CHECK(filtered("&#233;t&#xE9;!") == "été        !");
    CHECK(filtered("&Uuml;ber &szlig; &ntilde; &ccedil; &oelig;") == "Über     ß      ñ       ç       œ     ");
    CHECK(filtered("x&#65;y") == "xAy    ");
  }
  SUBCASE("apostrophes are decoded") {
    CHECK(filtered("don&rsquo;t it&#39;s O&apos;Neil we&#8217;re") == "don't       it's     O'Neil      we're      ");
  }
  SUBCASE("separators are blanked") {
    CHECK(filtered("a&amp;b&nbsp;c&lt;d&gt;e&quot;f&#160;g&mdash;h&#x2014;i&#215;j") ==
          "a     b      c    d    e      f      g       h        i      j");
  }
  SUBCASE("what is no reference stays text") {
    CHECK(filtered("AT&T; x & y &foo; &amp &#x; &#12a; &") == "AT&T; x & y &foo; &amp &#x; &#12a; &");
  }
  SUBCASE("a word compacted across several references, into a tag or a separator") {
    CHECK(filtered("&Eacute;l&egrave;ve<b>x</b>") == "Élève               x    ");
    CHECK(filtered("caf&eacute;&amp;bar") == "café           bar");
    CHECK(filtered("caf&eacute;s\ncr&egrave;me") == "cafés      \ncrème      ");
    CHECK(filtered("caf&eacute;\xe2\x80\x94x") == "café      \xe2\x80\x94x");
  }
  SUBCASE("a word would hold too many freed bytes: the rest are blanked") {
    std::string in = "x";
    for (int i = 0; i < 40; ++i) in += "&eacute;";
    const std::string out = filtered(in);
    CHECK(out.size() == in.size());
    // 33 decoded (198 bytes freed), the 34th blanked, the others a new word.
    REQUIRE(words(out).size() == 2);
    CHECK(words(out)[0].size() == 1 + 2 * 33);
    CHECK(words(out)[1].size() == 2 * 6);
  }
}

TEST_CASE("streaming: every cut gives the bytes of one whole call") {
  const std::string doc =
      "<!DOCTYPE html><html><head><title>T&iacute;tle</title><style>p{x:1}</style></head>\n"
      "<body class=\"b\"><!-- c <p> --><p>Caf&eacute;s &amp; cr&egrave;me, don&rsquo;t &#233;t&#xe9;"
      "<img alt='It&#39;s here' src=x.png title=bare&eacute;>a < b <a\nhref=\"u\">link</a>\n"
      "<pre>code\n</pre><![CDATA[x]]><?pi x?><SCRIPT>a<b</SCRIPT >tail &unknown; &"
      "caf&eacute;\xe2\x80\x99s na\xc3\xafve&eacute;</body></html>";
  const std::string whole = filtered(doc);
  CHECK(whole.size() == doc.size());
  for (size_t cut = 0; cut <= doc.size(); ++cut) REQUIRE(streamed(doc, {cut}) == whole);
  std::vector<size_t> every(doc.size());
  for (size_t i = 0; i < doc.size(); ++i) every[i] = i;
  CHECK(streamed(doc, every) == whole);
  std::mt19937 rng(7);
  for (int t = 0; t < 300; ++t) {
    std::vector<size_t> cuts;
    for (int k = rng() % 6; k > 0; --k) cuts.push_back(rng() % (doc.size() + 1));
    std::sort(cuts.begin(), cuts.end());
    REQUIRE(streamed(doc, cuts) == whole);
  }
}

TEST_CASE("streaming: a long compacted word and long constructs stay within the held limit") {
  std::string doc = "x";
  for (int i = 0; i < 40; ++i) doc += "&eacute;";
  doc += " <!--" + std::string(1000, '-') + "-->" + "<pre>" + std::string(700, '<') + "</pre>end";
  const std::string whole = filtered(doc);
  for (size_t cut = 0; cut <= doc.size(); ++cut) REQUIRE(streamed(doc, {cut}) == whole);
  std::vector<size_t> every(doc.size());
  for (size_t i = 0; i < doc.size(); ++i) every[i] = i;
  CHECK(streamed(doc, every) == whole);
}

TEST_CASE("the Debian Reference's HTML leaves no markup word") {
  const std::filesystem::path dir = "/usr/share/debian-reference";
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().string().ends_with(".en.html")) files.push_back(e.path());
  if (files.empty())
    FAIL("no /usr/share/debian-reference/*.en.html: install Debian's debian-reference-en (scripts/install-deps.sh)");
  // Element, attribute and reference names of the manual that its prose
  // never uses (its code elements may).
  const std::set<std::string> markup = {"href",      "div",       "amp",   "quot",      "span", "tbody",
                                        "thead",     "colspan",   "xmlns", "accesskey", "rel",  "navheader",
                                        "navfooter", "titlepage", "ulink", "valign"};
  std::set<std::string> raw_seen;
  size_t prose_words = 0;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& w : words(doc))
      if (markup.count(w)) raw_seen.insert(w);
    const std::string out = streamed(doc, {doc.size() / 3, doc.size() / 2, doc.size() / 2 + 1});
    REQUIRE(out.size() == doc.size());
    CHECK(std::count(out.begin(), out.end(), '\n') == std::count(doc.begin(), doc.end(), '\n'));
    for (const auto& w : words(out)) {
      ++prose_words;
      if (markup.count(w)) FAIL_CHECK(path.string() << ": markup word left: " << w);
    }
  }
  // The check can fail: unfiltered, each of the words is there.
  CHECK(raw_seen == markup);
  CHECK(prose_words > 50000);
}
