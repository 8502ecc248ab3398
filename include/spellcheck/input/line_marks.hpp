#pragma once
// Locations for --report without reading the input twice. While a work unit
// is tokenized, its newlines are counted: the unit's total (a LineUnit), and
// for each word's first occurrence a mark, its line and column within the
// unit. The units of all ranks (a few per file and thread, small) are
// gathered everywhere; prefix sums over them in plan order give each unit's
// first line, so the rank that owns a word turns (position, mark) into
// file:line:column on its own.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/input/input_plan.hpp"

namespace spellcheck {

struct Location {
  std::string path;
  uint64_t line = 0;    // 1-based
  uint64_t column = 0;  // 1-based, in bytes
  friend bool operator==(const Location&, const Location&) = default;
};

// The bytes a work unit owns, [begin, next unit's begin) of one file, and
// its newlines.
struct LineUnit {
  uint64_t file_index = 0;
  uint64_t begin = 0;            // file offset
  uint64_t newlines = 0;         // '\n' bytes in the unit
  uint64_t last_line_start = 0;  // file offset just past its last '\n' (0: none)
};

// A position's place in its unit: the newlines before it in the unit (high
// 32 bits) and its distance from the start of its line, or from the unit's
// start when no newline precedes it there (low 32 bits). Units are at most
// a few MB and end at the first separator after their cut, so both fit;
// make_line_mark throws std::length_error if not.
uint64_t make_line_mark(uint64_t newlines_before, uint64_t from_line_start);

// Every unit of the collection, ordered, with prefix sums per file.
class LineTable {
 public:
  LineTable() = default;
  // units: all ranks' units, any order (each owned range once).
  LineTable(const InputPlan& plan, std::vector<LineUnit> units);
  // The location of stream position pos whose reader marked it `mark`.
  Location locate(uint64_t pos, uint64_t mark) const;
  size_t units() const { return units_.size(); }

 private:
  const InputPlan* plan_ = nullptr;
  std::vector<LineUnit> units_;         // by (file, begin)
  std::vector<uint64_t> stream_begin_;  // units_[u] starts at this stream position
  std::vector<uint64_t> lines_before_;  // newlines in the file before units_[u]
  std::vector<uint64_t> line_start_;    // file offset where the line open at units_[u]'s start began
};

// Collective: every rank's units, gathered and broadcast, as one table.
LineTable gather_line_table(const mpi::Comm& comm, const InputPlan& plan, std::span<const LineUnit> mine);

// Appends "path:line:column" (the --report TSV's first_location).
void append_location(std::string& out, const Location& loc);

// Wire format of a rank's units (fixed 32-byte records).
std::string serialize_line_units(std::span<const LineUnit> units);
std::vector<LineUnit> deserialize_line_units(std::string_view bytes);

}  // namespace spellcheck
