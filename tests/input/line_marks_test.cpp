// Line marks: the locations of first occurrences, counted while tokenizing
// (any cut among ranks, any work-unit and buffer size, any thread count),
// equal resolve_locations, which reads the files again. Real files.
#include "spellcheck/input/line_marks.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/input/document_reader.hpp"

#include "temp_files.hpp"

using namespace spellcheck;
using spellcheck::testing::TempDir;
using spellcheck::testing::write;

namespace {

const std::string Q = "\xE2\x80\x99";  // U+2019: tokens handed over as normalised copies

// Many lines of every shape: CRLF, blank lines, words at line start and end,
// a line longer than the buffers, a file without a final newline, an empty
// file, a file of newlines only, a first line with no newline at all.
void make_lines(const std::filesystem::path& d) {
  std::mt19937 rng(7);
  std::string many;
  for (int i = 0; i < 400; ++i) {
    const int words = static_cast<int>(rng() % 6);
    for (int k = 0; k < words; ++k) {
      if (k) many += rng() % 3 ? " " : "  ";
      many += 'w';
      many += std::to_string(rng() % 97);
      if (rng() % 11 == 0) many += Q + "s";
    }
    many += rng() % 4 ? "\n" : "\r\n";
  }
  write(d / "a/many.txt", many);
  write(d / "a/nl-only.txt", std::string(50, '\n'));
  write(d / "b/empty.txt", "");
  write(d / "b/long-line.txt", "head\n" + std::string(3000, ' ') + "far " + std::string(500, 'x') + " after\nlast");
  write(d / "c/one-line.txt", "alpha beta gamma alpha w5 w6 " + Q + "quoted" + Q + " beta");
  write(d / "c/starts.txt", "\n\nw1\nw2 w1\n\n\nw96\r\n");
}

struct First {
  uint64_t pos = UINT64_MAX, mark = 0;
};

// Every cut's words with their marks, the earliest occurrence kept (as the
// owners do), and every unit.
void collect(const InputPlan& plan, const std::vector<uint64_t>& cuts, int threads, ReaderTuning tuning,
             std::map<std::string, First>& first, std::vector<LineUnit>& units) {
  tuning.line_marks = true;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const auto ranges = stream_ranges(plan, cuts[k], cuts[k + 1]);
    const LocalWords lw = collect_range_words(plan, ranges, 64, threads, {}, tuning);
    REQUIRE(lw.first_mark.size() == lw.words.size());
    for (size_t i = 0; i < lw.words.size(); ++i) {
      First& f = first[std::string(lw.words[i])];
      if (lw.first_pos[i] < f.pos) f = {lw.first_pos[i], lw.first_mark[i]};
    }
    units.insert(units.end(), lw.line_units.begin(), lw.line_units.end());
  }
}

void check_against_rereading(const InputPlan& plan, const std::vector<uint64_t>& cuts, int threads,
                             const ReaderTuning& tuning) {
  std::map<std::string, First> first;
  std::vector<LineUnit> units;
  collect(plan, cuts, threads, tuning, first, units);
  REQUIRE(!first.empty());
  // Through the wire format, as the ranks exchange them.
  const LineTable table(plan, deserialize_line_units(serialize_line_units(units)));
  std::vector<uint64_t> positions;
  for (const auto& [w, f] : first) positions.push_back(f.pos);
  const std::vector<Location> want = resolve_locations(plan, positions, 1);
  size_t i = 0;
  for (const auto& entry : first) {
    CAPTURE(entry.first);  // not a structured binding: clang 14 cannot capture one
    REQUIRE(table.locate(entry.second.pos, entry.second.mark) == want[i]);
    ++i;
  }
}

}  // namespace

TEST_CASE("one reader: locations equal the re-reading ones") {
  TempDir t;
  make_lines(t.path);
  const InputPlan plan = make_input_plan(std::vector<std::string>{t.str()});
  check_against_rereading(plan, {0, plan.total_bytes()}, 1, {});
  for (int threads = 1; threads <= 3; ++threads) {
    CAPTURE(threads);
    check_against_rereading(plan, {0, plan.total_bytes()}, threads, ReaderTuning{5, 64});
    check_against_rereading(plan, {0, plan.total_bytes()}, threads, ReaderTuning{97, 40, 0});  // partitioned merge
  }
}

TEST_CASE("random cuts among 2-4 ranks, tiny units and buffers") {
  TempDir t;
  make_lines(t.path);
  const InputPlan plan = make_input_plan(std::vector<std::string>{t.str()});
  const uint64_t total = plan.total_bytes();
  std::mt19937_64 rng(11);
  for (int it = 0; it < 40; ++it) {
    CAPTURE(it);
    const int p = 2 + it % 3;
    std::vector<uint64_t> cuts{0, total};
    for (int k = 1; k < p; ++k) cuts.push_back(rng() % (total + 1));
    std::sort(cuts.begin(), cuts.end());
    const ReaderTuning tuning{static_cast<size_t>(rng() % 300), rng() % 2 ? size_t{48} : size_t{1} << 16,
                              rng() % 2 ? size_t{0} : size_t{1} << 18};
    check_against_rereading(plan, cuts, 1 + it % 2, tuning);
  }
}

TEST_CASE("units: newline totals per file, none without marks") {
  TempDir t;
  make_lines(t.path);
  const InputPlan plan = make_input_plan(std::vector<std::string>{t.str()});
  std::map<std::string, First> first;
  std::vector<LineUnit> units;
  collect(plan, {0, plan.total_bytes() / 3, plan.total_bytes()}, 2, ReaderTuning{31, 64}, first, units);
  std::vector<uint64_t> per_file(plan.files.size(), 0);
  for (const LineUnit& u : units) per_file[u.file_index] += u.newlines;
  for (size_t f = 0; f < plan.files.size(); ++f) {
    std::ifstream in(plan.files[f].path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(per_file[f] == static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n')));
  }
  const LocalWords plain = collect_document_words(plan, 0, 1, 64, 2);
  CHECK(plain.first_mark.empty());
  CHECK(plain.line_units.empty());
}

TEST_CASE("marks: packing and the wire format") {
  CHECK(make_line_mark(3, 17) == (uint64_t{3} << 32 | 17));
  CHECK_THROWS_AS(make_line_mark(uint64_t{1} << 32, 0), std::length_error);
  CHECK_THROWS_AS(make_line_mark(0, uint64_t{1} << 32), std::length_error);
  CHECK_THROWS(deserialize_line_units("abc"));
  CHECK(deserialize_line_units(serialize_line_units({})).empty());
}

TEST_CASE("a compressed file: positions clamped to its span, lines and columns from the marks") {
  InputPlan plan;
  InputFile gz, txt;
  gz.path = "a.gz";
  gz.size = 10;
  txt.path = "b.txt";
  txt.size = 5;
  plan.files.push_back(gz);
  plan.files.push_back(txt);
  finish_input_plan(plan);
  const LineTable table(plan, {{0, 0, 40, 900}, {1, 0, 0, 0}});
  // Decoded, the word is on line 1 at byte 501 (or line 3, byte 8): its
  // position says only "somewhere in a.gz".
  CHECK(table.locate(9, make_line_mark(0, 500)) == Location{"a.gz", 1, 501});
  CHECK(table.locate(9, make_line_mark(2, 7)) == Location{"a.gz", 3, 8});
  CHECK(table.locate(12, make_line_mark(0, 2)) == Location{"b.txt", 1, 3});
}
