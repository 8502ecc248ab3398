#pragma once
// What the two serial references share (reference_spellcheck.cpp,
// hunspell_reference.cpp): reading files and folders as SPEC.md walks
// them, and SPEC.md's tokenizer. Written to be obviously correct, not
// fast; shares no code with src/. C++20 standard library only.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace reference {

namespace fs = std::filesystem;

// Any failure the user should hear about: one line on stderr, exit 2.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

inline std::string read_whole_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Failure("cannot open '" + path + "': no such file");
  if (fs::is_directory(path, ec)) throw Failure("'" + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure("cannot open '" + path + "' for reading");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw Failure("cannot read '" + path + "'");
  return buffer.str();
}

// Splits on '\n' (a final piece after the last '\n' counts as a line too).
inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string current;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  lines.push_back(current);
  return lines;
}

inline bool is_blank_char(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Strips spaces, tabs and carriage returns from both ends.
inline std::string clean_line(const std::string& line) {
  std::size_t begin = 0;
  std::size_t end = line.size();
  while (begin < end && is_blank_char(line[begin])) ++begin;
  while (end > begin && is_blank_char(line[end - 1])) --end;
  return line.substr(begin, end - begin);
}

// Every input file, in byte-wise sorted order of its path. A directory
// stands for every regular file under it (links to files are read, links to
// directories are not followed).
inline std::vector<std::string> list_input_files(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      fs::recursive_directory_iterator it(input, fs::directory_options::none, ec);
      if (ec) throw Failure("cannot read directory '" + input + "': " + ec.message());
      for (const fs::directory_entry& entry : it) {
        std::error_code ec2;
        if (entry.is_regular_file(ec2)) files.push_back(entry.path().string());
      }
    } else if (fs::exists(input, ec)) {
      files.push_back(input);
    } else {
      throw Failure("cannot open '" + input + "': no such file or directory");
    }
  }
  std::sort(files.begin(), files.end());  // std::string compares bytes as unsigned
  return files;
}

// ---------------------------------------------------------------------------
// Tokenizer (document mode)
// ---------------------------------------------------------------------------

inline bool is_ascii_letter_or_digit(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Decodes one valid UTF-8 sequence of 2 to 4 bytes at text[pos]: shortest
// form, no surrogates, at most U+10FFFF, complete. Returns its length and
// sets code_point, or returns 0 when the bytes there are not such a sequence.
inline std::size_t decode_utf8(const std::string& text, std::size_t pos, std::uint32_t& code_point) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(pos);
  std::size_t length = 0;
  std::uint32_t value = 0;
  if (lead >= 0xC0 && lead <= 0xDF) {
    length = 2;
    value = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    value = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF7) {
    length = 4;
    value = lead & 0x07;
  } else {
    return 0;  // ASCII, a continuation byte, or 0xF8..0xFF
  }
  if (pos + length > text.size()) return 0;  // incomplete
  for (std::size_t i = 1; i < length; ++i) {
    unsigned char c = byte(pos + i);
    if ((c & 0xC0) != 0x80) return 0;
    value = (value << 6) | (c & 0x3F);
  }
  const std::uint32_t smallest[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < smallest[length]) return 0;            // overlong
  if (value >= 0xD800 && value <= 0xDFFF) return 0;  // surrogate
  if (value > 0x10FFFF) return 0;                    // beyond Unicode
  code_point = value;
  return length;
}

// Appends the UTF-8 bytes of code point c (at most U+10FFFF).
inline void append_utf8(std::string& s, std::uint32_t c) {
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
}

inline bool is_excluded_code_point(std::uint32_t c) {
  return (c >= 0x0080 && c <= 0x00BF) || c == 0x00D7 || c == 0x00F7 || (c >= 0x2000 && c <= 0x2BFF) ||
         (c >= 0x3000 && c <= 0x303F) || (c >= 0xFE00 && c <= 0xFE6F) || c == 0xFEFF || (c >= 0xFF00 && c <= 0xFF0F) ||
         (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) || (c >= 0xFF5B && c <= 0xFF65) ||
         (c >= 0x1F000 && c <= 0x1FAFF);
}

// What sits at text[pos]: a word character, an apostrophe (' or U+2019), or
// a separator. length is how many bytes it spans.
enum class Kind { word_char, apostrophe, separator };

inline Kind classify(const std::string& text, std::size_t pos, std::size_t& length) {
  unsigned char c = static_cast<unsigned char>(text[pos]);
  length = 1;
  if (c < 0x80) {
    if (is_ascii_letter_or_digit(c)) return Kind::word_char;
    if (c == '\'') return Kind::apostrophe;
    return Kind::separator;
  }
  std::uint32_t code_point = 0;
  std::size_t n = decode_utf8(text, pos, code_point);
  if (n == 0) return Kind::separator;  // an invalid byte: separates on its own
  length = n;
  if (code_point == 0x2019) return Kind::apostrophe;
  if (is_excluded_code_point(code_point)) return Kind::separator;
  return Kind::word_char;
}

inline bool only_ascii_digits(const std::string& token) {
  return std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

inline bool has_ascii_digit(const std::string& token) {
  return std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// --filter url: hunspell's rule (textparser.cxx, check_urls), one byte at a
// time. A run starts at a letter, a digit, a byte >= 0x80 or '/', and goes
// on over those and the URL punctuation below; a run holding "://", ":\" or
// '@', or starting with '/', is blanked (spaces).
inline void blank_urls(std::string& text) {
  const auto word_byte = [](unsigned char c) { return std::isalnum(c) || c >= 0x80; };
  const std::string punctuation = "-_\\.:/~%*$[]?!'@=&#+";
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!word_byte(c) && c != '/') {
      ++i;
      continue;
    }
    std::size_t end = i;
    bool url = c == '/';
    while (end < text.size() &&
           (word_byte(static_cast<unsigned char>(text[end])) || punctuation.find(text[end]) != std::string::npos)) {
      if (text[end] == '@' || text.compare(end, 3, "://") == 0 || text.compare(end, 2, ":\\") == 0) url = true;
      ++end;
    }
    if (url)
      std::fill(text.begin() + static_cast<std::ptrdiff_t>(i), text.begin() + static_cast<std::ptrdiff_t>(end), ' ');
    i = end;
  }
}

// Appends every token of text (apostrophes normalised to ') to tokens, and
// where each begins to starts (if given).
inline void tokenize(const std::string& text, std::vector<std::string>& tokens,
                     std::vector<std::size_t>* starts = nullptr) {
  std::string token;  // the token being built; empty when between tokens
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t length = 0;
    Kind kind = classify(text, pos, length);
    if (kind == Kind::word_char) {
      if (token.empty() && starts) starts->push_back(pos);
      token.append(text, pos, length);
      pos += length;
      continue;
    }
    if (kind == Kind::apostrophe && !token.empty()) {
      // Keep it only when a word character follows right after it.
      std::size_t next = pos + length;
      std::size_t next_length = 0;
      if (next < text.size() && classify(text, next, next_length) == Kind::word_char) {
        token.push_back('\'');
        pos = next;
        continue;
      }
    }
    // A separator (or an apostrophe that does not join two word characters).
    if (!token.empty()) tokens.push_back(token);
    token.clear();
    pos += length;
  }
  if (!token.empty()) tokens.push_back(token);
}

}  // namespace reference
