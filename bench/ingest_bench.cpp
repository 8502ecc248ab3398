// Document-mode ingest speed: collect_document_words over a directory (one
// rank), with 1 and 2 threads (or the counts given), median of N runs.
//
//   ingest_bench DIR... [--threads 1,2] [--repeat 3] [--max-word-length 64]
//                       [--tokenize-only] [--filters none;auto;...]
//
// --filters: --filter values (';'-separated), timed in turn, round after
// round (A B C, then C B A, ...), each with its median and its ratio to the
// first, pair by pair (median of the ratios): a comparison in one run on a
// noisy machine.
// --tokenize-only also times the bare tokenizer over the files held in memory
// (no reading, no hashing) for comparison.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "spellcheck/common/text_filters.hpp"
#include "spellcheck/input/document_reader.hpp"
#include "spellcheck/input/input_plan.hpp"
#include "spellcheck/input/tokenizer.hpp"

using namespace spellcheck;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double cpu_now() {  // CPU time of the whole process (all threads)
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Each filter list in turn, rounds alternating in direction; per list the
// median time, MB/s, and the median of its per-round ratio to the first.
void compare_filters(const InputPlan& plan, const std::vector<std::string>& lists, int nt, int repeat, size_t max_len,
                     double mb) {
  const size_t k = lists.size();
  std::vector<std::vector<double>> ts(k);
  std::vector<ReaderTuning> tunings(k);
  for (size_t i = 0; i < k; ++i) add_filter_list(tunings[i].filters, lists[i]);
  for (int r = 0; r < repeat; ++r)
    for (size_t j = 0; j < k; ++j) {
      const size_t i = r % 2 ? k - 1 - j : j;
      InputPlan p = plan;
      set_markup(p, tunings[i].filters);
      const double t0 = now();
      const LocalWords lw = collect_document_words(p, 0, 1, max_len, nt, {}, tunings[i]);
      ts[i].push_back(now() - t0);
    }
  for (size_t i = 0; i < k; ++i) {
    std::vector<double> ratio;
    for (int r = 0; r < repeat; ++r) ratio.push_back(ts[i][static_cast<size_t>(r)] / ts[0][static_cast<size_t>(r)]);
    std::printf("--filter %-12s threads=%d: %.3f s median of %d (min %.3f max %.3f)  %.0f MB/s  vs first %.3fx\n",
                lists[i].c_str(), nt, median(ts[i]), repeat, *std::min_element(ts[i].begin(), ts[i].end()),
                *std::max_element(ts[i].begin(), ts[i].end()), mb / median(ts[i]), median(ratio));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::vector<int> threads{1, 2};
  int repeat = 3;
  size_t max_len = 64;
  bool tokenize_only = false;
  std::vector<std::string> filter_lists;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      threads.clear();
      std::stringstream ss(argv[++i]);
      for (std::string t; std::getline(ss, t, ',');) threads.push_back(std::atoi(t.c_str()));
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--max-word-length" && i + 1 < argc) {
      max_len = static_cast<size_t>(std::atoll(argv[++i]));
    } else if (a == "--filters" && i + 1 < argc) {
      std::stringstream ss(argv[++i]);
      for (std::string f; std::getline(ss, f, ';');) filter_lists.push_back(f);
    } else if (a == "--tokenize-only") {
      tokenize_only = true;
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr,
                 "usage: ingest_bench DIR... [--threads 1,2] [--repeat 3] [--max-word-length 64] [--tokenize-only]\n");
    return 2;
  }
  double t0 = now();
  InputPlan plan = make_input_plan(inputs);
  finish_stream_reads(plan);
  const double plan_s = now() - t0;
  // Compressed files: MB are decoded bytes (what the reader delivers), taken
  // from a first pass.
  bool compressed = false;
  for (const auto& f : plan.files) compressed |= f.whole();
  double mb = static_cast<double>(plan.total_bytes()) / 1e6;
  if (compressed) mb = static_cast<double>(collect_document_words(plan, 0, 1, max_len, 1).bytes_read) / 1e6;
  std::printf("input: %zu files, %.1f MB%s (plan %.3f s)\n", plan.files.size(), mb, compressed ? " decoded" : "",
              plan_s);

  if (tokenize_only) {
    std::string all;
    for (const auto& f : plan.files) {
      std::ifstream in(f.path, std::ios::binary);
      all.append(std::istreambuf_iterator<char>(in), {});
      all.push_back('\n');
    }
    std::vector<double> ts, cs;
    uint64_t n = 0, bytes = 0;
    for (int r = 0; r < repeat; ++r) {
      n = 0;
      bytes = 0;
      t0 = now();
      const double c0 = cpu_now();
      for_each_token(all, [&](std::string_view w, size_t) {
        ++n;
        bytes += w.size();
      });
      ts.push_back(now() - t0);
      cs.push_back(cpu_now() - c0);
    }
    std::printf("tokenizer only (in memory, 1 thread): %.0f MB/s wall, %.0f MB/s per CPU second, %llu tokens\n",
                static_cast<double>(all.size()) / 1e6 / median(ts), static_cast<double>(all.size()) / 1e6 / median(cs),
                static_cast<unsigned long long>(n));
    ts.clear();
    TokenCounts c;
    for (int r = 0; r < repeat; ++r) {
      c = {};
      uint64_t h = 0;
      t0 = now();
      for_each_word(all, max_len, c, [&](std::string_view w, size_t) { h += w.size(); });
      ts.push_back(now() - t0);
    }
    std::printf("tokenizer + skip rules (in memory, 1 thread): %.0f MB/s, %llu words\n",
                static_cast<double>(all.size()) / 1e6 / median(ts), static_cast<unsigned long long>(c.tokens));
  }

  if (!filter_lists.empty()) {
    compare_filters(plan, filter_lists, threads.front(), repeat, max_len, mb);
    return 0;
  }
  for (const int nt : threads) {
    std::vector<double> ts, cs;
    LocalWords lw;
    for (int r = 0; r < repeat; ++r) {
      lw = LocalWords{};
      t0 = now();
      const double c0 = cpu_now();
      lw = collect_document_words(plan, 0, 1, max_len, nt);
      ts.push_back(now() - t0);
      cs.push_back(cpu_now() - c0);
    }
    const double s = median(ts);
    std::printf(
        "threads=%d: %.3f s (median of %d; min %.3f max %.3f)  %.0f MB/s  %.0f MB/s/thread  "
        "%.0f MB/s per CPU second (best %.0f)  tokens=%llu distinct=%zu numbers=%llu long=%llu\n",
        nt, s, repeat, *std::min_element(ts.begin(), ts.end()), *std::max_element(ts.begin(), ts.end()), mb / s,
        mb / s / nt, mb / median(cs), mb / *std::min_element(cs.begin(), cs.end()),
        static_cast<unsigned long long>(lw.tokens), lw.words.size(),
        static_cast<unsigned long long>(lw.skipped_numbers), static_cast<unsigned long long>(lw.skipped_long));
  }
  return 0;
}
