#pragma once
// UTF-8 to code points and back. Decoding never fails: a byte that does not
// start a valid sequence becomes one code point of its own in a private
// range (U+DC80 + byte, as Python's surrogateescape does), so invalid input
// encodes back to the same bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace spellcheck {

// Decodes word into out (room for word.size() code points); returns the
// count.
size_t decode_utf8(std::string_view word, char32_t* out);
// Appends the UTF-8 of c (escaped bytes come back as themselves).
void append_utf8(std::string& out, char32_t c);

void decode_utf8(std::string_view s, std::u32string& out);
std::u32string decode_utf8(std::string_view s);
std::string encode_utf8(std::u32string_view s);
// The code points of s in reverse order.
std::string reversed_code_points(std::string_view s);
// Bytes of the code point (or escaped byte) that starts at s[i].
size_t utf8_length_at(std::string_view s, size_t i);

// Writes the UTF-8 of a code point (at most U+10FFFF, not a surrogate) at
// out (room for 4 bytes); returns its length. For filters that decode in
// place (an entity, an escape, an accent).
inline size_t write_utf8(char32_t cp, unsigned char* out) noexcept {
  if (cp < 0x80) {
    out[0] = static_cast<unsigned char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<unsigned char>(0xC0 | (cp >> 6));
    out[1] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<unsigned char>(0xE0 | (cp >> 12));
    out[1] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<unsigned char>(0xF0 | (cp >> 18));
  out[1] = static_cast<unsigned char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
  return 4;
}

}  // namespace spellcheck
