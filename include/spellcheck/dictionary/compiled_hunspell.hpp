#pragma once
// A hunspell dictionary in a compiled file (`spellcheck compile NAME.dic`):
// what the ranks' load made (hunspell_dictionary.hpp), read on any number
// of ranks p <= B without parsing the .dic, linking homonyms, expanding
// affixes or moving forms. A section of the compiled file
// (compiled_dictionary.hpp) holding:
//   - each fold key's members, in RootNeighbourhoods::serialize's form, in
//     B buckets of the key (compiled_bucket: a rank reads its owner range,
//     the two end buckets shared with its neighbours, whose keys it drops);
//   - the .aff's text (every rank parses it: it is small);
//   - a Bloom filter of every key (one segment, for any rank count);
//   - the forms a suggestion may offer (HunspellDictionary's suggestable
//     forms), in buckets of their word_hash: ranked mode builds its index
//     from them when the file's ranked index does not apply.
//
// Layout (little-endian, from the section's start):
//   header   magic "spellcheck-hspl\n", format, B, the load's figures, the
//            parts' sizes, the meta's bytes and digest
//   meta     the .dic's path (a language's name); the .aff; the filter; per bucket boundary (B + 1 each): its
//            first key, record byte, form and form byte; per bucket two
//            digests (its keys, record starts and records; its forms)
//   keys     u64 per key, by (bucket, key)
//   starts   u64 per key and one more: where its record starts
//   records  the keys' members, one record after another
//   forms    '\n'-terminated, by (bucket, word_hash, bytes)
// The file is the same bytes whatever the number of ranks that compiled it.
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/compiled_dictionary.hpp"
#include "spellcheck/dictionary/hunspell_dictionary.hpp"

namespace spellcheck {

// Collective (compile): the section's bytes on rank 0 ("" on the others),
// from every rank's part of d, its suggestable forms (suggestable, this
// rank's), the load's figures and the filter's bits per key. On rank 0,
// all_forms (if given) receives every rank's suggestable forms.
std::string compiled_hunspell_section(const mpi::Comm& comm, const HunspellDictionary& d, const WordList& suggestable,
                                      const HunspellLoadStats& stats, uint32_t buckets, double filter_bits,
                                      WordList* all_forms = nullptr);

// Where the section is in its file.
struct HunspellSection {
  ReadAt read;
  std::string name;  // the file's path, for messages
  uint64_t at = 0, bytes = 0;
};

// What rank of ranks reads: the compiled .dic's path and .aff's text, the neighbourhoods of the keys
// it owns (entries once each, and which keys they belong to), the filter,
// the load's figures (bytes_local and entries_local this rank's). Throws
// InputError "NAME: ..." for a truncated or damaged section, or fewer
// buckets than ranks.
struct CompiledHunspellPart {
  std::string dic_path, aff;
  PackedEntries entries;
  std::vector<KeyedEntry> pairs;  // key by key, each key's members in member order (build_grouped's)
  BloomFilter filter;
  HunspellLoadStats stats;
};
CompiledHunspellPart read_compiled_hunspell(const HunspellSection& s, int rank, int ranks);

// The suggestable forms of rank's buckets (each form once over the ranks).
WordList read_compiled_hunspell_forms(const HunspellSection& s, int rank, int ranks);

}  // namespace spellcheck
