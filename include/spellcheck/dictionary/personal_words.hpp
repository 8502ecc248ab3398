#pragma once
// The lines of an --extra-dict file: hunspell's personal dictionary format
// (hunspell -p), which a plain word list is a case of. `word` adds a word;
// `*word` forbids it; `word/EXAMPLE` adds word with the affixes of the
// dictionary word EXAMPLE. Lines are cleaned as dictionary lines are
// (spaces, tabs, CRs off both ends); empty ones are skipped.
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

struct PersonalWord {
  enum class Kind : uint8_t { add, forbid, add_like };
  Kind kind = Kind::add;
  std::string word;
  std::string example;  // add_like
};

// A word of an --extra-dict file on its way to its spelling's owner
// (hunspell_dictionary.cpp).
struct PersonalOp {
  PersonalWord::Kind kind = PersonalWord::Kind::add;
  StemEntry entry;      // word (internal form), flags (add_like: the example's, once known), order
  std::string example;  // add_like, until its flags are known (internal form)
};

// Collective: a word list dictionary's extra words (--extra-dict), this
// rank's share of each file: the words to add (word/EXAMPLE adds word: a
// word list has no affixes) and the words to forbid.
struct PlainExtraWords {
  WordList add, forbid;
};
PlainExtraWords read_plain_extra_words(const mpi::Comm& comm, const std::vector<std::string>& files);

// Collective: this rank's share of --ignore files' words (cleaned lines).
WordList read_ignore_words(const mpi::Comm& comm, const std::vector<std::string>& files);

// One line (false for an empty one), as hunspell's putdic reads it: a '/'
// after the first character starts the example ("//" too, an older form).
bool parse_personal_line(std::string_view line, PersonalWord& out);

}  // namespace spellcheck
