// libFuzzer target: compiled dictionary files (compiled_dictionary.hpp),
// with their ranked index (compiled_ranked_index.cpp) or a hunspell
// dictionary (compiled_hunspell.hpp). The input's first byte picks the
// case: even, the rest is a whole file of arbitrary bytes; odd, a valid
// file compiled from the rest's lines (with a ranked index; with the third
// byte's bit 0x40, the lines are a hunspell .dic's, with a fixed .aff) is
// damaged at positions the input gives (a byte changed, the file cut).
// Either way a read on any rank count must throw InputError or give each
// rank entries it owns, each with its word's hash, and its part of the
// ranked index; an undamaged file must give back exactly the lines it was
// compiled from (and the ranks' parts of the index every distinct one; of
// a hunspell dictionary, every key with its members once), and
// a damaged one be refused (every byte is under a digest). MPI is
// initialised once, as a singleton: compile builds the index on one rank.
#include <mpi.h>
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/compiled_dictionary.hpp"
#include "spellcheck/dictionary/compiled_hunspell.hpp"
#include "spellcheck/suggest/ranked_lookup.hpp"

using namespace spellcheck;

namespace {

constexpr uint64_t kFrequencyDigest = 0xF00D;
std::string g_dir;  // where the hunspell case writes its .aff and .dic

// Of a hunspell dictionary: each key's member count (over all ranks).
using Members = std::map<uint64_t, size_t>;

// Every rank's share of file on `ranks` ranks: the entries (word -> count),
// and how many entries the ranked index's parts hold, or false when the
// file is refused.
bool read_all(const std::string& file, int ranks, std::map<std::string, int>& got, uint64_t& ranked_entries,
              Members& members) {
  const ReadAt read = [&](uint64_t offset, size_t n, char* dest) {
    if (offset > file.size() || n > file.size() - offset) return false;
    std::memcpy(dest, file.data() + offset, n);
    return true;
  };
  for (int r = 0; r < ranks; ++r) {
    try {
      const CompiledShare s = read_compiled_share(read, file.size(), "f.scd", r, ranks);
      if (s.entries.size() != s.hashes.size()) std::abort();
      for (size_t i = 0; i < s.entries.size(); ++i) {
        if (owner_of(s.hashes[i], ranks) != r || word_hash(s.entries[i]) != s.hashes[i]) std::abort();
        ++got[std::string(s.entries[i])];
      }
      if (s.hunspell_bytes > 0) {
        const HunspellSection h{read, "f.scd", s.hunspell_at, s.hunspell_bytes};
        const CompiledHunspellPart part = read_compiled_hunspell(h, r, ranks);
        for (const KeyedEntry& k : part.pairs) {
          if (owner_of(k.key, ranks) != r || k.entry >= part.entries.size()) std::abort();
          ++members[k.key];
        }
        read_compiled_hunspell_forms(h, r, ranks);
      }
      if (s.ranked_bytes == 0) continue;
      RankedIndex index;
      const CompiledSection section{read, "f.scd", s.ranked_at, s.ranked_bytes};
      if (index.read_compiled(section, r, ranks, RankedParams{}, kFrequencyDigest).empty())
        ranked_entries += index.entries();
    } catch (const InputError&) {
      return false;
    }
  }
  return true;
}

// A hunspell dictionary of lines (a .dic's, after its count) with a fixed
// .aff, loaded on this process alone; nullptr when the .dic is refused.
std::unique_ptr<HunspellDictionary> load_hunspell(const WordList& lines, HunspellLoadStats& stats) {
  std::ofstream(g_dir + "/f.aff") << "SET UTF-8\nTRY esianrt\nSFX S Y 1\nSFX S 0 s .\nPFX U Y 1\nPFX U 0 un .\n"
                                     "COMPOUNDFLAG C\n";
  {
    std::ofstream dic(g_dir + "/f.dic", std::ios::binary);
    dic << lines.size() << "\n" << lines.bytes;
  }
  const mpi::Comm self(MPI_COMM_SELF);
  std::vector<std::string> warnings;
  try {
    HunspellLoadOptions options;
    options.forms = true;
    return HunspellDictionary::load(self, g_dir + "/f.dic", warnings, stats, options);
  } catch (const InputError&) {
    return nullptr;
  }
}

// The file compiled from a hunspell dictionary of lines ("" when refused),
// and its keys' member counts.
std::string hunspell_file(const WordList& lines, uint32_t buckets, Members& want) {
  HunspellLoadStats stats;
  std::unique_ptr<HunspellDictionary> d = load_hunspell(lines, stats);
  if (!d) return "";
  for (const uint64_t key : d->local().key_list()) want[key] = d->local().find(key).size();
  const WordList forms = d->take_suggestable_forms();
  const mpi::Comm self(MPI_COMM_SELF);
  const std::string section = compiled_hunspell_section(self, *d, forms, stats, buckets, 12);
  const BloomFilter bloom(1, 1);
  const TrigramFilter trigrams;
  const AffixFilter affixes(1);
  return compiled_dictionary_bytes({}, {}, {&bloom, &trigrams, &affixes}, buckets, "fuzz\n", section);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  char dir[] = "/tmp/fuzz_compiled.XXXXXX";
  if (::mkdtemp(dir) == nullptr) std::abort();
  g_dir = dir;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  int ranks = 1 + data[1] % 5;
  std::string rest(reinterpret_cast<const char*>(data + 4), size - 4);
  std::map<std::string, int> got;
  uint64_t ranked_entries = 0;
  Members members;
  if (data[0] % 2 == 0) {
    read_all(rest, ranks, got, ranked_entries, members);
    return 0;
  }
  WordList lines;
  std::map<std::string, int> want;
  for (size_t b = 0; b < rest.size();) {
    size_t e = rest.find('\n', b);
    if (e == std::string::npos) e = rest.size();
    lines.push_back(std::string_view(rest).substr(b, e - b));
    ++want[rest.substr(b, e - b)];
    b = e + 1;
  }
  const uint32_t buckets = uint32_t{1} << (data[2] % 4 + 2);
  ranks = std::min(ranks, static_cast<int>(buckets));  // more ranks are refused (compiled_dictionary_test)
  std::string file;
  Members want_members;
  if (data[2] & 0x40) {
    file = hunspell_file(lines, buckets, want_members);
    if (file.empty()) return 0;
    want.clear();
    if (!read_all(file, ranks, got, ranked_entries, members) || !got.empty() || members != want_members) std::abort();
  } else {
    std::vector<uint64_t> hashes;
    BloomFilter bloom(1, 4);
    TrigramFilter trigrams;
    AffixFilter affixes(lines.size() + 1);
    for (size_t i = 0; i < lines.size(); ++i) {
      hashes.push_back(word_hash(lines[i]));
      bloom.insert(hashes.back(), 0);
    }
    const std::string ranked = RankedIndex::compiled_section(
        lines, {}, RankedParams{}, static_cast<unsigned>(std::countr_zero(buckets)), kFrequencyDigest);
    file = compiled_dictionary_bytes(lines, hashes, {&bloom, &trigrams, &affixes}, buckets, "fuzz\n", {}, ranked);
    if (!read_all(file, ranks, got, ranked_entries, members) || got != want || ranked_entries != want.size())
      std::abort();
  }
  if (data[3] == 0) return 0;
  const size_t at = data[3] * file.size() / 256;
  if (data[2] & 0x80) file.resize(at);
  else file[at] = static_cast<char>(file[at] ^ (data[2] | 1));
  got.clear();
  members.clear();
  if (read_all(file, ranks, got, ranked_entries, members)) std::abort();  // every byte is under a digest (or the magic)
  return 0;
}
