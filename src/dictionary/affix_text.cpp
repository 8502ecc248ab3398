#include "spellcheck/dictionary/affix_text.hpp"

#include <iconv.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <cerrno>
#include <numeric>
#include <stdexcept>

namespace spellcheck {

namespace {

bool is_turkic(std::string_view lang) {
  const std::string l = language_of(lang);
  return l == "tr" || l == "az" || l == "crh";
}

// Union-find root with path halving.
char32_t find_root(std::vector<char32_t>& parent, char32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// hunspell's encoding names, lowered and stripped of punctuation, to iconv's.
std::string iconv_name(std::string_view set) {
  std::string n;
  for (char c : set)
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) n += c;
    else if (c >= 'A' && c <= 'Z') n += static_cast<char>(c + 32);
  if (n == "utf8") return "UTF-8";
  if (n.rfind("iso8859", 0) == 0 && n.size() > 7) {
    const std::string part = n.substr(7);
    if (part == "11") return "TIS-620";
    static const char* const known[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "13", "14", "15"};
    for (const char* k : known)
      if (part == k) return "ISO-8859-" + part;
    return "";
  }
  if (n == "tis620" || n == "tis6202533") return "TIS-620";
  if (n == "koi8r") return "KOI8-R";
  if (n == "koi8u") return "KOI8-U";
  if (n == "cp1251" || n == "microsoftcp1251") return "CP1251";
  return "";
}

}  // namespace

std::string language_of(std::string_view lang) {
  const size_t cut = lang.find_first_of("_-");
  std::string l(lang.substr(0, cut));
  for (char& c : l)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  return l;
}

namespace {

// hunspell 1.7's case table is Unicode 4.1's: ICU's simple mappings between
// code points that Unicode 4.1 had, but none for the roman numerals and
// circled letters (symbols to hunspell), and U+0241 paired with U+0294 as
// 4.1 paired them. Checked against hunspell's table: the same on every BMP
// code point (tests/dictionary/affix_text_test.cpp samples it).
bool in_unicode_4_1(char32_t c) {
  UVersionInfo v;
  u_charAge(static_cast<UChar32>(c), v);
  return v[0] < 4 || (v[0] == 4 && v[1] <= 1);
}

char32_t mapped(char32_t c, bool to_upper) {
  if (c >= 0x10000 || !in_unicode_4_1(c)) return c;
  if ((c >= 0x2160 && c <= 0x217F) || (c >= 0x24B6 && c <= 0x24E9)) return c;
  if (c == 0x241) return to_upper ? c : 0x294;
  if (c == 0x294) return to_upper ? 0x241 : c;
  const auto m =
      static_cast<char32_t>(to_upper ? u_toupper(static_cast<UChar32>(c)) : u_tolower(static_cast<UChar32>(c)));
  return in_unicode_4_1(m) ? m : c;
}

}  // namespace

const LetterCase::Tables& LetterCase::tables(bool turkic) {
  static const auto make = [](bool tk) {
    Tables t;
    t.lower.resize(0x10000);
    t.upper.resize(0x10000);
    t.fold.resize(0x10000);
    for (char32_t c = 0; c < 0x10000; ++c) {
      t.lower[c] = static_cast<char16_t>(mapped(c, false));
      t.upper[c] = static_cast<char16_t>(mapped(c, true));
    }
    if (tk) {
      t.lower[U'I'] = 0x131;
      t.upper[U'i'] = 0x130;
    }
    // A code point's case class: the code points that lowering and raising
    // join it with (İ with i, ſ with s and S, ...). Every class is folded to
    // its smallest member, so a word and its case variants fold alike.
    std::iota(t.fold.begin(), t.fold.end(), char32_t{0});
    const auto join = [&](char32_t a, char32_t b) {
      const char32_t ra = find_root(t.fold, a), rb = find_root(t.fold, b);
      if (ra != rb) t.fold[std::max(ra, rb)] = std::min(ra, rb);
    };
    for (char32_t c = 0; c < 0x10000; ++c) {
      join(c, t.lower[c]);
      join(c, t.upper[c]);
    }
    for (char32_t c = 0; c < 0x10000; ++c) t.fold[c] = find_root(t.fold, c);
    return t;
  };
  static const Tables plain = make(false), turkish = make(true);
  return turkic ? turkish : plain;
}

LetterCase::LetterCase(std::string_view lang) : turkic_(is_turkic(lang)), t_(&tables(turkic_)) {}

char32_t LetterCase::lower(char32_t c) const { return c < 0x10000 ? t_->lower[c] : c; }

char32_t LetterCase::upper(char32_t c) const { return c < 0x10000 ? t_->upper[c] : c; }

char32_t LetterCase::fold(char32_t c) const { return c < 0x10000 ? t_->fold[c] : c; }

Capitalisation LetterCase::kind(std::u32string_view w) const {
  size_t capitals = 0, caseless = 0;
  for (char32_t c : w) {
    const char32_t lo = lower(c);
    if (lo != c) ++capitals;
    if (upper(c) == lo) ++caseless;
  }
  if (capitals == 0) return Capitalisation::none;
  const bool first = lower(w[0]) != w[0];
  if (capitals == 1 && first) return Capitalisation::initial;
  if (capitals == w.size() || capitals + caseless == w.size()) return Capitalisation::all;
  if (capitals > 1 && first) return Capitalisation::mixed_initial;
  return Capitalisation::mixed;
}

Capitalisation LetterCase::kind(std::string_view utf8) const {
  thread_local std::u32string w;
  decode_utf8(utf8, w);
  return kind(std::u32string_view(w));
}

std::string LetterCase::to_lower(std::string_view utf8) const {
  std::string out;
  out.reserve(utf8.size());
  thread_local std::u32string w;
  decode_utf8(utf8, w);
  for (char32_t c : w) append_utf8(out, lower(c));
  return out;
}

std::string LetterCase::to_upper(std::string_view utf8) const {
  std::string out;
  out.reserve(utf8.size());
  thread_local std::u32string w;
  decode_utf8(utf8, w);
  for (char32_t c : w) append_utf8(out, upper(c));
  return out;
}

std::string LetterCase::raise_first(std::string_view utf8) const {
  if (utf8.empty()) return std::string();
  const size_t n = utf8_length_at(utf8, 0);
  char32_t cp[4];
  decode_utf8(utf8.substr(0, n), cp);
  std::string out;
  out.reserve(utf8.size() + 2);
  append_utf8(out, upper(cp[0]));
  out.append(utf8.substr(n));
  return out;
}

void LetterCase::fold_key(std::string_view utf8, std::string& out) const {
  out.clear();
  size_t begin = 0, end = utf8.size();
  while (end > 0 && utf8[end - 1] == '.') --end;
  while (begin < end && utf8[begin] == '.') ++begin;  // the end of a word checked reversed (COMPLEXPREFIXES)
  for (size_t i = begin; i < end;) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    if (b < 0x80) {  // ASCII folds to ASCII
      out += static_cast<char>(t_->fold[b]);
      ++i;
      continue;
    }
    const size_t n = utf8_length_at(utf8, i);
    char32_t cp[4];
    decode_utf8(utf8.substr(i, n), cp);
    i += n;
    const char32_t f = fold(cp[0]);
    if (f == 0xDF || f == 0x1E9E) {  // ß, ẞ: as the "ss" hunspell tries in their place
      out += "ss";
      continue;
    }
    append_utf8(out, f);
  }
}

bool known_charset(std::string_view set) { return !iconv_name(set).empty(); }

std::string to_utf8(std::string_view bytes, std::string_view set) {
  const std::string name = iconv_name(set);
  if (name.empty()) throw std::invalid_argument("unknown character set '" + std::string(set) + "'");
  if (name == "UTF-8") return std::string(bytes);
  iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1))
    throw std::invalid_argument("character set '" + std::string(set) + "' is not available here");
  std::string out(bytes.size() * 4 + 16, '\0');
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  char* dst = out.data();
  size_t out_left = out.size();
  while (in_left > 0) {
    if (iconv(cd, &in, &in_left, &dst, &out_left) != static_cast<size_t>(-1)) break;
    if (errno == EILSEQ || errno == EINVAL) {  // a byte the set does not define: U+FFFD
      ++in;
      --in_left;
      const char repl[] = "\xEF\xBF\xBD";
      if (out_left < 3) break;
      std::copy(repl, repl + 3, dst);
      dst += 3;
      out_left -= 3;
      continue;
    }
    break;
  }
  iconv_close(cd);
  out.resize(out.size() - out_left);
  return out;
}

}  // namespace spellcheck
