#pragma once
// The ranked index kept on disk (--index-cache DIR), so that later runs with
// the same dictionary, frequency list, index parameters and rank count read
// it back instead of building it (aspell keeps a compiled dictionary the
// same way). One file per rank, holding that rank's part only:
//
//   DIR/spellcheck-ranked-<key>-<rank>-of-<ranks>.idx
//
// where key is a digest of every rank's entries and frequencies, the
// parameters and the file format (ranked_lookup.cpp). A file is:
//
//   magic (16 bytes), u32 format, u64 key, u32 rank, u32 ranks,
//   the index's arrays (RankedIndex::save), u64 digest of all before it
//
// Written to a temporary file in DIR (removed on a signal) and renamed over
// the name, so a reader sees a whole file or none; two jobs writing the
// same one leave either's. A file that does not check out (its digest, its
// size, its header) is ignored and written again.
#include <cstdint>
#include <functional>
#include <string>

#include "spellcheck/common/blob.hpp"

namespace spellcheck {

inline constexpr uint32_t kIndexCacheFormat = 10;

// Makes sure dir is a directory, creating it (not its parents) if missing.
// Throws InputError with the reason.
void prepare_index_cache_dir(const std::string& dir);

std::string index_cache_path(const std::string& dir, uint64_t key, int rank, int ranks);

// What reading a rank's file came to.
enum class CacheRead { loaded, missing, damaged };

// Reads path with load (which fills its index from the reader); why says
// what was wrong with a damaged file. load may throw BlobError.
CacheRead read_index_cache(const std::string& path, uint64_t key, int rank, int ranks,
                           const std::function<void(BlobReader&)>& load, std::string& why);

// Writes path with save, through a temporary file renamed over it. Returns
// "" or why it could not (nothing is left behind then).
std::string write_index_cache(const std::string& path, uint64_t key, int rank, int ranks,
                              const std::function<void(BlobWriter&)>& save);

}  // namespace spellcheck
