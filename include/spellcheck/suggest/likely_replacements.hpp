#pragma once
// The errors a hunspell .aff names as likely, for ranked suggestions: REP
// ("ss" typed for "ß", "f" for "ph": the typo side, then the word side,
// maybe bound to the word's start or end) and MAP (letters that stand for
// one another, "e" and "ê"). A dictionary word that is the typo with one of
// them undone scores as one likely edit (ChannelWeights::likely_replacement),
// however many letters the replacement changes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "spellcheck/dictionary/affix_rules.hpp"

namespace spellcheck {

class LikelyReplacements {
 public:
  enum Anchor : uint8_t { anywhere = 1, at_start = 2, at_end = 4, whole_word = 8 };

  LikelyReplacements() = default;
  // REP and MAP of the rules (case-folded; REP entries with a space, which
  // split a word in two, are left out: the index holds single words).
  explicit LikelyReplacements(const AffixRules& rules);
  // typo_side written where word_side was meant (UTF-8, folded here).
  void add(std::string_view typo_side, std::string_view word_side, Anchor anchor);
  bool empty() const { return pairs_.empty(); }
  size_t size() const { return pairs_.size(); }

  // Whether word (m folded code points) is typo (n folded code points) with
  // one occurrence of a pair's typo side replaced by its word side.
  // No allocation.
  bool one_step(const char32_t* typo, size_t n, const char32_t* word, size_t m) const;

 private:
  struct Pair {
    std::u32string typo_side, word_side;
    uint8_t anchors = 0;
  };
  const Pair* find(const char32_t* typo_side, size_t a, const char32_t* word_side, size_t b) const;
  std::vector<Pair> pairs_;
  std::unordered_multimap<uint64_t, uint32_t> index_;  // hash of both sides -> pairs_
  size_t longest_typo_side_ = 0, longest_word_side_ = 0;
};

}  // namespace spellcheck
