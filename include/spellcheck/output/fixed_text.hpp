#pragma once
// --fix DIR: the documents rewritten under DIR (each file at DIR/its path as
// given, a leading '/' dropped), each misspelled occurrence whose best
// correction in context beats the runner-up by at least --fix-margin
// replaced by it, every other byte as it was; the main output lists the
// changes. Compressed files and pipes are not rewritten (their positions
// are not the decoded bytes' offsets). A change is made only where the
// file's bytes at its place still spell the old word (markup filters keep
// places; a decoded JSON string may not).

#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/input/input_plan.hpp"
#include "spellcheck/input/line_marks.hpp"
#include "spellcheck/suggest/context.hpp"
#include "spellcheck/suggest/ranked_results.hpp"

namespace spellcheck {

struct TextFix {
  uint32_t file = 0;    // plan file index
  uint64_t offset = 0;  // of the old word in the file
  uint64_t line = 0, column = 0;
  int64_t margin = 0;  // score units (ContextOccurrence::kAlone: no runner-up)
  std::string old_word, new_word;
};

struct FixCounts {
  uint64_t files_written = 0;
  uint64_t fixes = 0;                // made
  uint64_t stale = 0;                // not made: the bytes there were not the old word
  uint64_t in_code = 0;              // not made: the word is inside code ("a_b", "file.txt", "*tag*", ...)
  uint64_t files_not_rewritten = 0;  // compressed
};

// This rank's fixes: the occurrences of its words (context.of) whose best
// is another word and wins by min_margin or more (an only candidate always
// does), in files that are rewritten.
std::vector<TextFix> fixes_in_context(const InputPlan& plan, const LineTable& lines, const WordList& words,
                                      const RankedResults& ranked, const InContext& context, int64_t min_margin);

// Makes dir (and its parents) if missing: before the run, so that an
// unwritable one fails first. Throws InputError.
void make_fix_folder(const std::string& dir);

// Where file `path` goes under dir. Throws UsageError for a path with a ".."
// part (it would land outside dir).
std::string fixed_path(const std::string& dir, const std::string& path);

// Collective: each fix to the rank that writes its file (file i: rank i % p).
std::vector<TextFix> route_fixes(const mpi::Comm& comm, const std::vector<TextFix>& fixes);

// Local: rank `rank` of `ranks` writes its files (every plain file i with
// i % ranks == rank) under dir, its fixes applied; returns the fixes made.
// Throws InputError naming an unreadable input or unwritable target.
std::vector<TextFix> write_fixed_files(const InputPlan& plan, const std::string& dir, int rank, int ranks,
                                       std::vector<TextFix> fixes, FixCounts& counts);

// Collective: the fixes made, at rank 0 as the change list (in plan file
// order, then offset): "path:line:column<TAB>old<TAB>new<TAB>margin\n"
// (margin "-" with no runner-up); empty elsewhere.
std::string change_list(const mpi::Comm& comm, const InputPlan& plan, const std::vector<TextFix>& made);

}  // namespace spellcheck
