#pragma once
// The strings an entry can take with its affixes. hunspell accepts a word
// with affixes by stripping them back to an entry; spellcheck also goes the
// other way once, when the dictionary is loaded: every entry is expanded into
// the forms it makes, and each form's entry is stored with the form's fold
// key (affix_text.hpp). So everything hunspell could strip a word back to
// lies with the word's own key, on one rank (root_neighbourhoods.hpp).
//
// The expansion is generous: it applies every affix whose flag the entry or
// another chosen affix carries (at most a prefix and two suffixes, the
// shapes hunspell strips; in the internal form COMPLEXPREFIXES's two
// prefixes are two suffixes), checking only strips and conditions. Flags
// that forbid a combination (NEEDAFFIX, CIRCUMFIX, ONLYINCOMPOUND, cross
// products...) are left to the checker, which decides exactly. A form too
// many costs memory; a form missing would lose a word.
#include <algorithm>
#include <string>
#include <vector>

#include "spellcheck/dictionary/affix_rules.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

// The forms of entry (internal form), the entry's own word first; a form
// may come twice (callers keep keys or sets). out is cleared first.
void expand_forms(const AffixRules& rules, const StemEntry& entry, std::vector<std::string>& out);

// Whether an affix applies to word, and the result (hunspell's add()).
bool apply_prefix(const AffixRules& rules, const AffixEntry& p, std::string_view word, std::string& out);
bool apply_suffix(const AffixRules& rules, const AffixEntry& s, std::string_view word, std::string& out);

// The affix entries carrying each flag (indexes into rules.prefixes or
// rules.suffixes), for the expansion.
struct AffixesByFlag {
  explicit AffixesByFlag(const AffixRules& rules);
  std::vector<std::vector<uint32_t>> prefixes, suffixes;  // by flag (65536)
  // A flag's suffixes by the last letter a word needs for them (their
  // strip's, or their condition's last atom when that is one letter); 0:
  // any word. Sorted: a word's candidates are the 0 run and its letter's.
  std::vector<std::vector<std::pair<char32_t, uint32_t>>> suffixes_by_last;
  // The suffixes of flag f that may apply to a word ending in last.
  template <class F>
  void each_suffix(Flag f, char32_t last, F&& fn) const {
    const auto& v = suffixes_by_last[f];
    for (size_t i = 0; i < v.size() && v[i].first == 0; ++i) fn(v[i].second);
    if (last == 0) return;
    auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(last, uint32_t{0}));
    for (; it != v.end() && it->first == last; ++it) fn(it->second);
  }
  // Suffixes (cross products) that a cross-product prefix's continuation
  // classes name: with such a prefix they apply to an entry that lacks
  // their flag (hunspell's "conditional suffix, enabled by prefix").
  std::vector<uint32_t> enabled_by_prefix;
};
void expand_forms(const AffixRules& rules, const AffixesByFlag& by_flag, const StemEntry& entry,
                  std::vector<std::string>& out);

}  // namespace spellcheck
