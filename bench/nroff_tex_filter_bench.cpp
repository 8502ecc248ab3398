// The nroff and TeX filters' speed: real documents (man pages, the C++
// Annotations' LaTeX source; gzip'd, decoded first) repeated to about
// 100 MB, fed in 1 MB pieces as the reader feeds them; the median of 5
// runs in MB/s.
//   nroff_tex_filter_bench [MB]
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "spellcheck/input/detail/nroff_filter.hpp"
#include "spellcheck/input/detail/tex_filter.hpp"

using namespace spellcheck;

namespace {

std::string gunzip(const char* path) {
  std::string out;
  gzFile g = gzopen(path, "rb");
  if (!g) {
    std::fprintf(stderr, "nroff_tex_filter_bench: cannot open %s\n", path);
    std::exit(1);
  }
  char buf[65536];
  for (int got; (got = gzread(g, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(got));
  gzclose(g);
  return out;
}

// One run over text: 1 MB pieces, the held-back bytes fed again. Seconds.
double run(std::unique_ptr<MarkupFilter> (*make)(), const std::string& text) {
  constexpr size_t kPiece = size_t{1} << 20;
  std::vector<unsigned char> buf(kPiece + kMarkupMaxHeld);
  auto f = make();
  const auto t0 = std::chrono::steady_clock::now();
  size_t held = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t take = std::min(kPiece, text.size() - at);
    std::copy_n(text.data() + at, take, buf.data() + held);
    at += take;
    const size_t n = held + take;
    const size_t k = f->filter(buf.data(), n, at == text.size());
    std::copy(buf.begin() + static_cast<long>(k), buf.begin() + static_cast<long>(n), buf.begin());
    held = n - k;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void bench(const char* name, std::unique_ptr<MarkupFilter> (*make)(), const std::vector<const char*>& files,
           size_t mb) {
  std::string one;
  for (const char* p : files) one += gunzip(p);
  std::string text;
  while (text.size() < mb << 20) text += one;
  std::vector<double> mbs;
  for (int i = 0; i < 5; ++i) mbs.push_back(static_cast<double>(text.size()) / 1e6 / run(make, text));
  std::sort(mbs.begin(), mbs.end());
  std::printf("%-6s %6.1f MB of %zu file(s): median %.0f MB/s (min %.0f, max %.0f)\n", name,
              static_cast<double>(text.size()) / 1e6, files.size(), mbs[2], mbs[0], mbs[4]);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t mb = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  bench("nroff", make_nroff_filter,
        {"/usr/share/man/man1/bash.1.gz", "/usr/share/man/man1/ls.1.gz", "/usr/share/man/man1/tar.1.gz",
         "/usr/share/man/man1/find.1.gz", "/usr/share/man/man1/grep.1.gz", "/usr/share/man/man1/gzip.1.gz"},
        mb);
  bench("tex", make_tex_filter, {"/usr/share/doc/c++-annotations/cplusplus.latex.gz"}, mb);
}
