#pragma once
// The report: each rank turns its hits into SPEC lines (candidates
// regenerated from their edits, sorted byte-wise) and orders them (by
// candidate count, then word) into one serialized run; the ranks' runs are
// put in the global order by sorted_output.hpp (a sample sort, no
// gather).
//
// Half a million lines on docs/large: nothing here allocates per line. A
// run is one buffer, read back as views into its bytes.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/word_list.hpp"

namespace spellcheck {

// Declared where they are made: the candidate phase's hits (candidates.hpp),
// the owner's judgement (judge.hpp), the line numbers (line_marks.hpp).
struct Slot;
struct Judged;
class LineTable;

// One line of a run, as views into the run's bytes.
struct LineView {
  uint32_t candidates = 0;
  std::string_view word;
  std::string_view line;   // "word:  c1 c2\n"
  std::string_view extra;  // what the caller attached (the document report's fields), or empty
};

// Text attached to word i's line (appended to out), for the --report TSV.
using ExtraFn = std::function<void(size_t word, std::string& out)>;

// The order of the lines: SPEC's (fewer candidates first), or with --sort
// count by occurrences, most first; ties by the word, byte-wise. The key is
// what a line's header carries and the sort compares.
struct LineOrder {
  const std::vector<uint64_t>* occurrences = nullptr;   // per word: --sort count
  bool wide() const { return occurrences != nullptr; }  // keys beyond 16 bits (spec_order_key)
  uint32_t key(size_t word, uint32_t candidates) const {
    if (!occurrences) return candidates;
    return UINT32_MAX - static_cast<uint32_t>(std::min<uint64_t>((*occurrences)[word], UINT32_MAX));
  }
};

// Local: the lines of this rank's misspelled words in SPEC order, as a run.
// Each line is a 16-byte header (candidates and the three lengths) and the
// word, line and extra bytes. OpenMP threads build the lines.
std::string make_run(const WordList& misspelled, const std::vector<Slot>& hits, const ExtraFn& extra = {},
                     const LineOrder& order = {});

// The same from candidates already spelled out (hunspell dictionaries):
// candidates[i] are word i's, in any order, each once.
std::string make_run_of_lists(const WordList& misspelled, std::vector<std::vector<std::string>> candidates,
                              const ExtraFn& extra = {}, const LineOrder& order = {});

// The words alone, "word\n" each, byte-wise (--suggest none).
std::string make_word_run(const WordList& misspelled, const LineOrder& order = {});

// Appends one line to a run (the format make_run writes): for modes that
// build their own lines (ranked suggestions), in SPEC order already.
void append_run_line(std::string& run, uint32_t candidates, std::string_view word, std::string_view line,
                     std::string_view extra = {});

// The same line written in place, for a mode that makes a line's bytes
// straight into the run (no copy through a buffer of lines): construct (the
// header, then the word), append the line's bytes to run, line_done(),
// append the extra's, done() (the header's lengths filled in).
class RunLineWriter {
 public:
  RunLineWriter(std::string& run, uint32_t candidates, std::string_view word);
  void line_done() { extra_at_ = run_.size(); }
  void done();

 private:
  std::string& run_;
  size_t head_, line_at_, extra_at_ = 0;
};

// Reads a run line by line.
class RunReader {
 public:
  explicit RunReader(std::string_view run) : run_(run) {}
  bool done() const { return pos_ >= run_.size(); }
  size_t position() const { return pos_; }  // where the next line starts
  LineView next();

 private:
  std::string_view run_;
  size_t pos_ = 0;
};

// SPEC order of two lines: fewer candidates first, then the word byte-wise.
inline bool spec_less(const LineView& a, const LineView& b) {
  if (a.candidates != b.candidates) return a.candidates < b.candidates;
  return a.word < b.word;  // char_traits<char>::compare is memcmp: unsigned bytes
}

// A sort key that decides most comparisons of (candidates, word) with one
// integer compare: the count (clamped) above the first six bytes of the
// word, big-endian and zero-padded. Zero padding keeps the order of
// shorter-first byte strings, so key(a) < key(b) implies a < b; equal keys
// fall back to the full comparison. wide: the count takes 32 bits (and the
// word's first four bytes follow), for LineOrder's occurrence keys.
inline uint64_t spec_order_key(uint32_t candidates, std::string_view word, bool wide = false) {
  const int count_bits = wide ? 32 : 16;
  const uint32_t most = wide ? UINT32_MAX : 0xffff;
  uint64_t k = static_cast<uint64_t>(candidates < most ? candidates : most) << (64 - count_bits);
  const size_t bytes = wide ? 4 : 6;
  for (size_t i = 0; i < bytes && i < word.size(); ++i)
    k |= static_cast<uint64_t>(static_cast<unsigned char>(word[i])) << (56 - count_bits - 8 * i);
  return k;
}

// Merges sorted runs into SPEC order, calling emit(line) for every line.
void merge_runs(const std::vector<std::string_view>& runs, const std::function<void(const LineView&)>& emit);

// --report (the occurrence TSV: word, occurrences, first location,
// candidates). The TSV's first line.
inline constexpr std::string_view kReportHeader = "word\toccurrences\tfirst_location\tcandidates\n";
// Ranked in context: each occurrence's best too (ranked_report.hpp).
inline constexpr std::string_view kReportHeaderInContext =
    "word\toccurrences\tfirst_location\tcandidates\tin_context\n";
// "occurrences<TAB>path:line:column" of misspelled word i, appended to x:
// resolved at the word's owner from the line marks (no input is read again).
void append_occurrences(std::string& x, const Judged& judged, const LineTable& lines, size_t i);
// One row of the TSV from a line whose extra holds "occurrences<TAB>
// location" (append_occurrences), then "<TAB>candidates" when
// candidates_in_extra (ranked lines); a SPEC line gives its candidates.
void append_report_row(std::string& tsv, const LineView& l, bool candidates_in_extra);

}  // namespace spellcheck
