#pragma once
// Judging at the owner: the words routed here (from every rank, so a word
// may arrive several times) are made distinct and looked up in the shard
// once each; the misspelled ones are kept for the candidate phase.
#include <cstdint>
#include <functional>
#include <vector>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/shard.hpp"

namespace spellcheck {

// Equal words grouped: group[i] is the group of word i, first[g] the first
// word of group g. Groups are numbered in order of first occurrence.
struct Groups {
  std::vector<uint32_t> group;
  std::vector<uint32_t> first;
};
Groups group_equal_words(const WordList& words, const std::vector<uint64_t>& hashes);

struct Judged {
  WordList misspelled;
  std::vector<uint64_t> hashes;
  // Per misspelled word, when words carried {occurrences, first position}:
  // occurrences summed, earliest position kept.
  std::vector<uint64_t> occurrences;
  std::vector<uint64_t> first_position;
  std::vector<uint64_t> first_mark;  // its line mark, when words carried one (line_marks.hpp)
  uint64_t distinct = 0;             // distinct words judged here
  // With keep_correct and occurrences: the correct words and how often
  // each occurs (ranked mode's collection counts).
  WordList correct;
  std::vector<uint64_t> correct_occurrences;
};

// Local: the words' groups judged by decide (wrong[g] = 1 for a misspelled
// group g, on entry all 1), then gathered as judge() does. For dictionaries
// judged by other means than a Shard (hunspell_judge.hpp); may be collective
// when decide is.
Judged judge_with(const Routed& routed, bool keep_correct,
                  const std::function<void(const Groups& groups, std::vector<char>& wrong)>& decide);

// Local: drops the misspelled words (and what goes with them) that
// `ignored` holds (words this rank owns, by the same routing).
void drop_ignored(Judged& judged, const WordList& ignored);

// Local. routed.values holds the columns {occurrences, position}, optionally
// a third, the position's line mark, or nothing.
Judged judge(const Shard& shard, const Routed& routed, bool keep_correct = false);

}  // namespace spellcheck
