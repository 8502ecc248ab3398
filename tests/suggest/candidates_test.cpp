#include "spellcheck/suggest/candidates.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "sanitized.hpp"

using namespace spellcheck;
using spellcheck::testing::kSweepStride;

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

namespace {
// SPEC's case rule over a small dictionary, the obvious way.
bool in_dict(const std::vector<std::string>& dict, const std::string& w) {
  for (const auto& e : dict)
    if (w == e || (w[0] >= 'A' && w[0] <= 'Z' && static_cast<char>(w[0] + 32) + w.substr(1) == e)) return true;
  return false;
}

// Every dictionary word at edit distance one from w must survive the
// prefilters given; returns how many candidates survived.
size_t check_no_false_negative(const std::vector<std::string>& dict, const std::string& w, const TrigramFilter* tri,
                               const AffixFilter* affix) {
  CAPTURE(w);
  Candidates with, without;
  with.generate(w, tri, affix);
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
    if (in_dict(dict, s)) CHECK(kept.count(s) == 1);
  return with.size();
}

AffixFilter affixes_of(const std::vector<std::string>& dict, double bits_per_key = AffixFilter::kDefaultBitsPerKey) {
  AffixFilter f(dict.size(), bits_per_key);
  for (std::string e : dict) {
    e[0] = ascii_lower(e[0]);
    f.add_key(e);
  }
  return f;
}
}  // namespace

TEST_CASE("the trigram and affix filters drop no candidate that is in the dictionary") {
  // Entries of several shapes, the case rule included.
  const std::vector<std::string> dict = {"apple", "apples", "Apple",       "the", "then", "Boston", "x", "ab",
                                         "a1b",   "don't",  "caf\xc3\xa9", "Teh", "IBM",  "zz",     "q"};
  TrigramFilter tri;
  for (const auto& e : dict) tri.add_entry(e);
  const AffixFilter affix = affixes_of(dict);
  for (std::string w : {"aple", "appel", "Aple",   "teh",         "Tteh",    "Bostn", "xx",    "a",     "b",
                        "ab1",  "dont",  "don''t", "caf\xc3\xa8", "Ibm",     "IBMM",  "z",     "qq",    "zzz",
                        "Q",    "thne",  "tehn",   "Xapple",      "applesX", "pple",  "Ppple", "oston", "BBoston"}) {
    check_no_false_negative(dict, w, &tri, nullptr);
    check_no_false_negative(dict, w, nullptr, &affix);
    check_no_false_negative(dict, w, &tri, &affix);
  }
}

TEST_CASE("random dictionaries: the prefilters keep every correct candidate, and the affix filter prunes") {
  // A small alphabet makes near-misses common, so the windows are tested at
  // every position; a tiny affix filter (1 bit per key) makes false
  // positives common too, which must only widen windows.
  uint64_t state = 88172645463325252ULL;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string letters = "abcAB1'";
  auto random_word = [&](size_t max_len) {
    std::string w(1 + next() % max_len, 'a');
    for (auto& c : w) c = letters[next() % letters.size()];
    return w;
  };
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> dict;
    for (int i = 0; i < 40; ++i) dict.push_back(random_word(7));
    TrigramFilter tri;
    for (const auto& e : dict) tri.add_entry(e);
    const AffixFilter exact = affixes_of(dict, 4096);
    const AffixFilter lossy = affixes_of(dict, 1);
    size_t plain = 0, pruned = 0;
    for (size_t i = 0; i < 60 / kSweepStride; ++i) {
      std::string w = dict[next() % dict.size()];
      // One or two random edits of an entry: near-misses of all kinds.
      for (int k = 0; k < 1 + static_cast<int>(next() % 2); ++k) {
        const size_t at = next() % (w.size() + 1);
        const char c = letters[next() % letters.size()];
        switch (next() % 3) {
          case 0:
            if (at < w.size() && w.size() > 1) w.erase(at, 1);
            break;
          case 1:
            if (at < w.size()) w[at] = c;
            break;
          default: w.insert(at, 1, c);
        }
      }
      plain += check_no_false_negative(dict, w, nullptr, nullptr);
      pruned += check_no_false_negative(dict, w, &tri, &exact);
      check_no_false_negative(dict, w, nullptr, &lossy);
    }
    CHECK(pruned < plain);
  }
}

TEST_CASE("the affix filter bounds edits to a window around the typo") {
  const std::vector<std::string> dict = {"sap", "snap", "stab", "step", "stop", "strap", "tap", "Boston"};
  const AffixFilter affix = affixes_of(dict, 4096);
  // "stap": "sta" starts entries, "stap" none; "ap" ends "sap" after its
  // first byte, "tap" ends no entry there (it is one, whole).
  CHECK(affix.prefix_reach("stap") == 3);
  CHECK(affix.suffix_reach("stap") == 2);
  CHECK(affix.prefix_reach("Bostn") == 4);  // the first byte is lowered, as in keys
  CHECK(affix.suffix_reach("Bostn") == 4);  // "n" ends "boston", "tn" nothing
  CHECK(affix.prefix_reach("xyz") == 0);
  CHECK(affix.suffix_reach("xyz") == 3);
  // A token nowhere near a word keeps no candidate at all.
  Candidates c;
  c.generate("qxqxqxqx", nullptr, &affix);
  CHECK(c.size() == 0);
  CHECK(c.generated() > 0);
  c.generate("stap", nullptr, &affix);
  CHECK(c.size() > 0);
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
