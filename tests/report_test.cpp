#include "spellcheck/report.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "spellcheck/candidates.hpp"
#include "spellcheck/errors.hpp"

using namespace spellcheck;

namespace {
EditRef sub(char c, uint32_t pos) {
  return EditRef::make(EditOp::substitution, static_cast<uint32_t>(kAlphabet.find(c)), pos);
}
}  // namespace

TEST_CASE("SPEC lines: sorted candidates, lines by count then word byte-wise") {
  WordList words;
  words.push_back("stap");  // 0
  words.push_back("qzxw");  // 1
  words.push_back("ab");    // 2
  words.push_back("ab0");   // 3
  std::vector<Slot> hits = {{0, sub('e', 2)}, {0, sub('o', 2)}, {0, EditRef::make(EditOp::deletion, 0, 1)},
                            {2, sub('c', 1)}, {3, sub('c', 2)}};
  const auto lines = make_lines(words, hits);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].line == "qzxw: \n");
  CHECK(lines[1].line == "ab:  ac\n");  // "ab" < "ab0" although "ab:" > "ab0:"
  CHECK(lines[2].line == "ab0:  abc\n");
  CHECK(lines[3].line == "stap:  sap step stop\n");
}

TEST_CASE("the output file appears only on commit") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("spellcheck-report-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "out.txt").string();
  {
    OutputFile f(path);
    f.write("half");
  }  // never committed
  CHECK_FALSE(fs::exists(path));
  CHECK(fs::is_empty(dir));
  {
    OutputFile f(path);
    f.write("whole\n");
    f.commit();
  }
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == "whole\n");
  CHECK_THROWS_AS(OutputFile((dir / "no-such-dir" / "x").string()), InputError);
  fs::remove_all(dir);
}
