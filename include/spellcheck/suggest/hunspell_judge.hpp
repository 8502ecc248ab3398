#pragma once
// Checking words against a distributed hunspell dictionary, in rounds. A
// word is checked at its home rank (the owner of its fold key), where its
// case variants and every root it could be stripped to are local. A check
// that needs another key (a compound's part, a BREAK part, a REP variant)
// finds it in the Bloom filter first: most keys no rank has are settled
// there. The others are fetched in batches: each round, every rank checks
// what is pending, collects the keys its checks missed, and asks their
// owners for them (one all-to-all of keys, one of their neighbourhoods);
// the checks that missed a key run again in the next round. Checks are
// deterministic, so the rounds change when an answer is known, never what
// it is.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/affix_checker.hpp"
#include "spellcheck/dictionary/hunspell_dictionary.hpp"

namespace spellcheck {

struct HunspellCheckCounts {
  uint64_t checks = 0;       // checks run, repeats included
  uint64_t rechecks = 0;     // of them, repeats after a round fetched keys
  uint64_t rounds = 0;       // rounds that fetched keys
  uint64_t keys_asked = 0;   // keys this rank asked other ranks for
  uint64_t keys_served = 0;  // keys other ranks asked this rank for
};

class HunspellJudge {
 public:
  HunspellJudge(const mpi::Comm& comm, const HunspellDictionary& dict);

  // Collective: every rank passes its own strings; ok[i] = whether
  // strings[i] is correct.
  std::vector<uint8_t> check(const std::vector<std::string_view>& strings);

  // Collective: SPEC mode's candidates of each of this rank's misspelled
  // words: every string one code point away (deleted, substituted or
  // inserted, from the .aff's TRY letters, their capitals and a-z A-Z 0-9)
  // that the dictionary accepts, distinct, in no particular order. Words
  // are taken in batches of about batch_strings candidates; progress(done)
  // after each batch (on this rank).
  std::vector<std::vector<std::string>> candidates(const WordList& words, size_t batch_strings,
                                                   const std::function<void(size_t)>& progress = {});

  const HunspellCheckCounts& counts() const { return counts_; }
  // The alphabet of the candidates' edits (sorted code points).
  const std::u32string& alphabet() const { return alphabet_; }

 private:
  // Collective: settles the checks of strings(i), i < n, calling
  // verdict(i, ok) for each (from several threads).
  void settle(size_t n, const std::function<std::string_view(size_t)>& strings,
              const std::function<void(size_t, bool)>& verdict);
  void fetch(const std::vector<uint64_t>& keys);

  const mpi::Comm& comm_;
  const HunspellDictionary& dict_;
  AffixChecker checker_;
  FetchedNeighbourhoods fetched_;
  HunspellCheckCounts counts_;
  std::u32string alphabet_;
};

// The alphabet of SPEC mode's edits for a dictionary (see candidates()).
std::u32string edit_alphabet(const AffixRules& rules, const LetterCase& cases);
// Every distinct string one edit away from word (code points), appended to out.
void edit_strings(std::string_view word, const std::u32string& alphabet, std::vector<std::string>& out);

}  // namespace spellcheck
