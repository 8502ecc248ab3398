#pragma once
// Lines of ranked suggestions, in SPEC line order (fewer candidates first,
// then the word byte-wise; or as LineOrder says), as a run the report merges like the SPEC one:
//   text   `word:  best second ...` (the SPEC format, candidates by rank)
//   jsonl  {"word":"teh","occurrences":3,"suggestions":[{"word":"the",
//           "distance":1,"score":-3.21},...]}  (occurrences: document mode)
// Words accepted in ranked mode (capitals of an entry) get no line.
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/common/word_list.hpp"
#include "spellcheck/input/line_marks.hpp"
#include "spellcheck/output/report.hpp"
#include "spellcheck/suggest/context.hpp"
#include "spellcheck/suggest/ranked_results.hpp"

namespace spellcheck {

enum class OutputFormat { text, jsonl };

// occurrences: per word, or empty (word-list mode). json_fields appends
// fields to a word's jsonl object (",\"name\":value"; --context's).
std::string make_ranked_run(const WordList& words, const RankedResults& ranked, OutputFormat format,
                            const std::vector<uint64_t>& occurrences, const ExtraFn& extra = {},
                            const LineOrder& order = {}, const ExtraFn& json_fields = {});

// --context's field of word i's jsonl object, each occurrence with its
// best correction there and that one's margin over the runner-up:
//   ,"in_context":[{"at":"path:line:column","best":"their","margin":1.234},...]
void append_in_context(std::string& out, const InContext& context, const LineTable& lines, const RankedResults& ranked,
                       size_t word);

// --context's column of word i's --report row: its occurrences by their
// best there, the bests in the word's order, each with its places in text
// order: "their at a.txt:3:1 a.txt:9:4; there at b.txt:1:1".
void append_bests_by_place(std::string& out, const InContext& context, const LineTable& lines,
                           const RankedResults& ranked, size_t word);

}  // namespace spellcheck
