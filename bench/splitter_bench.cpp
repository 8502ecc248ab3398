// What choosing the sample sort's splitters costs on the critical path, for
// the cost model (slurm/costmodel.py): sorting all n samples on rank 0 (the
// old way) against the binomial tree's merges (sort_runs now), whose
// critical path emits about 2n samples: merges of 2s, 4s, ... p s keys.
// Keys as the report's samples are: a candidate count and a word of 6-13
// letters, in the run format. Best of 5.
//
//   splitter_bench [N...]     (default: 16384 131072, the samples of 1024
//                             and 8192 ranks at 16 a rank)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/output/report.hpp"

using namespace spellcheck;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {16384, 131072};
  std::mt19937_64 rng(7);
  for (size_t n : sizes) {
    std::string all;
    for (size_t i = 0; i < n; ++i) {
      std::string w(6 + rng() % 8, 'a');
      for (char& c : w) c = static_cast<char>('a' + rng() % 26);
      append_run_line(all, static_cast<uint32_t>(rng() % 20), w, {});
    }
    std::vector<LineView> keys;
    for (RunReader r(all); !r.done();) keys.push_back(r.next());
    double sort_s = 1e30, merge_s = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
      std::vector<LineView> sorted = keys;
      auto t0 = std::chrono::steady_clock::now();
      std::sort(sorted.begin(), sorted.end(), spec_less);
      sort_s = std::min(sort_s, seconds_since(t0));
      // The tree's last merge: two sorted halves of n keys in all.
      std::string a, b;
      for (size_t i = 0; i < n; ++i) append_run_line(i % 2 ? a : b, sorted[i].candidates, sorted[i].word, {});
      t0 = std::chrono::steady_clock::now();
      std::string out;
      out.reserve(a.size() + b.size());
      merge_runs({a, b}, [&](const LineView& l) { append_run_line(out, l.candidates, l.word, {}); });
      merge_s = std::min(merge_s, seconds_since(t0));
    }
    std::printf(
        "n=%zu: sort on rank 0 %.3f ms (%.1f ns per n log2 n); one merge of n keys %.3f ms (%.1f ns a key); "
        "the tree's critical path, about 2n merged keys: %.3f ms\n",
        n, sort_s * 1e3, sort_s / (static_cast<double>(n) * std::log2(static_cast<double>(n))) * 1e9, merge_s * 1e3,
        merge_s / static_cast<double>(n) * 1e9, 2 * merge_s * 1e3);
  }
}
