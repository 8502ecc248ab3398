#pragma once
// What the reader counts per document for --per-document. A document is a
// plain file (all of it), or one record of a JSON Lines or WARC file. A
// reader sees part of a document at a time (a work unit, a stream piece):
// each part is counted on its own, and the parts of a document, from any
// thread and rank, are summed later by their key (file, offset).
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/common/word_list.hpp"

namespace spellcheck {

struct DocumentPart {
  uint32_t file = 0;      // plan.files index
  uint64_t offset = 0;    // a record's first byte in the (decoded) file; 0 for a whole file
  bool record = false;    // a JSON Lines or WARC record (else the whole file)
  bool binary = false;    // a compressed file skipped as binary: no document
  std::string id{};       // a record's --id-field value or WARC-Target-URI ("": none)
  uint64_t position = 0;  // a record's stream position and line mark (line_marks.hpp): its line
  uint64_t mark = 0;
  uint64_t tokens = 0;      // every token, skipped ones (numbers, too long) included
  uint64_t words = 0;       // the tokens judged
  uint64_t words_from = 0;  // its distinct words: DocumentParts::word[k], count[k] for k in [words_from, words_to)
  uint64_t words_to = 0;
};

// The words of a part are those that may be misspelled (the reader leaves
// out words surely in the dictionary, known_words.hpp): a few in a hundred.
struct DocumentParts {
  std::vector<DocumentPart> parts;  // no particular order
  WordList word;                    // each part's words
  std::vector<uint64_t> count;      // their occurrences in the part
};

}  // namespace spellcheck
