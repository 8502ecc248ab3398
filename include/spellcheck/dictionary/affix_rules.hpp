#pragma once
// A hunspell .aff file (man 5 hunspell), parsed as hunspell 1.7 reads it:
// the options, the flags that mark words, the prefix and suffix rules and
// the tables (REP, MAP, BREAK, ICONV, OCONV, CHECKCOMPOUNDPATTERN,
// COMPOUNDRULE). Every rank parses the whole file: it is small.
//
// Strings are UTF-8 whatever the file's SET (converted on reading); flags
// are decoded from the file's own bytes, as hunspell decodes them. With
// COMPLEXPREFIXES hunspell checks words reversed, its prefixes as suffixes
// and the other way round; the rules here are in that internal form too
// (AffixRules::internal_form).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace spellcheck {

using Flag = uint16_t;
inline constexpr Flag kNoFlag = 0;
inline constexpr Flag kDefaultForbiddenFlag = 65510;  // hunspell's FORBIDDENWORD when the .aff names none
inline constexpr Flag kOnlyUpcaseFlag = 65511;        // a hidden capitalised homonym (see stem_file.hpp)

enum class FlagMode : uint8_t { single_byte, two_bytes, number, utf8 };

// Whether a sorted flag list holds f (hunspell's TESTAFF).
bool has_flag(const Flag* sorted, size_t n, Flag f);
inline bool has_flag(const std::vector<Flag>& sorted, Flag f) { return has_flag(sorted.data(), sorted.size(), f); }

// Flags as hunspell decodes a field of the given mode (unsorted). raw: the
// field's bytes as the file holds them.
std::vector<Flag> decode_flags(std::string_view raw, FlagMode mode);
Flag decode_flag(std::string_view raw, FlagMode mode);

// An affix condition: one atom per code point, matched against the start of
// a root (prefixes) or its end (suffixes).
struct AffixCondition {
  struct Atom {
    bool any = false;      // '.'
    bool negated = false;  // [^...]
    std::u32string chars;  // the literal, or the group's members
    bool matches(char32_t c) const;
  };
  std::vector<Atom> atoms;
  // Whether the first (last) atoms.size() code points of the UTF-8 word match.
  bool matches_start(std::string_view word) const;
  bool matches_end(std::string_view word) const;
  static AffixCondition parse(std::u32string_view text);
};

enum AffixMark : uint8_t {
  kPermitMark = 1,          // COMPOUNDPERMITFLAG
  kCircumfixMark = 2,       // CIRCUMFIX
  kOnlyInCompoundMark = 4,  // ONLYINCOMPOUND
  kNeedAffixMark = 8,       // NEEDAFFIX
};

struct AffixEntry {
  Flag flag = kNoFlag;
  bool cross = false;      // 'Y': combines with affixes of the other side
  std::string strip;       // taken from the root
  std::string append;      // added instead
  std::vector<Flag> cont;  // continuation classes, sorted
  AffixCondition condition;
  // Which of the rules' COMPOUNDPERMITFLAG, CIRCUMFIX, ONLYINCOMPOUND and
  // NEEDAFFIX flags cont holds (AffixMark bits), found once after parsing:
  // the checker asks for each entry it tries.
  uint8_t marks = 0;
  // hunspell's sorted affix lists: key is the append (prefixes) or the
  // append's bytes reversed (suffixes); a word's entries are found by
  // following next_eq when the key matches and next_ne when it does not.
  std::string key;
  int32_t next = -1, next_eq = -1, next_ne = -1;
  bool has_cont(Flag f) const { return has_flag(cont, f); }
  size_t condition_length() const { return condition.atoms.size(); }
};

// One step of the walk through hunspell's sorted lists, kept apart from the
// entries in one small array: the walk passes many entries whose key does
// not match, and reads only this of them.
struct AffixWalkStep {
  uint32_t key_begin = 0, key_size = 0;  // the entry's key in AffixRules::walk_keys
  int32_t next_eq = -1, next_ne = -1;
};

// Where a word's candidate affix entries start: index 0 the empty-append
// entries (a plain list through next), else by the key's first byte.
struct AffixIndex {
  std::array<int32_t, 256> start;
  AffixIndex() { start.fill(-1); }
};

// ICONV and OCONV: the longest pattern at each position is replaced; a
// pattern may be bound to the word's start (_x), end (x_) or both.
struct ConversionTable {
  struct Entry {
    std::string pattern;
    std::array<std::string, 4> out;  // anywhere, at start, at end, whole word
  };
  std::vector<Entry> entries;  // sorted by pattern
  bool empty() const { return entries.empty(); }
  // The converted word, or false when nothing matched.
  bool convert(std::string_view word, std::string& out) const;
  void add(std::string pattern, std::string out);  // hunspell's RepList::add

