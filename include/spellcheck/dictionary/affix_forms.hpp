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
#include <string>
#include <vector>

#include "spellcheck/dictionary/affix_rules.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

// The forms of entry (internal form), the entry's own word first, each
// once. out is cleared first.
void expand_forms(const AffixRules& rules, const StemEntry& entry, std::vector<std::string>& out);

// Whether an affix applies to word, and the result (hunspell's add()).
bool apply_prefix(const AffixRules& rules, const AffixEntry& p, std::string_view word, std::string& out);
bool apply_suffix(const AffixRules& rules, const AffixEntry& s, std::string_view word, std::string& out);

// The affix entries carrying each flag (indexes into rules.prefixes or
// rules.suffixes), for the expansion.
struct AffixesByFlag {
  explicit AffixesByFlag(const AffixRules& rules);
  std::vector<std::vector<uint32_t>> prefixes, suffixes;  // by flag (65536)
  // Suffixes (cross products) that a cross-product prefix's continuation
  // classes name: with such a prefix they apply to an entry that lacks
  // their flag (hunspell's "conditional suffix, enabled by prefix").
  std::vector<uint32_t> enabled_by_prefix;
};
void expand_forms(const AffixRules& rules, const AffixesByFlag& by_flag, const StemEntry& entry,
                  std::vector<std::string>& out);

}  // namespace spellcheck
