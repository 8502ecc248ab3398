#pragma once
// Word frequencies for ranked suggestions: `word count` per line
// (SymSpell's format; spaces or a tab between), parsed from this rank's
// share of the file. A bad file is bad input: a NUL byte (binary), a line
// without a count, a negative, fractional or huge count (over 10^15, more
// than any corpus has words) all throw InputError naming the file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/word_list.hpp"

namespace spellcheck {

struct FrequencyList {
  WordList words;
  std::vector<uint64_t> counts;
};

inline constexpr uint64_t kMaxFrequency = 1'000'000'000'000'000ULL;

// path names the file in messages.
FrequencyList parse_frequencies(std::string_view text, const std::string& path);

// The XXH3 digest of a file's bytes (the frequency list a compiled ranked
// index was built from; the sources of a compiled cache file). Throws
// InputError naming an unreadable file.
uint64_t file_digest(const std::string& path);
// The whole file parsed by one rank (compile), with that digest.
FrequencyList read_frequency_file(const std::string& path, uint64_t& digest);

}  // namespace spellcheck
