// LikelyReplacements::one_step against the obvious search: every pair at
// every position of the typo, on every pair of short words over a small
// alphabet; and the .aff tables it is built from.
#include "spellcheck/suggest/likely_replacements.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "spellcheck/common/utf8.hpp"
#include "spellcheck/dictionary/affix_rules.hpp"

#include "all_words.hpp"

using namespace spellcheck;

namespace {

struct Rule {
  std::string typo_side, word_side;
  LikelyReplacements::Anchor anchor;
};

bool obvious_one_step(const std::vector<Rule>& rules, const std::string& typo, const std::string& word) {
  for (const Rule& r : rules)
    for (size_t i = 0; i + r.typo_side.size() <= typo.size(); ++i) {
      if (typo.compare(i, r.typo_side.size(), r.typo_side) != 0) continue;
      const bool starts = i == 0, ends = i + r.typo_side.size() == typo.size();
      const bool placed = r.anchor == LikelyReplacements::anywhere ||
                          (r.anchor == LikelyReplacements::at_start && starts) ||
                          (r.anchor == LikelyReplacements::at_end && ends) ||
                          (r.anchor == LikelyReplacements::whole_word && starts && ends);
      if (placed && typo.substr(0, i) + r.word_side + typo.substr(i + r.typo_side.size()) == word) return true;
    }
  return false;
}

bool one_step(const LikelyReplacements& r, const std::string& typo, const std::string& word) {
  const std::u32string a = decode_utf8(typo), b = decode_utf8(word);
  return r.one_step(a.data(), a.size(), b.data(), b.size());
}

}  // namespace

TEST_CASE("one_step: the same as trying every pair at every position") {
  const std::vector<Rule> rules = {
      {"a", "b", LikelyReplacements::anywhere},   {"ab", "c", LikelyReplacements::anywhere},
      {"c", "aab", LikelyReplacements::anywhere}, {"b", "bb", LikelyReplacements::at_start},
      {"a", "c", LikelyReplacements::at_end},     {"cb", "a", LikelyReplacements::whole_word},
      {"bb", "b", LikelyReplacements::anywhere},
  };
  LikelyReplacements r;
  for (const Rule& rule : rules) r.add(rule.typo_side, rule.word_side, rule.anchor);
  const std::vector<std::string> words = all_words("abc", 5);
  size_t pairs = 0, yes = 0;
  for (const std::string& typo : words)
    for (const std::string& word : words) {
      const bool want = obvious_one_step(rules, typo, word);
      if (one_step(r, typo, word) != want) {
        CAPTURE(typo);
        CAPTURE(word);
        CHECK(one_step(r, typo, word) == want);
      }
      ++pairs;
      yes += want;
    }
  CHECK(pairs > 100000);
  CHECK(yes > 900);
}

TEST_CASE("from an .aff: REP with anchors, MAP both ways, case folded, no spaces") {
  const std::string aff =
      "SET UTF-8\n"
      "REP 4\nREP ss ß\nREP ^Ae Ä\nREP f$ ph\nREP alot a_lot\n"
      "MAP 1\nMAP eê(ee)\n";
  const AffixRules rules = parse_affix_rules(aff, "test.aff", nullptr);
  const LikelyReplacements r(rules);
  CHECK(one_step(r, "strasse", "straße"));
  CHECK_FALSE(one_step(r, "straße", "strasse"));
  CHECK(one_step(r, "aerger", "ärger"));
  CHECK_FALSE(one_step(r, "baer", "bär"));  // only at the start
  CHECK(one_step(r, "graf", "graph"));
  CHECK_FALSE(one_step(r, "grafik", "graphik"));  // only at the end
  CHECK(one_step(r, "fenetre", "fenêtre"));
  CHECK(one_step(r, "fenêtre", "fenetre"));
  CHECK(one_step(r, "fenetre", "feneetre"));       // e -> ee
  CHECK_FALSE(one_step(r, "fenetre", "fenêtrê"));  // two replacements
  CHECK_FALSE(one_step(r, "alot", "a lot"));
  CHECK_FALSE(one_step(r, "strasse", "strasse"));
}
