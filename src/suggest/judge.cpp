#include "spellcheck/suggest/judge.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <unordered_set>

#include "spellcheck/common/first_error.hpp"

namespace spellcheck {

Groups group_equal_words(const WordList& words, const std::vector<uint64_t>& hashes) {
  const size_t n = words.size();
  // Groups and the table count words in 32 bits (half the table's memory).
  if (n >= UINT32_MAX) throw std::length_error("judge: more than 2^32 - 2 words on one rank; use more ranks");
  Groups g;
  g.group.resize(n);
  // Open addressing on the words' own hashes: slot holds group + 1.
  const size_t cap = std::bit_ceil(std::max<size_t>(16, 2 * n));
  std::vector<uint32_t> table(cap, 0);
  for (size_t i = 0; i < n; ++i) {
    size_t s = static_cast<size_t>(hashes[i] >> 7) & (cap - 1);
    const std::string_view w = words[i];
    for (;;) {
      const uint32_t t = table[s];
      if (t == 0) {
        table[s] = static_cast<uint32_t>(g.first.size() + 1);
        g.group[i] = static_cast<uint32_t>(g.first.size());
        g.first.push_back(static_cast<uint32_t>(i));
        break;
      }
      const uint32_t j = g.first[t - 1];
      if (hashes[j] == hashes[i] && words[j] == w) {
        g.group[i] = t - 1;
        break;
      }
      s = (s + 1) & (cap - 1);
    }
  }
  return g;
}

Judged judge(const Shard& shard, const Routed& routed, bool keep_correct) {
  return judge_with(routed, keep_correct, [&](const Groups& g, std::vector<char>& wrong) {
    const size_t groups = g.first.size();
    // Blocks of lookups, so that Shard::contains_each overlaps their misses.
    constexpr size_t kBlock = 1024;
    FirstError err;
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t b = 0; b < groups; b += kBlock) {
      err.run([&] {
        const uint32_t* first = g.first.data() + b;
        shard.contains_each(
            std::min(kBlock, groups - b), [&](size_t i) { return routed.hashes[first[i]]; },
            [&](size_t i) { return routed.words[first[i]]; }, [&](size_t i) { wrong[b + i] = 0; });
      });
    }
    err.rethrow();
  });
}

Judged judge_with(const Routed& routed, bool keep_correct,
                  const std::function<void(const Groups& groups, std::vector<char>& wrong)>& decide) {
  const Groups g = group_equal_words(routed.words, routed.hashes);
  const size_t groups = g.first.size();
  std::vector<char> wrong(groups, 1);
  decide(g, wrong);
  const bool with_values = !routed.values.empty();
  const bool with_marks = routed.values.size() > 2;
  std::vector<uint64_t> occ, pos, mark;
  if (with_values) {
    occ.assign(groups, 0);
    pos.assign(groups, UINT64_MAX);
    if (with_marks) mark.assign(groups, 0);
    for (size_t i = 0; i < routed.words.size(); ++i) {
      const uint32_t k = g.group[i];
      occ[k] += routed.values[0][i];
      if (routed.values[1][i] < pos[k]) {
        pos[k] = routed.values[1][i];
        if (with_marks) mark[k] = routed.values[2][i];  // the mark goes with its position
      }
    }
  }
  Judged out;
  out.distinct = groups;
  for (size_t k = 0; k < groups; ++k) {
    if (!wrong[k]) {
      if (keep_correct && with_values) {
        out.correct.push_back(routed.words[g.first[k]]);
        out.correct_occurrences.push_back(occ[k]);
      }
      continue;
    }
    const uint32_t i = g.first[k];
    out.misspelled.push_back(routed.words[i]);
    out.hashes.push_back(routed.hashes[i]);
    if (with_values) {
      out.occurrences.push_back(occ[k]);
      out.first_position.push_back(pos[k]);
      if (with_marks) out.first_mark.push_back(mark[k]);
    }
  }
  return out;
}

void drop_ignored(Judged& judged, const WordList& ignored) {
  if (ignored.empty()) return;
  std::unordered_set<std::string_view> set;
  for (size_t i = 0; i < ignored.size(); ++i) set.insert(ignored[i]);
  Judged kept;
  kept.distinct = judged.distinct;
  kept.correct = std::move(judged.correct);
  kept.correct_occurrences = std::move(judged.correct_occurrences);
  for (size_t i = 0; i < judged.misspelled.size(); ++i) {
    if (set.count(judged.misspelled[i])) continue;
    kept.misspelled.push_back(judged.misspelled[i]);
    kept.hashes.push_back(judged.hashes[i]);
    if (!judged.occurrences.empty()) kept.occurrences.push_back(judged.occurrences[i]);
    if (!judged.first_position.empty()) kept.first_position.push_back(judged.first_position[i]);
    if (!judged.first_mark.empty()) kept.first_mark.push_back(judged.first_mark[i]);
  }
  judged = std::move(kept);
}

}  // namespace spellcheck
