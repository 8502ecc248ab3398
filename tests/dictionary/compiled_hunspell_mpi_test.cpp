// A hunspell dictionary compiled on 1-4 ranks (compiled_hunspell.hpp) and
// read back as any number of ranks up to its buckets: every key's
// neighbourhood is read by exactly the rank that owns it, and serializes
// to the bytes the loading rank's did; the forms a suggestion may offer
// come back once each; the bytes do not depend on the compiling ranks; a
// damaged or cut section, or more ranks than buckets, is refused. Only
// CHECKs between collectives.
#include <doctest/doctest.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/compiled_hunspell.hpp"
#include "temp_files.hpp"

using namespace spellcheck;

namespace {

// Affixes on two levels, a prefix, compounds, homonyms, a hidden entry.
const char* kAff = R"(SET UTF-8
TRY eairnotslcudpmhgbfywkvxzjq
COMPOUNDFLAG C
ONLYINCOMPOUND O
PFX R Y 1
PFX R 0 re .
SFX D Y 2
SFX D 0 ed [^e]
SFX D 0 d e
SFX G Y 1
SFX G 0 ing/D .
)";

std::string dic_text() {
  std::vector<std::string> lines = {"walk/DGRC", "talk/DG", "bake/D", "bake/G", "light/C",
                                    "house/C",   "s/O",     "Paris",  "paris/D"};
  const std::string letters = "aeiourstlnkm";
  uint64_t x = 12345;
  for (int i = 0; i < 400; ++i) {
    std::string w;
    for (int k = 0; k < 3 + i % 6; ++k) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      w += letters[(x >> 33) % letters.size()];
    }
    lines.push_back(w + (i % 3 == 0 ? "/DG" : i % 3 == 1 ? "/RC" : ""));
  }
  std::string dic = std::to_string(lines.size()) + "\n";
  for (const std::string& l : lines) dic += l + "\n";
  return dic;
}

// A digest per key of a dictionary's local part: of the key and its
// neighbourhood's bytes, appended to out as 8 bytes each.
void neighbourhood_digests(const RootNeighbourhoods& local, std::string& out) {
  for (const uint64_t key : local.key_list()) {
    std::string bytes;
    local.serialize(key, bytes);
    const uint64_t d = XXH3_64bits_withSeed(bytes.data(), bytes.size(), key);
    out.append(reinterpret_cast<const char*>(&d), sizeof d);
  }
}

// Every rank's digests, sorted (on rank 0).
std::vector<uint64_t> gathered_digests(const mpi::Comm& comm, const std::string& mine) {
  const mpi::Gathered g = mpi::gather_bytes(comm, mine);
  std::vector<uint64_t> all(g.bytes.size() / 8);
  if (!all.empty()) std::memcpy(all.data(), g.bytes.data(), all.size() * 8);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

TEST_CASE("A compiled hunspell dictionary reads back as any number of ranks") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  spellcheck::testing::TempDir dir;
  spellcheck::testing::write(dir.path / "toy.aff", kAff);
  spellcheck::testing::write(dir.path / "toy.dic", dic_text());
  std::vector<std::string> warnings;
  HunspellLoadStats stats;
  HunspellLoadOptions options;
  options.forms = true;
  std::unique_ptr<HunspellDictionary> d = HunspellDictionary::load(comm, dir.str("toy.dic"), warnings, stats, options);
  const WordList forms = d->take_suggestable_forms();
  constexpr uint32_t kBuckets = 8;
  WordList all_forms;
  std::string section = compiled_hunspell_section(comm, *d, forms, stats, kBuckets, 12, &all_forms);
  section = mpi::broadcast(comm, section, 0);
  // The same bytes whatever the compiling ranks (checked by digest against
  // the 1-rank run's: the test runs on 1-4 ranks, each its own process).
  CHECK(mpi::allreduce_min(comm, XXH3_64bits(section.data(), section.size())) ==
        mpi::allreduce_max(comm, XXH3_64bits(section.data(), section.size())));
  // Every rank's neighbourhoods (on rank 0).
  std::string mine;
  neighbourhood_digests(d->local(), mine);
  const std::vector<uint64_t> whole = gathered_digests(comm, mine);
  std::set<std::string> want_forms;
  if (me == 0)
    for (size_t i = 0; i < all_forms.size(); ++i) want_forms.insert(std::string(all_forms[i]));
  const uint64_t forms_count = mpi::allreduce_sum(comm, static_cast<uint64_t>(forms.size()));
  CHECK(stats.keys > 0);
  CHECK(forms_count > 0);

  const HunspellSection s{[&](uint64_t at, size_t n, char* dest) {
                            if (at > section.size() || n > section.size() - at) return false;
                            std::memcpy(dest, section.data() + at, n);
                            return true;
                          },
                          "toy.scd", 0, section.size()};
  for (int q = 1; q <= static_cast<int>(kBuckets); ++q) {
    CAPTURE(q);
    // This process reads as ranks r of q with r % p == me.
    std::string read_here;
    uint64_t forms_read = 0;
    for (int r = me; r < q; r += p) {
      CompiledHunspellPart part = read_compiled_hunspell(s, r, q);
      CHECK(part.stats.stems == stats.stems);
      for (const KeyedEntry& k : part.pairs) CHECK(owner_of(k.key, q) == r);
      std::vector<std::string> w;
      auto back = HunspellDictionary::from_parts(part.dic_path, part.aff, std::move(part.entries), part.pairs,
                                                 std::move(part.filter), r, q, w);
      neighbourhood_digests(back->local(), read_here);
      const WordList got = read_compiled_hunspell_forms(s, r, q);
      forms_read += got.size();
      if (me == 0)
        for (size_t i = 0; i < got.size(); ++i) CHECK(want_forms.count(std::string(got[i])) == 1);
    }
    const std::vector<uint64_t> got = gathered_digests(comm, read_here);
    if (me == 0) CHECK(got == whole);
    CHECK(mpi::allreduce_sum(comm, forms_read) == forms_count);
  }
  CHECK_THROWS_WITH_AS(read_compiled_hunspell(s, 0, kBuckets + 1), doctest::Contains("it serves at most 8 ranks"),
                       InputError);
  // A flipped byte in the .aff (the meta), then in the records: refused by
  // some reader of 1 rank (which reads everything).
  for (const size_t at : {size_t{200}, section.size() / 2}) {
    CAPTURE(at);
    section[at] ^= 0x10;
    CHECK_THROWS_WITH_AS(
        {
          read_compiled_hunspell(s, 0, 1);
          read_compiled_hunspell_forms(s, 0, 1);
        },
        doctest::Contains("toy.scd: a damaged compiled dictionary"), InputError);
    section[at] ^= 0x10;
  }
  const HunspellSection cut{s.read, s.name, 0, section.size() - 1};
  CHECK_THROWS_AS(read_compiled_hunspell(cut, 0, 1), InputError);
}
