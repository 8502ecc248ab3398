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
#include "spellcheck/output/report.hpp"
#include "spellcheck/suggest/ranked_results.hpp"

namespace spellcheck {

enum class OutputFormat { text, jsonl };

// occurrences: per word, or empty (word-list mode).
std::string make_ranked_run(const WordList& words, const RankedResults& ranked, OutputFormat format,
                            const std::vector<uint64_t>& occurrences, const ExtraFn& extra = {},
                            const LineOrder& order = {});

}  // namespace spellcheck
