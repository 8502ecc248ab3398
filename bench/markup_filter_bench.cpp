// Markup filters' speed (MB/s, median of 5 runs):
// - html: the Debian Reference's HTML (debian-reference-en), concatenated
//   and repeated to about 100 MB, filtered in 1 MB pieces as the reader
//   feeds them (the held-back bytes carried over);
// - markdown: Debian's zstd and xxHash Markdown, concatenated and repeated
//   to about 20 MB, filtered whole (md4c needs the whole document);
// - md4c alone: the same Markdown parsed with callbacks that do nothing;
// - gumbo (built with -DSPELLCHECK_BENCH_GUMBO -lgumbo only; Debian's
//   libgumbo-dev): the same HTML parsed file by file into a tree, for the
//   README's comparison with a library.
//   g++ -std=c++20 -O2 -Iinclude -DSPELLCHECK_BENCH_GUMBO bench/markup_filter_bench.cpp
//       src/input/html_filter.cpp src/input/markdown_filter.cpp -lmd4c -lz -lgumbo
#include <md4c.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spellcheck/input/detail/html_filter.hpp"
#include "spellcheck/input/detail/markdown_filter.hpp"

#ifdef SPELLCHECK_BENCH_GUMBO
#include <gumbo.h>
#endif

using namespace spellcheck;

namespace {

std::string read_doc(const std::filesystem::path& path) {
  std::string out;
  gzFile f = gzopen(path.c_str(), "rb");  // reads plain files too
  if (f == nullptr) return out;
  char chunk[1 << 16];
  for (int got; (got = gzread(f, chunk, sizeof chunk)) > 0;) out.append(chunk, static_cast<size_t>(got));
  gzclose(f);
  return out;
}

std::string repeated(const std::vector<std::string>& docs, size_t target) {
  std::string one;
  for (const auto& d : docs) one += d;
  std::string out;
  if (one.empty()) return out;
  while (out.size() < target) out += one;
  return out;
}

// MB/s of the median of 5 runs of f(), which handles bytes bytes.
template <class F>
double median_mbps(size_t bytes, F&& f) {
  std::vector<double> rates;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - t0;
    rates.push_back(static_cast<double>(bytes) / 1e6 / s.count());
  }
  std::sort(rates.begin(), rates.end());
  return rates[2];
}

// The input through f in pieces of piece bytes, as the reader feeds them.
void feed(MarkupFilter& f, const std::string& in, std::string& buf, size_t piece) {
  size_t held = 0;
  for (size_t at = 0; at < in.size();) {
    const size_t take = std::min(piece, in.size() - at);
    std::memcpy(buf.data() + held, in.data() + at, take);
    at += take;
    const size_t n = held + take;
    auto* b = reinterpret_cast<unsigned char*>(buf.data());
    const size_t k = f.filter(b, n, at == in.size());
    std::memmove(b, b + k, n - k);
    held = n - k;
  }
}

}  // namespace

int main() {
  std::vector<std::string> html_docs;
  for (const auto& e : std::filesystem::directory_iterator("/usr/share/debian-reference"))
    if (e.path().string().ends_with(".en.html")) html_docs.push_back(read_doc(e.path()));
  const std::string html = repeated(html_docs, 100u << 20);
  if (html.empty()) {
    std::fprintf(stderr, "no /usr/share/debian-reference/*.en.html: install debian-reference-en\n");
    return 1;
  }
  std::string buf(html.size() + (1u << 20), '\0');
  const size_t piece = 1u << 20;
  std::printf("html filter:     %7.1f MB/s (%zu MB in 1 MB pieces)\n",
              median_mbps(html.size(),
                          [&] {
                            auto f = make_html_filter();
                            feed(*f, html, buf, piece);
                          }),
              html.size() >> 20);

  std::vector<std::string> md_docs;
  for (const char* p :
       {"/usr/share/doc/zstd/README.md.gz", "/usr/share/doc/zstd/CONTRIBUTING.md.gz", "/usr/share/doc/zstd/TESTING.md",
        "/usr/share/doc/libzstd-dev/examples/README.md", "/usr/share/doc/libxxhash-dev/xxhash_spec.md.gz"})
    md_docs.push_back(read_doc(p) + "\n");
  const std::string md = repeated(md_docs, 20u << 20);
  std::printf("markdown filter: %7.1f MB/s (%zu MB whole)\n",
              median_mbps(md.size(),
                          [&] {
                            std::string copy = md;
                            auto f = make_markdown_filter();
                            f->filter(reinterpret_cast<unsigned char*>(copy.data()), copy.size(), true);
                          }),
              md.size() >> 20);
  // md4c by itself (callbacks that return at once): what bounds the filter.
  std::printf("md4c alone:      %7.1f MB/s (the same Markdown, GitHub's dialect)\n", median_mbps(md.size(), [&] {
                MD_PARSER parser{};
                parser.flags = MD_DIALECT_GITHUB;
                parser.enter_block = parser.leave_block = [](MD_BLOCKTYPE, void*, void*) { return 0; };
                parser.enter_span = parser.leave_span = [](MD_SPANTYPE, void*, void*) { return 0; };
                parser.text = [](MD_TEXTTYPE, const MD_CHAR*, MD_SIZE, void*) { return 0; };
                md_parse(md.data(), static_cast<MD_SIZE>(md.size()), &parser, nullptr);
              }));

#ifdef SPELLCHECK_BENCH_GUMBO
  const size_t rounds = html.size() / (repeated(html_docs, 1).size());
  std::printf("gumbo parse:     %7.1f MB/s (the same HTML, file by file)\n", median_mbps(html.size(), [&] {
                for (size_t r = 0; r < rounds; ++r)
                  for (const auto& d : html_docs) {
                    GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, d.data(), d.size());
                    gumbo_destroy_output(&kGumboDefaultOptions, out);
                  }
              }));
#endif
}
