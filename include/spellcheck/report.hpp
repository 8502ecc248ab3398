#pragma once
// The report: each rank turns its hits into SPEC lines (candidates
// regenerated from their edits, sorted byte-wise), rank 0 gathers and orders
// all lines (by candidate count, then word) and writes them once.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spellcheck/lookup_service.hpp"
#include "spellcheck/mpi.hpp"
#include "spellcheck/word_list.hpp"

namespace spellcheck {

// One SPEC line with its sort key.
struct ReportLine {
  uint32_t candidates = 0;
  std::string word;
  std::string line;  // "word:  c1 c2\n"
  uint32_t index = 0;  // the word's index on the rank that made the line
};

// Local: the lines of this rank's misspelled words, in SPEC order.
std::vector<ReportLine> make_lines(const WordList& misspelled, std::vector<Slot> hits);

// SPEC order: fewer candidates first, then the word byte-wise.
bool spec_order(const ReportLine& a, const ReportLine& b);

// A line as received at rank 0: views into the gathered bytes (no copy per
// line: half a million lines would cost as many allocations).
struct LineView {
  uint32_t candidates = 0;
  std::string_view word, line, extra;
};
struct GatheredLines {
  std::vector<std::string> parts;  // the bytes each rank sent
  std::vector<LineView> lines;     // SPEC order
};

// Collective: every rank's lines at rank 0, in SPEC order (empty elsewhere).
// `extra` (one string per line, same order as `lines`) travels along; it is
// how the document report carries counts and locations.
GatheredLines gather_lines(const mpi::Comm& comm, const std::vector<ReportLine>& lines,
                           const std::vector<std::string>& extra);

// Where the output goes: a file written through FILE.tmp.<pid> and renamed
// into place on commit (removed if never committed), or stdout.
class OutputFile {
 public:
  // Empty path: stdout. Creates the temporary file now, so that an
  // unwritable destination fails before any work (throws InputError).
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  void write(std::string_view bytes);
  void commit();

 private:
  std::string path_, tmp_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace spellcheck
