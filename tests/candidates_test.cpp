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
  // The empty string is never an entry, so it is not generated.
  for (size_t i = 0; i < w.size(); ++i)
    if (w.size() > 1) out.insert(w.substr(0, i) + w.substr(i + 1));
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

TEST_CASE("the trigram filter drops no candidate that is in the dictionary") {
  // Entries of several shapes, the case rule included.
  const std::vector<std::string> dict = {"apple", "apples", "Apple", "the", "then", "Boston", "x",  "ab",
                                         "a1b",   "don't",  "caf\xc3\xa9", "Teh", "IBM", "zz", "q"};
  TrigramFilter tri;
  for (const auto& e : dict) tri.add_entry(e);
  auto correct = [&](const std::string& w) {
    for (const auto& e : dict)
      if (w == e || (w[0] >= 'A' && w[0] <= 'Z' && static_cast<char>(w[0] + 32) + w.substr(1) == e)) return true;
    return false;
  };
  Candidates with, without;
  for (std::string w : {"aple", "appel", "Aple", "teh", "Tteh", "Bostn", "xx", "a", "b", "ab1", "dont", "don''t",
                        "caf\xc3\xa8", "Ibm", "IBMM", "z", "qq", "zzz", "Q", "thne", "tehn"}) {
    CAPTURE(w);
    with.generate(w, &tri);
    without.generate(w);
    CHECK(with.generated() == without.generated());
    CHECK(with.size() <= without.size());
    std::set<std::string> kept;
    std::vector<char> buf(w.size() + 1);
    for (size_t i = 0; i < with.size(); ++i) {
      const std::string s(with.spell(i, buf.data()));
      kept.insert(s);
      CHECK(with.hash(i) == word_hash(s));
    }
    for (const auto& s : naive_edits(w))
      if (correct(s)) CHECK(kept.count(s) == 1);
  }
}

TEST_CASE("the trigram filter knows an entry's triples and its capitalised form's") {
  TrigramFilter tri;
  tri.add_entry("apple");
  CHECK(tri.may_contain("apple"));
  CHECK(tri.may_contain("Apple"));
  CHECK_FALSE(tri.may_contain("appla"));
  CHECK_FALSE(tri.may_contain("pple"));  // starts differently
  CHECK(tri.density() > 0.0);
}