 private:
  int find(std::string_view word) const;
  const std::string& replacement(std::string_view word, int index, bool at_start) const;
};

struct ReplacementRule {  // REP
  std::string pattern;
  std::array<std::string, 4> out;  // as ConversionTable's
};

struct CompoundPattern {    // CHECKCOMPOUNDPATTERN end/flag begin/flag [replacement]
  std::string end_chars;    // of the first part ("0": its stem unaffixed)
  std::string begin_chars;  // of the next part
  std::string replacement;  // with it, the boundary "end+begin" is written so in words
  Flag end_flag = kNoFlag, begin_flag = kNoFlag;
};

struct AffixRules {
  std::string path;
  std::string encoding;  // SET as written ("" : hunspell's default ISO8859-1)
  std::string lang;
  FlagMode flag_mode = FlagMode::single_byte;
  bool complex_prefixes = false;
  bool fullstrip = false;
  bool checksharps = false;
  bool forbid_warn = false;
  bool compound_more_suffixes = false;
  bool check_compound_dup = false, check_compound_rep = false, check_compound_triple = false;
  bool simplified_triple = false, check_compound_case = false;
  bool simplified_compound_patterns = false;  // a CHECKCOMPOUNDPATTERN has a replacement
  bool have_cont_class = false;
  Flag compound_flag = kNoFlag, compound_begin = kNoFlag, compound_middle = kNoFlag, compound_end = kNoFlag;
  Flag compound_root = kNoFlag, compound_permit = kNoFlag, compound_forbid = kNoFlag;
  Flag forbidden = kDefaultForbiddenFlag, nosuggest = kNoFlag, nongram_suggest = kNoFlag;
  Flag need_affix = kNoFlag, circumfix = kNoFlag, only_in_compound = kNoFlag;
  Flag keepcase = kNoFlag, forceucase = kNoFlag, warn = kNoFlag, substandard = kNoFlag;
  int compound_min = 3;        // COMPOUNDMIN (at least 1)
  int compound_word_max = -1;  // COMPOUNDWORDMAX; -1: no limit
  int max_compound_syllables = 0;
  std::u32string ignore;  // IGNORE, sorted
  std::string try_chars, key_chars, wordchars;
  ConversionTable iconv, oconv;
  std::vector<ReplacementRule> rep;
  std::vector<CompoundPattern> compound_patterns;
  std::vector<std::vector<Flag>> compound_rules;        // COMPOUNDRULE; '*' and '?' as the flags 42 and 63
  std::vector<std::string> breaks;                      // BREAK (default "-", "^-", "-$")
  std::vector<std::vector<std::string>> map;            // MAP groups
  std::vector<std::vector<Flag>> flag_aliases;          // AF (1-based in files)
  std::vector<AffixEntry> prefixes, suffixes;           // internal form
  std::vector<AffixWalkStep> prefix_walk, suffix_walk;  // step i of entry i
  std::string walk_keys;
  std::string_view walk_key(const AffixWalkStep& s) const {
    return std::string_view(walk_keys).substr(s.key_begin, s.key_size);
  }
  AffixIndex prefix_index, suffix_index;
  std::vector<uint8_t> in_cont_class;  // by flag: some affix has it as a continuation class

  bool compounding() const { return compound_flag || compound_begin || !compound_rules.empty(); }
  bool utf8() const;
  // The internal form of a word: IGNORE characters removed and, with
  // COMPLEXPREFIXES, reversed (code points).
  std::string internal_form(std::string_view word) const;
  std::string remove_ignored(std::string_view word) const;
  // The flags of a .dic field: decoded, or an AF alias by number. Throws
  // std::invalid_argument for a bad alias number.
  std::vector<Flag> flags_of_field(std::string_view raw) const;
  std::string flag_name(Flag f) const;
};

// A malformed .aff: the message names the file and line.
struct AffixFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses .aff bytes (its own character set). Directives spellcheck does not
// implement are named in warnings, one line each. Throws AffixFileError.
AffixRules parse_affix_rules(std::string_view bytes, const std::string& path, std::vector<std::string>* warnings);

// The lines of a file split as hunspell reads them: on '\n', a trailing
// '\r' (or "\r\n") removed; a UTF-8 byte order mark at the start dropped.
std::vector<std::string_view> hunspell_lines(std::string_view bytes);
// The space- and tab-separated fields of a line.
std::vector<std::string_view> hunspell_fields(std::string_view line);

}  // namespace spellcheck
