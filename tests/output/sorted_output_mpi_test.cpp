// Output without a gather: sort_runs gives every rank a slice of the global
// SPEC order (the slices in rank order are exactly the sorted union of the
// runs, whatever the sampling and with empty runs), and write_slices puts
// them into a file (collective MPI-IO into the temporary file) or streams
// them through rank 0, in chunks down to one byte.
#include "spellcheck/output/sorted_output.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace spellcheck;

namespace {

struct Line {
  uint32_t candidates;
  std::string word;
  bool operator<(const Line& o) const { return candidates != o.candidates ? candidates < o.candidates : word < o.word; }
};

// Words owned by one rank each (as the owners make them): word i belongs to
// rank i % p. Some ranks get none.
std::vector<Line> lines_of(int rank, int p, size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Line> all;
  for (size_t i = 0; i < n; ++i) {
    std::string w;
    for (int k = 0, len = 1 + static_cast<int>(rng() % 9); k < len; ++k) w += static_cast<char>('a' + rng() % 3);
    w += std::to_string(i);
    all.push_back({static_cast<uint32_t>(rng() % 4), w});
  }
  std::vector<Line> mine;
  for (size_t i = 0; i < n; ++i)
    if (static_cast<int>(i % static_cast<size_t>(p)) == rank && !(rank == 1 && p > 2)) mine.push_back(all[i]);
  std::sort(mine.begin(), mine.end());
  return mine;
}

std::string text_of(const Line& l) { return l.word + ": " + std::string(l.candidates, 'x') + "\n"; }

std::string run_of(const std::vector<Line>& lines) {
  std::string run;
  for (const Line& l : lines)
    append_run_line(run, l.candidates, l.word, text_of(l), std::string(1, 'x').append(l.word));
  return run;
}

// Every rank's lines, sorted: the expected output (rank 1 has none on 3+ ranks).
std::string expected(int p, size_t n, unsigned seed) {
  std::vector<Line> all;
  for (int r = 0; r < p; ++r) {
    auto part = lines_of(r, p, n, seed);
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  std::string s;
  for (const Line& l : all) s += text_of(l);
  return s;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("sort_runs: the slices in rank order are the global order, for any sampling") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  for (size_t samples : {size_t{1}, size_t{3}, size_t{64}}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{700}}) {
      CAPTURE(samples);
      CAPTURE(n);
      std::string slice;
      bool extras_ok = true;
      sort_runs(
          comm, run_of(lines_of(me, p, n, 3)),
          [&](const LineView& l) {
            slice.append(l.line);
            extras_ok =
                extras_ok && l.extra.size() == l.word.size() + 1 && l.extra[0] == 'x' && l.extra.substr(1) == l.word;
          },
          samples);
      CHECK(extras_ok);
      const mpi::Gathered all = mpi::gather_bytes(comm, slice);
      if (me == 0) CHECK(all.bytes == expected(p, n, 3));
    }
  }
}

TEST_CASE("sort_runs: every rank gets about its share of the bytes, however line lengths go with the order") {
  // Lines with 3 candidates (a quarter, together at one end of the order)
  // are 40 times as long as the others: a split by line count would give
  // one rank most of the text to write.
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  if (p == 1) return;
  const size_t n = 4000;
  std::string run, total;
  size_t all_bytes = 0;
  std::vector<Line> lines = lines_of(me, p, n, 5);
  for (const Line& l : lines)
    append_run_line(run, l.candidates, l.word, l.word + ": " + std::string(l.candidates == 3 ? 400 : 10, 'x') + "\n",
                    {});
  for (int r = 0; r < p; ++r)
    for (const Line& l : lines_of(r, p, n, 5)) all_bytes += l.word.size() + 3 + (l.candidates == 3 ? 400 : 10);
  size_t mine = 0;
  sort_runs(
      comm, run, [&](const LineView& l) { mine += l.line.size(); }, 64);
  CAPTURE(me);
  CAPTURE(mine);
  CAPTURE(all_bytes);
  CHECK(mine <= 3 * all_bytes / (2 * static_cast<size_t>(p)));
}

TEST_CASE("sample_count: the asked samples up to 256 ranks, then a budget of 16,384 keys, at least 16 a rank") {
  for (const int p : {1, 2, 3, 64, 255, 256}) CHECK(sample_count(p, 64) == 64);
  CHECK(sample_count(4, 3) == 3);
  CHECK(sample_count(512, 64) == 32);
  CHECK(sample_count(1024, 64) == 16);
  CHECK(sample_count(8192, 64) == 16);
  CHECK(sample_count(0, 64) == 64);
}

TEST_CASE("write_slices: into a file (every rank at its offset) and streamed through rank 0") {
  // Chunks of 3 bytes: many messages and write rounds (read once, here first).
  ::setenv("SPELLCHECK_MAX_MESSAGE_BYTES", "3", 1);
  REQUIRE(output_chunk_bytes() == 3);
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  const std::string slice =
      std::string(static_cast<size_t>(me) * 37 + (me == 1 ? 0 : 5), static_cast<char>('a' + me)) + "\n";
  std::string want;
  for (int r = 0; r < p; ++r)
    want += std::string(static_cast<size_t>(r) * 37 + (r == 1 ? 0 : 5), static_cast<char>('a' + r)) + "\n";
  // One path for all ranks: rank 0's temp directory name, broadcast.
  std::string dir;
  if (me == 0) {
    char tmpl[] = "/tmp/sorted-output-test-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    dir = tmpl;
  }
  dir = mpi::broadcast(comm, dir);
  const std::string path = dir + "/out.txt";
  // Named from the start, and unnamed until write_slices names it.
  for (bool unnamed : {false, true}) {
    CAPTURE(unnamed);
    std::remove(path.c_str());
    std::unique_ptr<OutputFile> out;
    if (me == 0) out = std::make_unique<OutputFile>(path, unnamed);
    const RemovalOnSignal removal = write_slices(comm, slice, out.get());
    // The other ranks hold the temporary's name for removal until the
    // commit; rank 0's OutputFile holds its own.
    CHECK(removal.active() == (me != 0));
    if (me == 0) {
      CHECK(out->kind() == (p > 1 || !unnamed ? OutputFile::Kind::named : OutputFile::Kind::unnamed));
      out->commit();
      CHECK(slurp(path) == want);
    }
    mpi::barrier(comm);
  }
  // Streamed: a FIFO would need a reader; a /proc path is written directly.
  mpi::barrier(comm);
  if (me == 0) {
    std::ofstream(dir + "/direct.txt").flush();
  }
  mpi::barrier(comm);
  {
    std::unique_ptr<OutputFile> out;
    if (me == 0) {
      const int fd = ::open((dir + "/direct.txt").c_str(), O_WRONLY | O_TRUNC);
      REQUIRE(fd >= 0);
      std::string proc = "/proc/self/fd/";
      proc += std::to_string(fd);
      out = std::make_unique<OutputFile>(proc);
      CHECK(out->kind() != OutputFile::Kind::named);
      CHECK(!write_slices(comm, slice, out.get()).active());
      out->commit();
      ::close(fd);
      CHECK(slurp(dir + "/direct.txt") == want);
    } else {
      CHECK(!write_slices(comm, slice, nullptr).active());
    }
  }
  mpi::barrier(comm);
  if (me == 0) {
    std::remove(path.c_str());
    std::remove((dir + "/direct.txt").c_str());
    ::rmdir(dir.c_str());
  }
}
