// A hunspell dictionary spread over 1-4 ranks against the same dictionary
// read whole by one process (the serial checker over every root, which the
// checker's own test holds to libhunspell): every rank checks its share of
// the words, compounds that need other ranks' keys among them, and the
// answers and SPEC candidates must be the serial ones. No rank holds the
// whole dictionary. Only CHECKs between collectives.
#include <doctest/doctest.h>
#include <mpi.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/dictionary/affix_checker.hpp"
#include "spellcheck/dictionary/hunspell_dictionary.hpp"
#include "spellcheck/dictionary/stem_table.hpp"
#include "spellcheck/suggest/hunspell_judge.hpp"
#include "temp_files.hpp"

using namespace spellcheck;

namespace {

// A German-like toy: compounds (COMPOUNDBEGIN/END, ONLYINCOMPOUND joining
// 's'), suffixes with a second level, a prefix, KEEPCASE, FORBIDDENWORD,
// CHECKSHARPS, a hidden capitalised entry, BREAK's default '-'.
const char* kAff = R"(SET UTF-8
TRY esianrtolcdugmphbyfvkwzäüöß
CHECKSHARPS
COMPOUNDBEGIN x
COMPOUNDEND z
COMPOUNDMIN 2
ONLYINCOMPOUND o
KEEPCASE w
FORBIDDENWORD d
NEEDAFFIX h
PFX U Y 1
PFX U 0 un .
SFX S Y 3
SFX S 0 s .
SFX S 0 es [sß]
SFX S 0 en/T e
SFX T Y 1
SFX T 0 d n
SFX N Y 1
SFX N 0 n e
)";

const char* kDic = R"(16
haus/Sxz
tür/Sxz
straße/Sxz
fahrt/Sxz
schiff/Sxz
s/o
ende/STNz
gut/USx
bar/S
iPod/w
Heute
heute/S
falsch/d
Bahn/Sxz
OpenOffice/S
treu/hU
)";

std::vector<std::string> test_words() {
  return {"haus",       "Haus",      "HAUS",       "häuser",   "haustür",    "Haustür",   "haustüren",  "hausstür",
          "türhaus",    "straße",    "STRASSE",    "Strasse",  "straßen",    "haus-tür",  "ungut",      "Ungut",
          "unguts",     "gutes",     "bar",        "bars",     "iPod",       "IPOD",      "Ipod",       "ipod",
          "heute",      "Heute",     "HEUTE",      "falsch",   "Falsch",     "bahnfahrt", "Bahnfahrt",  "schifffahrt",
          "schiffahrt", "fahrtende", "fahrtenden", "ende",     "enden",      "endend",    "OpenOffice", "OPENOFFICE",
          "Openoffice", "treu",      "untreu",     "treus",    "hausbahn",   "xyz",       "hausxyz",    "ss",
          "s",          "haussende", "tür-haus",   "Tür-Haus", "bahnhaustür"};
}

}  // namespace

TEST_CASE("a distributed hunspell dictionary checks as one process does") {
  mpi::Comm comm;
  spellcheck::testing::TempDir dir;  // rank 0's holds the files (one machine: every rank sees them)
  if (comm.rank() == 0) {
    spellcheck::testing::write(dir.path / "toy.aff", kAff);
    spellcheck::testing::write(dir.path / "toy.dic", kDic);
  }
  const std::string shared = mpi::broadcast(comm, dir.str("toy.dic"), 0);

  std::vector<std::string> warnings;
  HunspellLoadStats stats;
  const auto d = HunspellDictionary::load(comm, shared, warnings, stats);
  const auto serial = load_local_dictionary(shared);
  const LetterCase cases(serial->rules.lang);
  const AffixChecker checker(serial->rules, cases);

  CHECK(stats.stems == 16);
  CHECK(stats.entries == 18);  // and the hidden capitalised "Openoffice" and "Ipod"
  if (comm.size() > 1) CHECK(d->local().entries() < stats.entries);  // no rank holds them all

  // This rank's share of the words (round robin), checked here.
  const std::vector<std::string> all = test_words();
  std::vector<std::string_view> mine;
  for (size_t i = static_cast<size_t>(comm.rank()); i < all.size(); i += static_cast<size_t>(comm.size()))
    mine.push_back(all[i]);
  HunspellJudge judge(comm, *d);
  const std::vector<uint8_t> ok = judge.check(mine);
  for (size_t i = 0; i < mine.size(); ++i) {
    INFO("word " << mine[i]);
    CHECK((ok[i] != 0) == checker.spell(mine[i], serial->stems));
  }

  // SPEC candidates of the misspelled ones: the serial checker over every edit.
  WordList wrong;
  for (size_t i = 0; i < mine.size(); ++i)
    if (!ok[i]) wrong.push_back(mine[i]);
  const auto found = judge.candidates(wrong, 3000);
  for (size_t i = 0; i < wrong.size(); ++i) {
    std::vector<std::string> edits, expected;
    edit_strings(wrong[i], judge.alphabet(), edits);
    for (const std::string& e : edits)
      if (checker.spell(e, serial->stems)) expected.push_back(e);
    std::vector<std::string> got = found[i];
    std::sort(got.begin(), got.end());
    INFO("word " << wrong[i]);
    CHECK(got == expected);
  }
  const uint64_t fetched = mpi::allreduce_sum(comm, judge.counts().keys_asked);
  if (comm.size() > 1) CHECK(fetched > 0);  // compounds asked other ranks
  mpi::barrier(comm);                       // before rank 0 removes the files
}
