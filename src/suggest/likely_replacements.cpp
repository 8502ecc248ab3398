#include "spellcheck/suggest/likely_replacements.hpp"

#include <xxhash.h>

#include <algorithm>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/common/utf8.hpp"

namespace spellcheck {

namespace {

std::u32string folded(std::string_view utf8) {
  std::u32string s = decode_utf8(utf8);
  for (char32_t& c : s) c = fold_case(c);
  return s;
}

uint64_t pair_hash(const char32_t* typo_side, size_t a, const char32_t* word_side, size_t b) {
  return XXH3_64bits_withSeed(word_side, b * sizeof(char32_t), XXH3_64bits(typo_side, a * sizeof(char32_t)));
}

// The anchors of ReplacementRule::out's slots: anywhere, at start, at end,
// whole word.
constexpr LikelyReplacements::Anchor kRepAnchors[4] = {LikelyReplacements::anywhere, LikelyReplacements::at_start,
                                                       LikelyReplacements::at_end, LikelyReplacements::whole_word};

}  // namespace

LikelyReplacements::LikelyReplacements(const AffixRules& rules) {
  for (const ReplacementRule& rule : rules.rep)
    for (int slot = 0; slot < 4; ++slot) {
      const std::string& out = rule.out[static_cast<size_t>(slot)];
      if (out.empty() || out.find(' ') != std::string::npos || rule.pattern.find(' ') != std::string::npos) continue;
      add(rule.pattern, out, kRepAnchors[slot]);
    }
  // MAP: any member of a group typed for any other.
  for (const std::vector<std::string>& group : rules.map)
    for (const std::string& x : group)
      for (const std::string& y : group)
        if (x != y && !x.empty() && !y.empty()) add(x, y, anywhere);
}

void LikelyReplacements::add(std::string_view typo_side, std::string_view word_side, Anchor anchor) {
  std::u32string a = folded(typo_side), b = folded(word_side);
  if (a.empty() || b.empty() || a == b) return;
  if (const Pair* p = find(a.data(), a.size(), b.data(), b.size())) {
    pairs_[static_cast<size_t>(p - pairs_.data())].anchors |= anchor;  // the same pair, one more place
    return;
  }
  index_.emplace(pair_hash(a.data(), a.size(), b.data(), b.size()), static_cast<uint32_t>(pairs_.size()));
  longest_typo_side_ = std::max(longest_typo_side_, a.size());
  longest_word_side_ = std::max(longest_word_side_, b.size());
  pairs_.push_back(Pair{std::move(a), std::move(b), static_cast<uint8_t>(anchor)});
}

const LikelyReplacements::Pair* LikelyReplacements::find(const char32_t* typo_side, size_t a, const char32_t* word_side,
                                                         size_t b) const {
  auto [lo, hi] = index_.equal_range(pair_hash(typo_side, a, word_side, b));
  for (; lo != hi; ++lo) {
    const Pair& p = pairs_[lo->second];
    if (p.typo_side.size() == a && p.word_side.size() == b &&
        std::equal(typo_side, typo_side + a, p.typo_side.data()) &&
        std::equal(word_side, word_side + b, p.word_side.data()))
      return &p;
  }
  return nullptr;
}

bool LikelyReplacements::one_step(const char32_t* typo, size_t n, const char32_t* word, size_t m) const {
  if (pairs_.empty()) return false;
  // typo = head + typo_side + tail, word = head + word_side + tail: the head
  // is at most their common prefix, the tail at most their common suffix.
  size_t prefix = 0;
  while (prefix < n && prefix < m && typo[prefix] == word[prefix]) ++prefix;
  if (prefix == n && n == m) return false;  // the same word
  size_t suffix = 0;
  while (suffix < n && suffix < m && typo[n - 1 - suffix] == word[m - 1 - suffix]) ++suffix;
  const size_t first = n > suffix + longest_typo_side_ ? n - suffix - longest_typo_side_ : 0;
  for (size_t i = first; i <= prefix && i < n; ++i) {
    // typo_side = typo[i, i + a): it must reach the common suffix.
    const size_t least = n - suffix > i ? n - suffix - i : 1;
    for (size_t a = std::max<size_t>(least, 1); a <= longest_typo_side_ && i + a <= n; ++a) {
      if (m + a < n + 1) continue;  // word side would be empty
      const size_t b = m + a - n;
      if (b > longest_word_side_ || i + b > m) continue;
      const Pair* p = find(typo + i, a, word + i, b);
      if (p == nullptr) continue;
      const bool starts = i == 0, ends = i + a == n;
      if ((p->anchors & anywhere) || ((p->anchors & at_start) && starts) || ((p->anchors & at_end) && ends) ||
          ((p->anchors & whole_word) && starts && ends))
        return true;
    }
  }
  return false;
}

}  // namespace spellcheck
