#include "spellcheck/output/report.hpp"

#include <doctest/doctest.h>
#include <omp.h>

#include <set>
#include <stdexcept>

#include "spellcheck/suggest/candidates.hpp"

using namespace spellcheck;

namespace {
EditRef sub(char c, uint32_t pos) {
  return EditRef::make(EditOp::substitution, static_cast<uint32_t>(kAlphabet.find(c)), pos);
}

// Lines are views into the run: the run must outlive them, so no temporaries.
std::vector<LineView> read_run(std::string&& run) = delete;
std::vector<LineView> read_run(const std::string& run) {
  std::vector<LineView> out;
  RunReader r(run);
  while (!r.done()) out.push_back(r.next());
  return out;
}
}  // namespace

TEST_CASE("SPEC lines: sorted candidates, lines by count then word byte-wise") {
  WordList words;
  words.push_back("stap");  // 0
  words.push_back("qzxw");  // 1
  words.push_back("ab");    // 2
  words.push_back("ab0");   // 3
  std::vector<Slot> hits = {{0, sub('e', 2)},
                            {3, sub('c', 2)},
                            {0, sub('o', 2)},
                            {0, EditRef::make(EditOp::deletion, 0, 1)},
                            {2, sub('c', 1)}};
  const std::string run = make_run(words, hits, [](size_t i, std::string& x) {
    x += '#';
    x += std::to_string(i);
  });
  const auto lines = read_run(run);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].line == "qzxw: \n");
  CHECK(lines[1].line == "ab:  ac\n");  // "ab" < "ab0" although "ab:" > "ab0:"
  CHECK(lines[2].line == "ab0:  abc\n");
  CHECK(lines[3].line == "stap:  sap step stop\n");
  CHECK(lines[3].word == "stap");
  CHECK(lines[3].candidates == 3);
  CHECK(lines[3].extra == "#0");
  CHECK(lines[0].extra == "#1");
  const std::string plain = make_run(words, hits);
  CHECK(read_run(plain)[3].extra.empty());
}

TEST_CASE("runs from several ranks merge into the order of one sort") {
  // Random words (short, over few letters: many ties on the first bytes and
  // on counts, bytes above 0x7f included) dealt to 1-5 runs.
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string letters = "ab\xc3\xa9Z0";
  for (int round = 0; round < 30; ++round) {
    const size_t runs = 1 + next() % 5;
    std::vector<WordList> words(runs);
    std::vector<std::vector<Slot>> hits(runs);
    std::set<std::string> seen;
    std::vector<std::pair<uint32_t, std::string>> all;  // (count, word) for the expected order
    for (int i = 0; i < 200; ++i) {
      std::string w(1 + next() % 9, 'a');
      for (auto& c : w) c = letters[next() % letters.size()];
      if (!seen.insert(w).second) continue;  // each word has one owner
      const size_t r = next() % runs;
      const uint32_t idx = static_cast<uint32_t>(words[r].size());
      words[r].push_back(w);
      // Substitutions at distinct positions: distinct candidates.
      const uint32_t k = static_cast<uint32_t>(next() % (w.size() + 1));
      for (uint32_t pos = 0; pos < k; ++pos) hits[r].push_back({idx, sub('q', pos)});
      all.emplace_back(k, w);
    }
    std::sort(all.begin(), all.end());
    std::vector<std::string> bytes(runs);
    std::vector<std::string_view> views;
    for (size_t r = 0; r < runs; ++r) {
      bytes[r] = make_run(words[r], hits[r]);
      views.push_back(bytes[r]);
    }
    std::vector<std::pair<uint32_t, std::string>> merged;
    merge_runs(views, [&](const LineView& l) { merged.emplace_back(l.candidates, std::string(l.word)); });
    CHECK(merged == all);
  }
}

TEST_CASE("make_run gives the same bytes for any team OpenMP gives") {
  // A team smaller than asked (nested, one active level; a dynamic team)
  // or larger than the words: the same run.
  WordList words;
  std::vector<Slot> hits;
  for (uint32_t i = 0; i < 500; ++i) {
    std::string w = "w";
    w += std::to_string(i * 7919 % 1000);
    words.push_back(w);
    for (uint32_t pos = 0; pos < i % 4; ++pos) hits.push_back({i, sub('k', pos)});
  }
  const std::string want = make_run(words, hits, [](size_t i, std::string& x) { x += std::to_string(i); });
  const int saved_threads = omp_get_max_threads(), saved_levels = omp_get_max_active_levels();
  const int saved_dynamic = omp_get_dynamic();
  for (int dynamic = 0; dynamic <= 1; ++dynamic) {
    omp_set_dynamic(dynamic);
    for (int threads : {1, 3, 8}) {
      CAPTURE(dynamic);
      CAPTURE(threads);
      omp_set_num_threads(threads);
      CHECK(make_run(words, hits, [](size_t i, std::string& x) { x += std::to_string(i); }) == want);
      omp_set_max_active_levels(1);
      std::string nested[2];
      std::string error[2];
#pragma omp parallel num_threads(2)
      {
        const int me = omp_get_thread_num();
        try {
          nested[me] = make_run(words, hits, [](size_t i, std::string& x) { x += std::to_string(i); });
        } catch (const std::exception& e) {
          error[me] = e.what();
        }
      }
      omp_set_max_active_levels(saved_levels);
      CHECK(error[0] == "");
      CHECK(nested[0] == want);
      if (!nested[1].empty() || !error[1].empty()) CHECK(nested[1] == want);
    }
  }
  omp_set_dynamic(saved_dynamic);
  omp_set_num_threads(saved_threads);
}
