#pragma once
// Text as hunspell dictionaries see it: UTF-8 code points, letter case by a
// dictionary's LANG (Turkish, Azeri and Crimean Tatar pair i with İ and ı
// with I), hunspell's five capitalisation kinds, the key that brings every
// case variant of a word to one rank, and the 8-bit character sets of older
// dictionaries converted to UTF-8. Case mappings are ICU's simple
// per-code-point ones, as hunspell applies its own table one code point at a
// time, restricted to the code points hunspell's own table knows (Unicode
// 4.1's; affix_text.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/utf8.hpp"

namespace spellcheck {

// hunspell's capitalisation kinds (its NOCAP, INITCAP, ALLCAP, HUHCAP,
// HUHINITCAP).
enum class Capitalisation : uint8_t { none, initial, all, mixed, mixed_initial };

class LetterCase {
 public:
  // lang: the .aff's LANG ("tr_TR", "de_DE", ...): only the Turkic i rules
  // depend on it.
  explicit LetterCase(std::string_view lang = "");
  char32_t lower(char32_t c) const;
  char32_t upper(char32_t c) const;
  bool turkic() const { return turkic_; }

  Capitalisation kind(std::u32string_view w) const;
  Capitalisation kind(std::string_view utf8) const;
  // Every letter lowered; the first raised (hunspell's mkallsmall, mkinitcap).
  std::string to_lower(std::string_view utf8) const;
  std::string to_upper(std::string_view utf8) const;
  std::string raise_first(std::string_view utf8) const;
  // Lowered, then its first raised: "oPENoFFICE" -> "Openoffice".
  std::string to_title(std::string_view utf8) const { return raise_first(to_lower(utf8)); }

  // The word's case-blind key: code points folded so that a word, its
  // lowered, capitalised and all-capitals forms all fold alike, and ß (and
  // ẞ) as "ss" (hunspell tries ß for each "ss" of a word in capitals), with
  // dots at either end dropped (hunspell tries a word with and without
  // trailing dots; with COMPLEXPREFIXES it checks words reversed).
  // Words with equal keys live on one rank.
  void fold_key(std::string_view utf8, std::string& out) const;
  std::string fold_key(std::string_view utf8) const {
    std::string k;
    fold_key(utf8, k);
    return k;
  }
  // The fold of one code point (ß and ẞ fold to themselves here; fold_key
  // writes them as "ss").
  char32_t fold(char32_t c) const;

 private:
  // The BMP's case tables, made once per process for each kind of language.
  struct Tables {
    std::vector<char16_t> lower, upper;
    std::vector<char32_t> fold;  // a representative of each code point's case class
  };
  static const Tables& tables(bool turkic);
  bool turkic_ = false;
  const Tables* t_ = nullptr;  // a representative of each BMP code point's case class
};

// hunspell's LANG names to the language whose rules apply ("de_DE" -> "de").
std::string language_of(std::string_view lang);

// Converts text in a dictionary's SET character set to UTF-8. Names as
// hunspell writes them ("ISO8859-1", "KOI8-R", "microsoft-cp1251", ...).
// Returns false when the set is unknown; throws nothing.
bool known_charset(std::string_view set);
std::string to_utf8(std::string_view bytes, std::string_view set);

}  // namespace spellcheck
