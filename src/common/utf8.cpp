#include "spellcheck/common/utf8.hpp"

namespace spellcheck {

namespace {

constexpr char32_t kEscape = 0xDC80;  // invalid byte b decodes to kEscape + (b - 0x80)

}  // namespace

size_t decode_utf8(std::string_view s, char32_t* out) {
  size_t n = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t len = s.size();
  size_t i = 0;
  while (i < len) {
    const unsigned char b = p[i];
    if (b < 0x80) {
      out[n++] = b;
      ++i;
      continue;
    }
    size_t need = 0;
    char32_t c = 0, min = 0;
    if (b >= 0xC2 && b <= 0xDF) {
      need = 1, c = b & 0x1F, min = 0x80;
    } else if (b >= 0xE0 && b <= 0xEF) {
      need = 2, c = b & 0x0F, min = 0x800;
    } else if (b >= 0xF0 && b <= 0xF4) {
      need = 3, c = b & 0x07, min = 0x10000;
    }
    bool ok = need > 0;
    if (ok) {
      for (size_t k = 1; k <= need; ++k) {
        if (i + k >= len || (p[i + k] & 0xC0) != 0x80) {
          ok = false;
          break;
        }
        c = (c << 6) | (p[i + k] & 0x3F);
      }
    }
    if (ok && (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))) ok = false;
    if (ok) {
      out[n++] = c;
      i += need + 1;
    } else {
      out[n++] = kEscape + (b - 0x80);
      ++i;
    }
  }
  return n;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c >= kEscape && c < kEscape + 0x80) {
    out.push_back(static_cast<char>(c - kEscape + 0x80));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

void decode_utf8(std::string_view s, std::u32string& out) {
  out.resize(s.size());
  out.resize(decode_utf8(s, out.data()));
}

std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  decode_utf8(s, out);
  return out;
}

std::string encode_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) append_utf8(out, c);
  return out;
}

std::string reversed_code_points(std::string_view s) {
  std::u32string w = decode_utf8(s);
  std::string out;
  out.reserve(s.size());
  for (size_t i = w.size(); i-- > 0;) append_utf8(out, w[i]);
  return out;
}

size_t utf8_length_at(std::string_view s, size_t i) {
  char32_t c[4];
  const size_t n = s.size() - i < 4 ? s.size() - i : 4;
  decode_utf8(s.substr(i, n), c);
  if (c[0] < 0x80 || (c[0] >= kEscape && c[0] < kEscape + 0x80)) return 1;
  return c[0] < 0x800 ? 2 : c[0] < 0x10000 ? 3 : 4;
}

}  // namespace spellcheck
