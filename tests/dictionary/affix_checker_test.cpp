// The hunspell checker (dictionary/affix_checker.hpp) against hunspell
// itself (libhunspell, Debian's 1.7) on small random dictionaries: random
// prefixes and suffixes (strips, appends, conditions, cross products,
// continuation classes), random flags on random stems, and the options
// that change what is accepted (NEEDAFFIX, CIRCUMFIX, ONLYINCOMPOUND,
// FORBIDDENWORD, KEEPCASE, compounding, FULLSTRIP). Every string over the
// stems' letters up to six letters (and some in capitals) is checked:
//   - the checker over the whole table of roots says what hunspell says;
//   - the checker over the neighbourhoods the expansion builds (each key's
//     roots only, affix_forms.hpp) says the same: the expansion is complete;
//   - every word accepted without compounding is one of the expanded forms.
#include <doctest/doctest.h>
#include <unistd.h>
#include <hunspell/hunspell.hxx>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sanitized.hpp"
#include "spellcheck/dictionary/affix_checker.hpp"
#include "spellcheck/dictionary/affix_forms.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/root_neighbourhoods.hpp"
#include "spellcheck/dictionary/stem_table.hpp"

using namespace spellcheck;
using spellcheck::testing::kSweepStride;

namespace {

struct Generated {
  std::string aff, dic;
};

// A random dictionary over the letters a, b, c (and their capitals).
Generated random_dictionary(uint32_t seed) {
  std::mt19937 rng(seed);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const auto letters = [&](int lo, int hi) {
    std::string s;
    const int n = lo + pick(hi - lo + 1);
    for (int i = 0; i < n; ++i) s += static_cast<char>('a' + pick(3));
    return s;
  };
  const std::string cont_pool = "STUPQNXO";
  const auto cont = [&] {
    if (pick(3) != 0) return std::string();
    std::string c = "/";
    for (int i = 0, n = 1 + pick(2); i < n; ++i)
      c += cont_pool[static_cast<size_t>(pick(static_cast<int>(cont_pool.size())))];
    return c;
  };
  const auto condition = [&] {
    switch (pick(5)) {
      case 0: return std::string(1, static_cast<char>('a' + pick(3)));
      case 1: return std::string("[ab]");
      case 2: return std::string("[^c]");
      case 3: return std::string(1, static_cast<char>('a' + pick(3))) + "[bc]";
      default: return std::string(".");
    }
  };
  Generated g;
  g.aff = "SET UTF-8\nTRY abc\n";
  if (pick(2)) g.aff += "NEEDAFFIX N\n";
  if (pick(2)) g.aff += "CIRCUMFIX X\n";
  if (pick(3) == 0) g.aff += "ONLYINCOMPOUND O\n";
  if (pick(2)) g.aff += "FORBIDDENWORD F\n";
  if (pick(2)) g.aff += "KEEPCASE K\n";
  if (pick(4) == 0) g.aff += "FULLSTRIP\n";
  if (pick(8) == 0) g.aff += "COMPLEXPREFIXES\n";
  if (pick(8) == 0) g.aff += "ICONV 1\nICONV cc b\n";
  if (pick(10) == 0) g.aff += "IGNORE c\n";
  const bool compound = pick(3) == 0;
  if (compound) {
    g.aff += "COMPOUNDMIN 1\n";
    g.aff += pick(2) ? "COMPOUNDFLAG C\n" : "COMPOUNDBEGIN B\nCOMPOUNDEND E\n";
    if (pick(2)) g.aff += "CHECKCOMPOUNDDUP\n";
    if (pick(3) == 0) g.aff += "COMPOUNDPERMITFLAG P\n";
    if (pick(4) == 0) g.aff += "CHECKCOMPOUNDTRIPLE\n";
    if (pick(4) == 0) g.aff += "SIMPLIFIEDTRIPLE\n";
    if (pick(4) == 0) g.aff += "COMPOUNDRULE 2\nCOMPOUNDRULE SN*T\nCOMPOUNDRULE (U)(P)?\n";
    if (pick(5) == 0) g.aff += "CHECKCOMPOUNDPATTERN 1\nCHECKCOMPOUNDPATTERN a b\n";
    if (pick(5) == 0) g.aff += "COMPOUNDWORDMAX 2\n";
  }
  for (const char* cls : {"PFX P", "PFX Q", "SFX S", "SFX T", "SFX U"}) {
    const int n = 1 + pick(3);
    g.aff += std::string(cls) + (pick(3) ? " Y " : " N ") + std::to_string(n) + "\n";
    for (int i = 0; i < n; ++i) {
      const std::string strip = pick(3) == 0 ? letters(1, 1) : "0";
      std::string append = letters(0, 2);
      if (append.empty()) append = "0";
      g.aff += std::string(cls) + " " + strip + " " + append + cont() + " " + condition() + "\n";
    }
  }
  const std::string flag_pool = "PQSTUNXOFKCBE";
  const int stems = 3 + pick(4);
  g.dic = std::to_string(stems) + "\n";
  for (int i = 0; i < stems; ++i) {
    std::string w = letters(1, 4);
    if (pick(6) == 0) w[0] = static_cast<char>(w[0] - 32);  // a capitalised stem
    std::string flags;
    for (char f : flag_pool)
      if (pick(4) == 0) flags += f;
    g.dic += w + (flags.empty() ? "" : "/" + flags) + "\n";
  }
  return g;
}

// Every string over a, b, c up to n letters, some capitalised or in capitals.
std::vector<std::string> all_words(size_t n) {
  std::vector<std::string> out, level = {""};
  for (size_t len = 1; len <= n; ++len) {
    std::vector<std::string> next;
    for (const std::string& w : level)
      for (char c : std::string("abc")) next.push_back(w + c);
    out.insert(out.end(), next.begin(), next.end());
    level = std::move(next);
  }
  const size_t plain = out.size();
  for (size_t i = 0; i < plain; i += 7) {
    std::string title = out[i], caps = out[i];
    title[0] = static_cast<char>(title[0] - 32);
    for (char& c : caps) c = static_cast<char>(c - 32);
    out.push_back(title);
    out.push_back(caps);
  }
  return out;
}

struct TempFiles {
  std::string dir;
  TempFiles() {
    char tmpl[] = "/tmp/affix_checker_test.XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~TempFiles() {
    std::remove((dir + "/t.aff").c_str());
    std::remove((dir + "/t.dic").c_str());
    rmdir(dir.c_str());
  }
};

// SPELLCHECK_AFFIX_SEEDS="first count" explores further (bench runs); the
// test's own 200 seeds take a few seconds.
uint32_t seed_setting(int which, uint32_t fallback) {
  const char* s = std::getenv("SPELLCHECK_AFFIX_SEEDS");
  unsigned first = 0, count = 0;
  if (!s || std::sscanf(s, "%u %u", &first, &count) != 2) return fallback;
  return which == 0 ? first : count;
}
uint32_t first_seed() { return seed_setting(0, 1); }
uint32_t seed_count() { return seed_setting(1, 200); }

}  // namespace

