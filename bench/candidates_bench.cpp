// Candidate-phase micro-benchmark, one core, no MPI traffic: ns per
// candidate for generation + hashing + Bloom probe, with no prefilter, the
// trigram filter, and the trigram and affix filters.
//   candidates_bench DICTIONARY MISSPELLED_WORDS [bits_per_entry] [repeats]
// (MISSPELLED_WORDS: e.g. the first column of a spellcheck output.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/affix_filter.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/input/reader.hpp"
#include "spellcheck/suggest/candidates.hpp"

using namespace spellcheck;

namespace {
std::vector<std::string> lines(const char* path, bool first_field) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> out;
  std::string l;
  while (std::getline(in, l)) {
    if (first_field) l = l.substr(0, l.find(": "));
    const auto w = clean_line(l);
    if (!w.empty()) out.emplace_back(w);
  }
  return out;
}
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: candidates_bench DICTIONARY MISSPELLED [bits] [repeats]\n");
    return 2;
  }
  const auto dict = lines(argv[1], false);
  const auto words = lines(argv[2], true);
  const double bits = argc > 3 ? std::atof(argv[3]) : 12.0;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 5;
  BloomFilter f(1, BloomFilter::blocks_for(dict.size(), bits));
  TrigramFilter tri;
  AffixFilter affix(dict.size(),
                    std::getenv("AFFIX_BITS") ? std::atof(std::getenv("AFFIX_BITS")) : AffixFilter::kDefaultBitsPerKey);
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& w : dict) {
    f.insert(word_hash(w), 0);
    tri.add_entry(w);
  }
  const double build_rest = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  for (auto w : dict) {
    w[0] = ascii_lower(w[0]);
    affix.add_key(w);
  }
  const double build_affix = seconds_since(t0);
  std::printf("trigram density %.4f\n", tri.density());
  std::printf("dictionary %zu entries, Bloom filter %.2f MB, affix filter %.2f MB, %zu words\n", dict.size(),
              f.bytes() / 1e6, affix.bytes() / 1e6, words.size());
  std::printf("build: Bloom+trigram %.3f s, affix %.3f s (one thread)\n", build_rest, build_affix);
  // Modes: 0 no prefilter, 1 trigram, 2 trigram + affix.
  const char* names[] = {"plain        ", "trigram      ", "trigram+affix"};
  Candidates c;
  uint64_t n = 0, sink = 0;
  for (const auto& w : words) {
    c.generate(w);
    n += c.size();
    sink += c.hash(c.size() / 2);
  }
  for (int r = 0; r < 3 * repeats; ++r) {
    const int mode = r % 3;
    auto t = std::chrono::steady_clock::now();
    uint64_t kept = 0, passed = 0;
    for (const auto& w : words) {
      c.generate(w, mode >= 1 ? &tri : nullptr, mode >= 2 ? &affix : nullptr);
      kept += c.size();
      const size_t m = c.size();
      for (size_t i = 0; i < m; ++i) {
        if (i + 12 < m) f.prefetch(c.hash(i + 12), 0);
        passed += f.maybe_contains(c.hash(i), 0) ? 1 : 0;
      }
    }
    const double all = seconds_since(t);
    std::printf("%s candidates %llu: generate+hash+filter %.2f ns/cand (%.3f s), kept %.2f%%, passed %.3f%% (%llu)\n",
                names[mode], static_cast<unsigned long long>(n), 1e9 * all / n, all, 100.0 * kept / n,
                100.0 * passed / n, static_cast<unsigned long long>(sink & 1));
  }
}
