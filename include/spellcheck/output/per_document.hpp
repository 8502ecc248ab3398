#pragma once
// --per-document FILE: one JSON object a document, in input order (files
// in plan order, a file's records in file order):
//   {"document":NAME,"tokens":T,"words":W,"misspelled":M,
//    "distinct_misspelled":D,"in_dictionary":S,"top":[["word",n],...]}
// NAME: a plain file's path; a record's --id-field value (JSON Lines) or
// WARC-Target-URI, else "path:line". T counts every token, skipped ones
// (numbers, too long, digits) included; W the tokens judged; M the
// occurrences of the words the run reports; S = (W - M) / W ("%.4f", null
// without words); top: the most frequent reported words, ties byte-wise.
//
// The reader counts parts of documents (document_parts.hpp) wherever it
// reads them; here every rank learns the reported words (each rank judged
// only its own), turns its parts into misspelled counts, and rank 0 sums
// the parts of each document, whatever thread and rank read them.
#include <cstddef>
#include <string>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/input/document_parts.hpp"
#include "spellcheck/input/input_plan.hpp"
#include "spellcheck/input/line_marks.hpp"

namespace spellcheck {

// Which of the parts' words count as misspelled: those listed (the words a
// run reports), or, when the reader left out every word of the dictionary
// (known_words.hpp), all but those listed (misspelled words the run does
// not report: --ignore, ranked mode's accepted words). Each rank lists its
// own (the words it judged).
struct ReportedWords {
  const WordList* listed = nullptr;
  bool all_but_listed = false;
};

// Collective. parts: this rank's; lines: the line table (records' names).
// Returns the lines at rank 0, "" elsewhere.
std::string per_document_lines(const mpi::Comm& comm, const InputPlan& plan, const LineTable& lines,
                               const DocumentParts& parts, const ReportedWords& reported, size_t top);

}  // namespace spellcheck
