#pragma once
// Reading line files (dictionary, word list) in parallel: each rank reads
// about 1/p of the bytes with MPI-IO, snapped to line boundaries, so every
// line is read by exactly one rank: the rank whose share holds its first byte.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"

namespace spellcheck {

// Whole lines (the last may lack its '\n' at end of file) and where they
// start in the file.
struct TextChunk {
  std::string bytes;
  uint64_t offset = 0;
};

// Throws InputError unless path names a readable regular file. Local.
void require_readable_file(const std::string& path, std::string_view what);

// Collective: this rank's share of the lines of a file.
TextChunk read_line_share(const mpi::Comm& comm, const std::string& path);

// The share of [0, size) that rank r of p reads, before snapping.
inline uint64_t share_begin(uint64_t size, int r, int p) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(size) * static_cast<unsigned>(r)) /
                               static_cast<unsigned>(p));
}

// SPEC line cleaning: strip spaces, tabs and CRs from both ends.
inline std::string_view clean_line(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Calls fn(word) for every non-empty cleaned line of text.
template <class F>
void for_each_clean_line(std::string_view text, F&& fn) {
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    const std::string_view w = clean_line(text.substr(b, e - b));
    if (!w.empty()) fn(w);
    b = e + 1;
  }
}

// The non-empty cleaned lines of text as a WordList, built in text's own
// buffer (a cleaned line never outgrows its line). Lines longer than
// max_length bytes are dropped and counted in *too_long.
WordList lines_to_words(std::string text, size_t max_length, uint64_t* too_long);

}  // namespace spellcheck
