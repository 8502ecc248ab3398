#pragma once
// A compiled dictionary (`spellcheck compile`, NAME.scd): a word list's
// entries with their word_hash, in B hash buckets, and the filters every
// rank probes, in one file that a run on any number of ranks p <= B reads
// without hashing, shuffling or building a filter. Rank r reads only the
// buckets its owner range (owner_of, word_hash.hpp) covers: contiguous,
// because a bucket is the top bits of the hash's low 32 bits, which
// owner_of scales the same way.
//
// Layout (little-endian, as blob.hpp):
//   header   magic "spellcheck-dict\n", format, B, entries, file bytes,
//            meta bytes, hunspell and ranked section bytes, meta digest
//            (72 bytes)
//   meta     the description (what it was compiled from, how), the Bloom
//            filter (one segment), the trigram filter, the affix filter,
//            per bucket: its first entry, its first word byte, its digest
//   words    every entry, '\n'-terminated, bucket by bucket, in a bucket by
//            (hash, bytes): the same file from any number of compiling ranks
//   hashes   each entry's word_hash, in the same order
//   hunspell a hunspell dictionary's neighbourhoods, if one was compiled
//            (then the parts above hold no entry: compiled_hunspell.hpp)
//   ranked   the ranked index, if compiled with it (a section of its own:
//            compiled_ranked_index.cpp)
// Every part a run reads is checked against its XXH3 digest.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/affix_filter.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/trigram_filter.hpp"

namespace spellcheck {

inline constexpr uint32_t kCompiledFormat = 2;
inline constexpr uint32_t kDefaultCompiledBuckets = 4096;
inline constexpr uint32_t kMaxCompiledBuckets = uint32_t{1} << 24;

// The bucket of a word hash among `buckets` (a power of two).
inline uint32_t compiled_bucket(uint64_t h, uint32_t buckets) {
  return static_cast<uint32_t>((static_cast<uint64_t>(static_cast<uint32_t>(h)) * buckets) >> 32);
}

// The buckets [first, last) holding the hashes rank of ranks owns.
struct BucketRange {
  uint32_t first = 0, last = 0;
};
BucketRange owned_buckets(int rank, int ranks, uint32_t buckets);

// Whether the file starts with the compiled dictionary's magic (a file that
// cannot be read is not one: reading it as a word list names the problem).
bool is_compiled_dictionary(const std::string& path);

// The filters a compiled file holds, built over the whole dictionary.
struct CompiledFilters {
  const BloomFilter* bloom = nullptr;  // one segment (FilterExchange::allreduce's layout)
  const TrigramFilter* trigrams = nullptr;
  const AffixFilter* affixes = nullptr;
};

// The file's bytes: every entry of the dictionary (from all ranks) with its
// word_hash, the filters, a description of what it was compiled from, and
// the hunspell dictionary's and the ranked index's sections ("": none).
std::string compiled_dictionary_bytes(const WordList& entries, const std::vector<uint64_t>& hashes,
                                      const CompiledFilters& filters, uint32_t buckets, std::string_view description,
                                      std::string_view hunspell_section = {}, std::string_view ranked_section = {});

// What one rank reads of a compiled file.
struct CompiledShare {
  WordList entries;              // the entries this rank owns (owner_of)
  std::vector<uint64_t> hashes;  // their word_hash
  uint64_t total_entries = 0;    // the whole dictionary's (lines, duplicates included)
  uint32_t buckets = 0;
  std::string description;
  BloomFilter bloom;
  TrigramFilter trigrams;
  AffixFilter affixes;
  uint64_t hunspell_at = 0, hunspell_bytes = 0;  // a hunspell dictionary's section (0 bytes: none)
  uint64_t ranked_at = 0, ranked_bytes = 0;      // the ranked index's section (0 bytes: none)
};

// Reads n bytes at offset into dest; false when the source ends first.
using ReadAt = std::function<bool(uint64_t offset, size_t n, char* dest)>;

// Reads the share of rank of ranks from a source of `size` bytes. Throws
// InputError "NAME: ..." (name: the file's path) for a file that is
// truncated, damaged (a digest differs), of another format, or compiled
// with fewer buckets than the run has ranks.
CompiledShare read_compiled_share(const ReadAt& read, uint64_t size, const std::string& name, int rank, int ranks);
// The same from the file at path (pread).
CompiledShare read_compiled_dictionary(const std::string& path, int rank, int ranks);
// Reads the file at path (pread, its descriptor kept open while a copy of
// the reader lives); size: the file's bytes. Throws InputError naming it.
ReadAt file_reader(const std::string& path, uint64_t& size);

}  // namespace spellcheck
