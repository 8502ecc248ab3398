// WordList: packed words, appended and re-indexed.
#include "spellcheck/common/word_list.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace spellcheck;

namespace {
std::vector<std::string> all(const WordList& w) {
  std::vector<std::string> out;
  for (size_t i = 0; i < w.size(); ++i) out.emplace_back(w[i]);
  return out;
}
WordList of(const std::vector<std::string>& words) {
  WordList w;
  for (const auto& s : words) w.push_back(s);
  return w;
}
}  // namespace

TEST_CASE("append: the words of the second list after the first, empty lists and empty words too") {
  WordList a = of({"alpha", "", "b"});
  a.append(of({"c", "", "delta"}));
  CHECK(all(a) == std::vector<std::string>{"alpha", "", "b", "c", "", "delta"});
  CHECK(a.bytes == "alpha\n\nb\nc\n\ndelta\n");
  WordList e;
  e.append(of({"x", "y"}));
  CHECK(all(e) == std::vector<std::string>{"x", "y"});
  e.append(WordList());
  CHECK(all(e) == std::vector<std::string>{"x", "y"});
  // The appended list is what index() rebuilds from the bytes.
  WordList again;
  again.bytes = a.bytes;
  again.index();
  CHECK(again.starts == a.starts);
}
