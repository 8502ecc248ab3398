#include "spellcheck/input/line_marks.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace spellcheck {

uint64_t make_line_mark(uint64_t newlines_before, uint64_t from_line_start) {
  if (newlines_before > UINT32_MAX || from_line_start > UINT32_MAX)
    throw std::length_error("line marks: a work unit with more than 4 Gi lines or a line of more than 4 GiB");
  return newlines_before << 32 | from_line_start;
}

LineTable::LineTable(const InputPlan& plan, std::vector<LineUnit> units) : plan_(&plan), units_(std::move(units)) {
  std::sort(units_.begin(), units_.end(), [](const LineUnit& a, const LineUnit& b) {
    return a.file_index != b.file_index ? a.file_index < b.file_index : a.begin < b.begin;
  });
  const size_t n = units_.size();
  stream_begin_.resize(n);
  lines_before_.resize(n);
  line_start_.resize(n);
  uint64_t lines = 0, start = 0;
  for (size_t u = 0; u < n; ++u) {
    const LineUnit& x = units_[u];
    if (x.file_index >= plan.files.size()) throw std::runtime_error("line marks: unit of an unknown file");
    if (u == 0 || units_[u - 1].file_index != x.file_index) lines = start = 0;
    stream_begin_[u] = plan.offsets[x.file_index] + x.begin;
    lines_before_[u] = lines;
    line_start_[u] = start;
    lines += x.newlines;
    if (x.newlines > 0) start = x.last_line_start;
  }
}

Location LineTable::locate(uint64_t pos, uint64_t mark) const {
  const auto it = std::upper_bound(stream_begin_.begin(), stream_begin_.end(), pos);
  if (it == stream_begin_.begin()) throw std::out_of_range("line marks: position before every unit");
  const size_t u = static_cast<size_t>(it - stream_begin_.begin()) - 1;
  const LineUnit& x = units_[u];
  const uint64_t before = mark >> 32, from = mark & UINT32_MAX;
  Location loc;
  loc.path = plan_->files[x.file_index].path;
  loc.line = 1 + lines_before_[u] + before;
  // No newline before pos in its unit: its line began in an earlier one.
  // (From the mark, not pos: a compressed file's positions are clamped to
  // its span on disk, its marks count the decoded bytes.)
  loc.column = 1 + (before > 0 ? from : x.begin - line_start_[u] + from);
  return loc;
}

LineTable gather_line_table(const mpi::Comm& comm, const InputPlan& plan, std::span<const LineUnit> mine) {
  const mpi::Gathered all = mpi::gather_bytes(comm, serialize_line_units(mine));
  return LineTable(plan, deserialize_line_units(mpi::broadcast(comm, all.bytes)));
}

void append_location(std::string& out, const Location& loc) {
  out += loc.path;
  out += ':';
  out += std::to_string(loc.line);
  out += ':';
  out += std::to_string(loc.column);
}

std::string serialize_line_units(std::span<const LineUnit> units) {
  static_assert(sizeof(LineUnit) == 32);
  std::string s(units.size() * sizeof(LineUnit), '\0');
  if (!units.empty()) std::memcpy(s.data(), units.data(), s.size());
  return s;
}

std::vector<LineUnit> deserialize_line_units(std::string_view bytes) {
  if (bytes.size() % sizeof(LineUnit) != 0) throw std::runtime_error("line marks: malformed unit list");
  std::vector<LineUnit> units(bytes.size() / sizeof(LineUnit));
  if (!units.empty()) std::memcpy(units.data(), bytes.data(), bytes.size());
  return units;
}

}  // namespace spellcheck
