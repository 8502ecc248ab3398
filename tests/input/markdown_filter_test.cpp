// The Markdown filter (md4c): every construct blanked and every one kept,
// byte for byte; the whole file in one call whatever the pieces; and real
// Markdown that Debian installs (zstd's and xxHash's documents) leaves no
// word that only its code spans and fences hold.
#include "spellcheck/input/detail/markdown_filter.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "spellcheck/input/tokenizer.hpp"

using namespace spellcheck;

namespace {

unsigned char* bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

std::string filtered(std::string s) {
  auto f = make_markdown_filter();
  REQUIRE(f->filter(bytes(s), s.size(), true) == s.size());
  return s;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  for_each_token(s, [&](std::string_view t, size_t) { out.emplace_back(t); });
  return out;
}

// A file's bytes; .gz files decoded.
std::string read_doc(const std::filesystem::path& path) {
  if (path.extension() != ".gz") {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  std::string out;
  gzFile f = gzopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  char chunk[1 << 16];
  for (int got; (got = gzread(f, chunk, sizeof chunk)) > 0;) out.append(chunk, static_cast<size_t>(got));
  gzclose(f);
  return out;
}

// The text of fenced code blocks and code spans, found by a scan of its own
// (fences: lines opening with ``` or ~~~; spans: backtick runs of one
// length); prose gets the rest.
void split_code(std::string_view doc, std::string& code, std::string& prose) {
  std::string outside;  // the document less its fences
  std::string_view fence;
  for (size_t at = 0; at < doc.size();) {
    size_t end = doc.find('\n', at);
    end = end == std::string_view::npos ? doc.size() : end + 1;
    const std::string_view line = doc.substr(at, end - at);
    const size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string_view body = line.substr(indent);
    if (fence.empty() && indent < 4 && (body.starts_with("```") || body.starts_with("~~~"))) {
      fence = body.substr(0, body.find_first_not_of(body[0]));
    } else if (!fence.empty() && body.starts_with(fence)) {
      fence = {};
    } else {
      (fence.empty() ? outside : code) += line;
    }
    at = end;
  }
  for (size_t at = 0; at < outside.size();) {
    const size_t open = outside.find('`', at);
    if (open == std::string::npos) {
      prose += outside.substr(at);
      break;
    }
    const size_t run = outside.find_first_not_of('`', open) - open;
    const std::string ticks(run, '`');
    size_t close = outside.find(ticks, open + run);
    while (close != std::string::npos && close + run < outside.size() && outside[close + run] == '`')
      close = outside.find(ticks, outside.find_first_not_of('`', close));
    prose += outside.substr(at, open - at);
    if (close == std::string::npos) {
      prose += ticks;
      at = open + run;
      continue;
    }
    code += outside.substr(open + run, close - open - run) + "\n";
    at = close + run;
  }
}

}  // namespace

TEST_CASE("prose is kept, markup and code are blanked, byte for byte") {
  SUBCASE("headings, emphasis, escapes, breaks") {
    CHECK(filtered("# Head *em* line\n") == "  Head  em  line\n");
    CHECK(filtered("Setext\n======\n") == "Setext\n      \n");
    CHECK(filtered("a\\*b __c__ ~~d~~\nHard  \nbreak\\\nx\n") == "a *b   c     d  \nHard  \nbreak \nx\n");
  }
  SUBCASE("links: the text stays, the target goes; autolinks go") {
    CHECK(filtered("See [the docs](http://q \"T\") here.\n") == "See  the docs                here.\n");
    CHECK(filtered("Ref [text][r].\n\n[r]: http://x.org/y\n") == "Ref  text    .\n\n                   \n");
    CHECK(filtered("<http://x.org/a> https://y.com/b www.z.com a@b.com ok\n") ==
          "                                                   ok\n");
    CHECK(filtered("![alt text](img.png) end\n") == "  alt text           end\n");
    CHECK(filtered("[www.z.com](http://other) end\n") == " www.z.com                end\n");
  }
  SUBCASE("code spans, fences, indented code and HTML are blanked") {
    CHECK(filtered("x `code` y ``a ` b`` z\n") == "x        y           z\n");
    CHECK(filtered("```c\nint x;\n```\nafter\n") == "    \n      \n   \nafter\n");
    CHECK(filtered("~~~\nfoo\n~~~\n") == "   \n   \n   \n");
    CHECK(filtered("text\n\n    indented code\n") == "text\n\n                 \n");
    CHECK(filtered("<div>\nhtml\n</div>\n\nand <span>in</span> line\n") ==
          "     \n    \n      \n\nand       in        line\n");
  }
  SUBCASE("lists, quotes, tables, entities") {
    CHECK(filtered("- one\n- [x] two\n1. three\n") == "  one\n      two\n   three\n");
    CHECK(filtered("> quoted\n") == "  quoted\n");
    CHECK(filtered("| a | b |\n|---|---|\n| c1 | d |\n") == "  a   b  \n         \n  c1   d  \n");
    CHECK(filtered("caf&eacute; &amp; x\n") == "caf               x\n");
  }
}

TEST_CASE("the whole file is filtered in one call at its end") {
  const std::string doc = "# T\n\nSome `code` and [a link](u).\n\n```\nfenced\n```\n";
  const std::string whole = filtered(doc);
  auto f = make_markdown_filter();
  CHECK(f->whole_file());
  std::string buf;
  for (size_t i = 0; i < doc.size(); ++i) {
    buf += doc[i];
    REQUIRE(f->filter(bytes(buf), buf.size(), false) == 0);
  }
  CHECK(f->filter(bytes(buf), buf.size(), true) == buf.size());
  CHECK(buf == whole);
}

TEST_CASE("Debian's Markdown documents: no word only code holds is left") {
  // Installed with zstd, libzstd-dev and libxxhash-dev (scripts/install-deps.sh).
  const std::vector<std::filesystem::path> files = {
      "/usr/share/doc/zstd/README.md.gz", "/usr/share/doc/zstd/CONTRIBUTING.md.gz", "/usr/share/doc/zstd/TESTING.md",
      "/usr/share/doc/libzstd-dev/examples/README.md", "/usr/share/doc/libxxhash-dev/xxhash_spec.md.gz"};
  size_t code_only_words = 0, prose_words = 0;
  for (const auto& path : files) {
    if (!std::filesystem::exists(path))
      FAIL(path.string()
           << " is missing: install Debian's zstd, libzstd-dev and libxxhash-dev (scripts/install-deps.sh)");
    const std::string doc = read_doc(path);
    std::string code, prose;
    split_code(doc, code, prose);
    std::set<std::string> code_only;
    for (const auto& w : words(code)) code_only.insert(w);
    for (const auto& w : words(prose)) code_only.erase(w);
    code_only_words += code_only.size();
    const std::string out = filtered(doc);
    REQUIRE(out.size() == doc.size());
    CHECK(std::count(out.begin(), out.end(), '\n') == std::count(doc.begin(), doc.end(), '\n'));
    for (const auto& w : words(out)) {
      ++prose_words;
      if (code_only.count(w)) FAIL_CHECK(path.string() << ": a word of code only left: " << w);
    }
  }
  // The check can fail: there are such words (unfiltered, all of them are
  // there), and prose is kept.
  CHECK(code_only_words > 100);
  CHECK(prose_words > 2000);
}
