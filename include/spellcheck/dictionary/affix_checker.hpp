#pragma once
// Whether a word is correct for a hunspell dictionary, decided as hunspell
// 1.7 decides it (hunspell's spell(): case variants, affixes stripped to
// roots, compounds, BREAK points, ICONV, IGNORE, FORBIDDENWORD...). The
// checker owns no roots: it asks a RootSource for the entries spelled like
// a candidate root. Before it strips affixes from a string or splits it, it
// tells the source which string it is about to analyse (prepare), so a
// distributed source can make that string's roots local first (the roots a
// string derives from all live with the string's fold key: dictionary/
// affix_forms.hpp). It is the dictionary's membership test, as
// Shard::contains is a word list's.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/dictionary/affix_rules.hpp"
#include "spellcheck/dictionary/affix_text.hpp"
#include "spellcheck/dictionary/roots.hpp"

namespace spellcheck {

class AffixChecker {
 public:
  AffixChecker(const AffixRules& rules, const LetterCase& cases);
  // hunspell's spell(word): word as written (not internal form).
  bool spell(std::string_view word, RootSource& roots) const;
  // Without compounds and BREAK: the word as written is an entry or an
  // entry with affixes (the forms that suggestions may offer). Fills
  // *root (when given) with the entry it matched.
  bool simple_form(std::string_view word, RootSource& roots, const Root** root = nullptr) const;
  const AffixRules& rules() const { return rules_; }
  const LetterCase& cases() const { return cases_; }

 private:
  const AffixRules& rules_;
  const LetterCase& cases_;
};

}  // namespace spellcheck
