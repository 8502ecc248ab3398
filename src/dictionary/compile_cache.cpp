#include "spellcheck/dictionary/compile_cache.hpp"

#include <sys/stat.h>
#include <xxhash.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/dictionary/frequencies.hpp"

namespace spellcheck {
namespace {

void prepare_folder(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT || (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST))
      throw InputError("index cache directory '" + dir + "': " + std::strerror(errno));
    if (::stat(dir.c_str(), &st) != 0) throw InputError("index cache directory '" + dir + "': " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) throw InputError("index cache directory '" + dir + "' is not a directory");
}

// What a compiled file depends on besides its sources: the version that
// writes it, the run's mode and every option compile records.
std::string recorded_options(const Options& o) {
  char s[512];
  std::snprintf(s, sizeof s,
                "spellcheck " SPELLCHECK_VERSION
                " ranked=%d filter-bits=%.17g max-word-length=%zu max-distance=%d prefix-length=%zu "
                "sound-distance=%d rare-distance=%d far-min-count=%" PRIu64 " sound-min-count=%" PRIu64
                " sound-gate=%.17g/%d two-edits-from=%zu",
                o.ranked ? 1 : 0, o.filter_bits, o.max_word_length, o.max_distance, o.prefix_length, o.sound_distance,
                o.rare_distance, o.far_min_count, o.sound_min_count, o.sound_gate, o.sound_gate_off ? 1 : 0,
                o.two_edits_from);
  return s;
}

}  // namespace

std::string compile_cache_path(const Options& opt) {
  prepare_folder(opt.index_cache);
  std::vector<uint64_t> key_parts{file_digest(opt.dictionary)};
  const std::filesystem::path dic(opt.dictionary);
  const std::filesystem::path aff = std::filesystem::path(dic).replace_extension(".aff");
  std::error_code ec;
  if (dic.extension() == ".dic" && std::filesystem::is_regular_file(aff, ec))
    key_parts.push_back(file_digest(aff.string()));
  for (const std::string& e : opt.extra_dicts) key_parts.push_back(file_digest(e));
  if (opt.ranked && !opt.frequencies.empty()) key_parts.push_back(file_digest(opt.frequencies));
  const std::string options = recorded_options(opt);
  const uint64_t key = XXH3_64bits_withSeed(key_parts.data(), key_parts.size() * sizeof(uint64_t),
                                            XXH3_64bits(options.data(), options.size()));
  char name[32];
  std::snprintf(name, sizeof name, "-%016" PRIx64 ".scd", key);
  const std::string& dir = opt.index_cache;
  return dir + (dir.back() == '/' ? "" : "/") + dic.stem().string() + name;
}

}  // namespace spellcheck