TEST_CASE("random dictionaries: the checker, over roots or neighbourhoods, says what hunspell says") {
  const std::vector<std::string> words = all_words(6);
  size_t checked = 0, accepted = 0;
  for (uint32_t seed = first_seed(); seed < first_seed() + seed_count(); ++seed) {
    const Generated g = random_dictionary(seed);
    TempFiles t;
    std::ofstream(t.dir + "/t.aff") << g.aff;
    std::ofstream(t.dir + "/t.dic") << g.dic;
    auto d = load_local_dictionary(t.dir + "/t.dic");
    const LetterCase cases(d->rules.lang);
    const AffixChecker checker(d->rules, cases);
    Hunspell oracle((t.dir + "/t.aff").c_str(), (t.dir + "/t.dic").c_str());

    // The neighbourhoods, from the expansion.
    std::vector<StemEntry> entries = d->stems.entries();
    const AffixesByFlag by_flag(d->rules);
    std::vector<KeyedEntry> pairs;
    std::set<std::string> forms;
    std::vector<std::string> f;
    for (uint32_t i = 0; i < entries.size(); ++i) {
      expand_forms(d->rules, by_flag, entries[i], f);
      for (const std::string& form : f) {
        pairs.push_back(KeyedEntry{neighbourhood_key(cases, form), i});
        forms.insert(form);
      }
    }
    RootNeighbourhoods nb;
    nb.build(std::move(entries), std::move(pairs));
    BloomFilter filter(1, BloomFilter::blocks_for(nb.keys() + 1, 12));
    for (uint64_t k : nb.key_list()) filter.insert_unshared(k, 0);
    NeighbourhoodSource source(cases, nb, nullptr, filter, 0, 1);

    // (Under a sanitizer every kSweepStride-th word, from an offset that
    // moves with the seed.)
    for (size_t k = seed % kSweepStride; k < words.size(); k += kSweepStride) {
      const std::string& w = words[k];
      const bool expected = oracle.spell(w);
      const bool by_roots = checker.spell(w, d->stems);
      source.reset();
      const bool by_keys = checker.spell(w, source);
      if (by_roots != expected || by_keys != expected) {
        INFO("seed " << seed << " word '" << w << "'\n" << g.aff << "--- dic\n" << g.dic);
        CHECK(by_roots == expected);
        CHECK(by_keys == expected);
      }
      if (checker.simple_form(w, d->stems)) {
        INFO("seed " << seed << ": '" << w << "' is accepted without compounding but no expanded form");
        CHECK(forms.count(d->rules.internal_form(w)) == 1);
      }
      ++checked;
      accepted += expected;
    }
  }
  MESSAGE(checked << " words checked, " << accepted << " accepted by hunspell");
  CHECK(accepted > 500 / kSweepStride);  // the dictionaries are not all empty of words
}
