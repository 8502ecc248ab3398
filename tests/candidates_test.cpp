#include "spellcheck/candidates.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

using namespace spellcheck;

namespace {
// The SPEC definition, written the slow and obvious way.
std::set<std::string> naive_edits(const std::string& w) {
  std::set<std::string> out;
  for (size_t i = 0; i < w.size(); ++i) out.insert(w.substr(0, i) + w.substr(i + 1));
  for (size_t i = 0; i < w.size(); ++i)
    for (char c : kAlphabet)
      if (c != w[i]) {
        std::string s = w;
        s[i] = c;
        out.insert(s);
      }
  for (size_t i = 0; i <= w.size(); ++i)
    for (char c : kAlphabet) out.insert(w.substr(0, i) + c + w.substr(i));
  return out;
}
}  // namespace

TEST_CASE("candidates are exactly the distinct edit-1 strings, each once, hashed in key form") {
  Candidates c;
  for (std::string w : {"a", "Teh", "hello", "aaa", "book", "Apple", "x9", "don't", "caf\xc3\xa9", "AAbb", "1"}) {
    CAPTURE(w);
    c.generate(w);
    const auto want = naive_edits(w);
    std::multiset<std::string> got;
    std::vector<char> buf(w.size() + 1);
    for (size_t i = 0; i < c.size(); ++i) {
      const std::string s(c.spell(i, buf.data()));
      got.insert(s);
      CHECK(c.hash(i) == word_hash(s));
      CHECK(apply_edit(w, c.edit(i)) == s);
    }
    CHECK(got.size() == want.size());  // no string twice
    CHECK(std::set<std::string>(got.begin(), got.end()) == want);
  }
}

TEST_CASE("the generator reuses its buffers across words of different lengths") {
  Candidates c;
  c.generate("abcdefghijklmnopqrstuvwxyz");
  const size_t long_count = c.size();
  c.generate("ab");
  CHECK(c.size() < long_count);
  CHECK(c.size() == naive_edits("ab").size());
}

TEST_CASE("EditRef packs op, character and position") {
  const EditRef e = EditRef::make(EditOp::insertion, 61, 60000);
  CHECK(e.op() == EditOp::insertion);
  CHECK(e.ch() == 61);
  CHECK(e.pos() == 60000);
}
