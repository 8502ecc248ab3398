#pragma once
// The lines of a hunspell .dic file: a stem, its flags, and hunspell's
// homonym rules. Each line is one entry; where several entries spell the
// same word they are homonyms, kept in the order of their lines. For a stem
// in mixed case (OpenOffice.org) or in capitals with flags (CIA/S) hunspell
// adds a hidden entry in title case (Openoffice.org, Cia) that only a word
// in capitals may match (kOnlyUpcaseFlag); a later entry of that spelling
// takes its place.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/dictionary/affix_rules.hpp"
#include "spellcheck/dictionary/affix_text.hpp"

namespace spellcheck {

struct StemEntry {
  std::string word;         // internal form (affix_rules.hpp)
  std::vector<Flag> flags;  // sorted
  uint64_t order = 0;       // homonyms rank by it: 2 x the line's number, +1 for a hidden entry
  bool hidden() const { return (order & 1) != 0; }
  bool has(Flag f) const { return has_flag(flags, f); }
};

// A stem entry as it travels between ranks (common/wire.hpp): [u64
// order][u16 length][word][u16 count][count flags, u16 each].
void append_stem_entry(std::string& out, uint64_t order, std::string_view word, const Flag* flags, size_t count);
inline void append_stem_entry(std::string& out, const StemEntry& e) {
  append_stem_entry(out, e.order, e.word, e.flags.data(), e.flags.size());
}
// The entry at bytes[at], `at` then past it; throws wire::WireError naming
// `what` when the bytes end early.
StemEntry read_stem_entry(std::string_view bytes, size_t& at, const char* what);

// One .dic line, in the file's own bytes, to its entry and, where hunspell
// adds one, its hidden capitalised entry: the word is converted from the
// .aff's SET to UTF-8, the flags decoded from the bytes as written.
// line_number: 1-based in the file (the first line holds the count).
// Returns how many entries it appended (0 for an empty line). Throws
// std::invalid_argument for a bad flag alias.
size_t parse_stem_line(std::string_view line, uint64_t line_number, const AffixRules& rules, const LetterCase& cases,
                       std::vector<StemEntry>& out);

// The lines of a .dic (in the file's bytes) into entries; first_line: the
// number of lines[0] in the file (line 1, the count, is skipped). Throws
// std::runtime_error naming path and line for a bad flag alias.
std::vector<StemEntry> parse_stem_lines(const std::vector<std::string_view>& lines, uint64_t first_line,
                                        const AffixRules& rules, const LetterCase& cases, const std::string& path);

// Homonyms of one spelling, as hunspell links them: entries in order;
// a hidden entry is dropped when its spelling has an entry already, and
// replaced (its flags taken) by the next entry of that spelling when it is
// the last so far. entries: all of one spelling, any order; in place.
void link_homonyms(std::vector<StemEntry>& entries);

// The count on a .dic's first line ("" when it is not a number).
bool valid_stem_count(std::string_view first_line);

}  // namespace spellcheck
