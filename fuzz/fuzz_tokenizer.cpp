// libFuzzer target: the document tokenizer (SIMD scan and its scalar tail)
// against a plain tokenizer written from SPEC.md here, whole and cut at an
// arbitrary byte (the streamed reader resumes scans that way).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/input/tokenizer.hpp"

namespace {

// Length of the word character at p (SPEC: ASCII letter or digit, or a valid
// shortest-form UTF-8 sequence outside the excluded blocks), else 0.
size_t word_char(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') ? 1 : 0;
  size_t n;
  uint32_t cp, min;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  const auto in = [&](uint32_t lo, uint32_t hi) { return cp >= lo && cp <= hi; };
  if (in(0x80, 0xBF) || cp == 0xD7 || cp == 0xF7 || in(0x2000, 0x2BFF) || in(0x3000, 0x303F) || in(0xFE00, 0xFE6F) ||
      cp == 0xFEFF || in(0xFF00, 0xFF0F) || in(0xFF1A, 0xFF20) || in(0xFF3B, 0xFF40) || in(0xFF5B, 0xFF65) ||
      in(0x1F000, 0x1FAFF))
    return 0;
  return n;
}

size_t apostrophe(std::string_view s, size_t i) {
  if (s[i] == '\'') return 1;
  return s.substr(i, 3) == "\xE2\x80\x99" ? 3 : 0;
}

std::vector<std::string> plain_tokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t n = word_char(s, i);
    if (n == 0) {
      ++i;
      continue;
    }
    std::string tok;
    for (;;) {
      tok.append(s.substr(i, n));
      i += n;
      if (i >= s.size()) break;
      if ((n = word_char(s, i)) > 0) continue;
      const size_t a = apostrophe(s, i);
      if (a == 0 || i + a >= s.size() || (n = word_char(s, i + a)) == 0) break;
      tok += '\'';
      i += a;
    }
    out.push_back(std::move(tok));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> want = plain_tokens(text);
  std::vector<std::string> got;
  spellcheck::for_each_token(text, [&](std::string_view tok, size_t off) {
    if (off > size || tok.empty()) std::abort();
    got.emplace_back(tok);
  });
  if (got != want) std::abort();
  // The same text scanned in two pieces: the first scan stops where it can
  // no longer decide; the rest is scanned from there.
  if (size > 0) {
    const size_t cut = data[0] % (size + 1);
    std::vector<std::string> pieces;
    auto keep = [&](std::string_view tok, size_t) { pieces.emplace_back(tok); };
    const size_t resume = spellcheck::scan_tokens(text.substr(0, cut), false, keep);
    if (resume > cut) std::abort();
    spellcheck::scan_tokens(text.substr(resume), true, keep);
    if (pieces != want) std::abort();
  }
  return 0;
}
