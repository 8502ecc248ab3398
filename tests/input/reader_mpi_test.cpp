// Every line of a file is read by exactly one rank, whatever p and however
// the lines fall on share boundaries.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/input/reader.hpp"

using namespace spellcheck;

namespace {
std::string temp_file(const mpi::Comm& comm, const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / "spellcheck-reader-mpi";
  std::string path;
  if (comm.rank() == 0) {
    std::filesystem::create_directories(dir);
    path = (dir / (name + "." + std::to_string(::getpid()))).string();
    std::ofstream(path, std::ios::binary) << content;
  }
  path = mpi::broadcast(comm, path);
  mpi::barrier(comm);
  return path;
}

// All ranks' chunks, concatenated in rank order, at every rank.
std::string all_chunks(const mpi::Comm& comm, const std::string& path) {
  const TextChunk c = read_line_share(comm, path);
  const auto parts = mpi::gather(comm, c.bytes);
  std::string joined;
  for (const auto& p : parts) joined += p;
  return mpi::broadcast(comm, joined);
}
}  // namespace

TEST_CASE("shares snap to line ends: every byte read once") {
  mpi::Comm comm;
  const std::vector<std::pair<std::string, std::string>> files = {
      {"plain", "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n"},
      {"no-final-newline", "one\ntwo\nthree"},
      {"crlf", "one\r\ntwo\r\nthree\r\n"},
      {"fewer-lines-than-ranks", "x\n"},
      {"one-huge-line", std::string(100000, 'a') + "\nb\n"},
      {"huge-last-line", "a\n" + std::string(300000, 'z')},
      {"blank-lines", "\n\n\n\n\n\na\n\n"},
      {"empty", ""}};
  for (const auto& file : files) {
    const std::string& name = file.first;  // not a structured binding: clang 14 cannot capture one
    const std::string& content = file.second;
    CAPTURE(name);
    const std::string path = temp_file(comm, name, content);
    const std::string got = all_chunks(comm, path);
    CHECK(got == content);
    mpi::barrier(comm);
    if (comm.rank() == 0) std::filesystem::remove(path);
  }
}
