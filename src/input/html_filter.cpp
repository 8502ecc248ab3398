#include "spellcheck/input/detail/html_filter.hpp"
#include "spellcheck/common/utf8.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include "spellcheck/input/tokenizer.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spellcheck {

namespace {

// ---------------------------------------------------------------------------
// Character references.

// A word compacted after decoded references holds its freed bytes until it
// ends; at most this many, so that they and an unfinished reference after
// them stay within kMarkupMaxHeld. A reference that would free more is
// blanked instead.
constexpr size_t kMaxGap = 200;
// Longer than any reference: "&" this long without ';' is text.
constexpr size_t kMaxEntity = 32;
static_assert(kMaxGap + kMaxEntity + 4 <= kMarkupMaxHeld);

// The named references of HTML 4 that are letters (Latin-1, Latin
// Extended, Greek), apostrophes, or common separators. A name not listed is
// text: "AT&T;" stays as it is.
struct NamedRef {
  std::string_view name;
  uint32_t cp;
};

constexpr NamedRef kNamedRefs[] = {
    {"AElig", 0xC6},    {"Aacute", 0xC1},   {"Acirc", 0xC2},    {"Agrave", 0xC0},   {"Alpha", 0x391},
    {"Aring", 0xC5},    {"Atilde", 0xC3},   {"Auml", 0xC4},     {"Beta", 0x392},    {"Ccedil", 0xC7},
    {"Chi", 0x3A7},     {"Dagger", 0x2021}, {"Delta", 0x394},   {"ETH", 0xD0},      {"Eacute", 0xC9},
    {"Ecirc", 0xCA},    {"Egrave", 0xC8},   {"Epsilon", 0x395}, {"Eta", 0x397},     {"Euml", 0xCB},
    {"Gamma", 0x393},   {"Iacute", 0xCD},   {"Icirc", 0xCE},    {"Igrave", 0xCC},   {"Iota", 0x399},
    {"Iuml", 0xCF},     {"Kappa", 0x39A},   {"Lambda", 0x39B},  {"Mu", 0x39C},      {"Ntilde", 0xD1},
    {"Nu", 0x39D},      {"OElig", 0x152},   {"Oacute", 0xD3},   {"Ocirc", 0xD4},    {"Ograve", 0xD2},
    {"Omega", 0x3A9},   {"Omicron", 0x39F}, {"Oslash", 0xD8},   {"Otilde", 0xD5},   {"Ouml", 0xD6},
    {"Phi", 0x3A6},     {"Pi", 0x3A0},      {"Prime", 0x2033},  {"Psi", 0x3A8},     {"Rho", 0x3A1},
    {"Scaron", 0x160},  {"Sigma", 0x3A3},   {"THORN", 0xDE},    {"Tau", 0x3A4},     {"Theta", 0x398},
    {"Uacute", 0xDA},   {"Ucirc", 0xDB},    {"Ugrave", 0xD9},   {"Upsilon", 0x3A5}, {"Uuml", 0xDC},
    {"Xi", 0x39E},      {"Yacute", 0xDD},   {"Yuml", 0x178},    {"Zeta", 0x396},    {"aacute", 0xE1},
    {"acirc", 0xE2},    {"acute", 0xB4},    {"aelig", 0xE6},    {"agrave", 0xE0},   {"alpha", 0x3B1},
    {"amp", 0x26},      {"apos", 0x27},     {"aring", 0xE5},    {"atilde", 0xE3},   {"auml", 0xE4},
    {"bdquo", 0x201E},  {"beta", 0x3B2},    {"brvbar", 0xA6},   {"bull", 0x2022},   {"ccedil", 0xE7},
    {"cedil", 0xB8},    {"cent", 0xA2},     {"chi", 0x3C7},     {"copy", 0xA9},     {"curren", 0xA4},
    {"dArr", 0x21D3},   {"dagger", 0x2020}, {"darr", 0x2193},   {"deg", 0xB0},      {"delta", 0x3B4},
    {"divide", 0xF7},   {"eacute", 0xE9},   {"ecirc", 0xEA},    {"egrave", 0xE8},   {"emsp", 0x2003},
    {"ensp", 0x2002},   {"epsilon", 0x3B5}, {"eta", 0x3B7},     {"eth", 0xF0},      {"euml", 0xEB},
    {"euro", 0x20AC},   {"fnof", 0x192},    {"frac12", 0xBD},   {"frac14", 0xBC},   {"frac34", 0xBE},
    {"gamma", 0x3B3},   {"ge", 0x2265},     {"gt", 0x3E},       {"hArr", 0x21D4},   {"harr", 0x2194},
    {"hellip", 0x2026}, {"iacute", 0xED},   {"icirc", 0xEE},    {"iexcl", 0xA1},    {"igrave", 0xEC},
    {"iota", 0x3B9},    {"iquest", 0xBF},   {"iuml", 0xEF},     {"kappa", 0x3BA},   {"lArr", 0x21D0},
    {"lambda", 0x3BB},  {"laquo", 0xAB},    {"larr", 0x2190},   {"ldquo", 0x201C},  {"le", 0x2264},
    {"lrm", 0x200E},    {"lsaquo", 0x2039}, {"lsquo", 0x2018},  {"lt", 0x3C},       {"macr", 0xAF},
    {"mdash", 0x2014},  {"micro", 0xB5},    {"middot", 0xB7},   {"minus", 0x2212},  {"mu", 0x3BC},
    {"nbsp", 0xA0},     {"ndash", 0x2013},  {"ne", 0x2260},     {"not", 0xAC},      {"ntilde", 0xF1},
    {"nu", 0x3BD},      {"oacute", 0xF3},   {"ocirc", 0xF4},    {"oelig", 0x153},   {"ograve", 0xF2},
    {"omega", 0x3C9},   {"omicron", 0x3BF}, {"ordf", 0xAA},     {"ordm", 0xBA},     {"oslash", 0xF8},
    {"otilde", 0xF5},   {"ouml", 0xF6},     {"para", 0xB6},     {"permil", 0x2030}, {"phi", 0x3C6},
    {"pi", 0x3C0},      {"plusmn", 0xB1},   {"pound", 0xA3},    {"prime", 0x2032},  {"psi", 0x3C8},
    {"quot", 0x22},     {"rArr", 0x21D2},   {"raquo", 0xBB},    {"rarr", 0x2192},   {"rdquo", 0x201D},
    {"reg", 0xAE},      {"rho", 0x3C1},     {"rlm", 0x200F},    {"rsaquo", 0x203A}, {"rsquo", 0x2019},
    {"sbquo", 0x201A},  {"scaron", 0x161},  {"sect", 0xA7},     {"shy", 0xAD},      {"sigma", 0x3C3},
    {"sigmaf", 0x3C2},  {"sup1", 0xB9},     {"sup2", 0xB2},     {"sup3", 0xB3},     {"szlig", 0xDF},
    {"tau", 0x3C4},     {"theta", 0x3B8},   {"thinsp", 0x2009}, {"thorn", 0xFE},    {"times", 0xD7},
    {"trade", 0x2122},  {"uArr", 0x21D1},   {"uacute", 0xFA},   {"uarr", 0x2191},   {"ucirc", 0xFB},
    {"ugrave", 0xF9},   {"uml", 0xA8},      {"upsilon", 0x3C5}, {"uuml", 0xFC},     {"xi", 0x3BE},
    {"yacute", 0xFD},   {"yen", 0xA5},      {"yuml", 0xFF},     {"zeta", 0x3B6},    {"zwj", 0x200D},
    {"zwnj", 0x200C},
};

constexpr bool refs_sorted() {
  for (size_t i = 1; i < std::size(kNamedRefs); ++i)
    if (!(kNamedRefs[i - 1].name < kNamedRefs[i].name)) return false;
  return true;
}
static_assert(refs_sorted(), "kNamedRefs must be sorted by name (binary search)");

// The code point of a named reference; 0 for a name not listed.
uint32_t named_ref(std::string_view name) {
  const auto* it = std::lower_bound(std::begin(kNamedRefs), std::end(kNamedRefs), name,
                                    [](const NamedRef& r, std::string_view s) { return r.name < s; });
  return it != std::end(kNamedRefs) && it->name == name ? it->cp : 0;
}

struct Entity {
  enum Kind : uint8_t { none, incomplete, blank, decode } kind = none;
  uint8_t len = 0;   // of the reference, '&' to ';'
  uint8_t dlen = 0;  // of the decoded bytes (decode)
  unsigned char bytes[4] = {};
};

// What the reference's code point does: a word character is decoded, an
// apostrophe (' or U+2019) decoded as ', anything else blanked.
Entity classify(uint32_t cp, size_t len) {
  Entity e;
  e.len = static_cast<uint8_t>(len);
  if (cp == '\'' || cp == 0x2019) {
    e.kind = Entity::decode;
    e.bytes[0] = '\'';
    e.dlen = 1;
  } else if (is_word_code_point(cp)) {
    e.kind = Entity::decode;
    e.dlen = static_cast<uint8_t>(write_utf8(cp, e.bytes));
  } else {
    e.kind = Entity::blank;
  }
  return e;
}

int digit_value(unsigned char b, bool hex) {
  if (b >= '0' && b <= '9') return b - '0';
  const unsigned char l = b | 0x20;
  if (hex && l >= 'a' && l <= 'f') return l - 'a' + 10;
  return -1;
}

bool is_alpha(unsigned char b) { return static_cast<unsigned char>((b | 0x20) - 'a') < 26; }

// The reference at p[0] == '&', avail bytes known; incomplete when the bytes
// end before it is decided (and more follow).
Entity parse_entity(const unsigned char* p, size_t avail, bool at_end) {
  size_t i = 1;
  const bool numeric = i < avail && p[i] == '#';
  bool hex = false;
  if (numeric && ++i < avail && (p[i] | 0x20) == 'x') hex = true, ++i;
  const size_t start = i;
  uint32_t cp = 0;
  for (; i < avail && i < kMaxEntity; ++i) {
    const unsigned char b = p[i];
    if (b == ';') break;
    if (numeric) {
      const int d = digit_value(b, hex);
      if (d < 0) return {};
      cp = std::min<uint32_t>(cp * (hex ? 16 : 10) + static_cast<uint32_t>(d), 0x110000);
    } else if (!is_alpha(b) && (i == start || digit_value(b, false) < 0)) {
      return {};
    }
  }
  if (i == avail && i < kMaxEntity) return {at_end ? Entity::none : Entity::incomplete};
  if (i >= kMaxEntity || i == start) return {};
  if (!numeric) {
    cp = named_ref(std::string_view(reinterpret_cast<const char*>(p + start), i - start));
    if (cp == 0) return {};
  }
  return classify(cp, i + 1);
}

// ---------------------------------------------------------------------------
// Byte classes.

using ByteSet = std::array<bool, 256>;

constexpr ByteSet byte_set(std::string_view bytes) {
  ByteSet s{};
  for (const char c : bytes) s[static_cast<unsigned char>(c)] = true;
  return s;
}

constexpr ByteSet kSpace = byte_set(" \t\n\r\f");
// Where prose ends: text at a tag, a kept attribute value at its quote or,
// unquoted, at a space or the tag's end.
constexpr ByteSet kTextStop = byte_set("<");
constexpr ByteSet kDoubleStop = byte_set("\"");
constexpr ByteSet kSingleStop = byte_set("'");
constexpr ByteSet kBareStop = byte_set(" \t\n\r\f>");

// A blanked byte: ' ', but '\n' stays.
void blank(unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = p[i] == '\n' ? '\n' : ' ';
}

// The first '<' or '&' in p[i, n), or n.
size_t find_tag_or_ref(const unsigned char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  const __m128i lt = _mm_set1_epi8('<'), amp = _mm_set1_epi8('&');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const unsigned m =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, amp))));
    if (m != 0) return i + static_cast<size_t>(std::countr_zero(m));
  }
#endif
  for (; i < n; ++i)
    if (p[i] == '<' || p[i] == '&') return i;
  return n;
}

bool starts_with(const unsigned char* p, size_t avail, std::string_view s) {
  return avail >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
}

// The elements whose content is code, not prose: skipped to their end tag.
constexpr std::string_view kCodeElements[] = {"script", "style", "code", "pre", "kbd", "samp", "var", "tt"};
constexpr size_t kMaxName = 8;  // the longest name worth keeping (attribute or element)

// Where the filter is.
enum class State : uint8_t {
  text,         // prose, looking for '<' and '&'
  tag_name,     // in a start tag's name
  before_attr,  // in a start tag, before an attribute (or its end)
  attr_name,
  after_attr_name,
  before_value,  // after '='
  value,         // an attribute's value (kept for alt and title)
  skip_to,       // in a comment, declaration, end tag...: skipping to term_
  code_element,  // in a code element's content: skipping to its end tag
};

// One call's bytes: buf[0, w) are done; r is the next byte to read. In a
// word being compacted after a decoded reference, w < r and [w, r) are
// free; elsewhere w == r.
struct Cursor {
  unsigned char* buf;
  size_t n, r, w;
  bool at_end;
};

class HtmlFilter final : public MarkupFilter {
 public:
  size_t filter(unsigned char* buf, size_t n, bool at_end) override {
    Cursor c{buf, n, std::min(gap_, n), 0, at_end};
    gap_ = 0;
    while (c.r < c.n && step(c)) {
    }
    if (at_end) {
      blank(buf + c.w, n - c.w);  // the free bytes of a word compacted to the end
      return n;
    }
    gap_ = c.r - c.w;  // next call: they come first, free, then byte r
    return c.w;
  }

 private:
  // One state's work; false: wait for more bytes (the cursor's bytes from r
  // on are held back).
  bool step(Cursor& c) {
    switch (state_) {
      case State::text: return prose(c, kTextStop);
      case State::tag_name: return tag_name(c);
      case State::before_attr: return before_attr(c);
      case State::attr_name: return attr_name(c);
      case State::after_attr_name: return after_attr_name(c);
      case State::before_value: return before_value(c);
      case State::value: return value(c);
      case State::skip_to: return skip_to(c);
      case State::code_element: return code_element(c);
    }
    return true;
  }

  // Text or a kept attribute value: bytes stay, references are decoded or
  // blanked, up to the first byte of stop.
  bool prose(Cursor& c, const ByteSet& stop) {
    if (c.r > c.w) return compact(c, stop);
    size_t i = c.r;
    if (state_ == State::text) {
      i = find_tag_or_ref(c.buf, i, c.n);
    } else {
      while (i < c.n && !stop[c.buf[i]] && c.buf[i] != '&') ++i;
    }
    c.r = c.w = i;
    if (i == c.n) return true;
    if (c.buf[i] == '&') return reference(c);
    return state_ == State::text ? open_tag(c) : end_value(c);
  }

  // After a decoded reference: the rest of the word moves up to w, up to the
  // word's end, where the freed bytes are blanked.
  bool compact(Cursor& c, const ByteSet& stop) {
    while (c.r < c.n) {
      const unsigned char b = c.buf[c.r];
      if (stop[b]) break;
      if (b == '&') return reference(c);
      int len = 1;
      if (b >= 0x80) {
        len = tok_detail::is_rsquo(c.buf + c.r, c.buf + c.n) ? 3
                                                             : tok_detail::multibyte_word_len(c.buf + c.r, c.buf + c.n);
        if (len < 0 && !c.at_end) return false;
        if (len <= 0) break;
      } else if (b != '\'' && is_safe_split(b)) {
        break;
      }
      std::memmove(c.buf + c.w, c.buf + c.r, static_cast<size_t>(len));
      c.w += static_cast<size_t>(len);
      c.r += static_cast<size_t>(len);
    }
    if (c.r == c.n && !c.at_end) return true;  // the word may go on
    end_word(c);
    return true;
  }

  static void end_word(Cursor& c) {
    blank(c.buf + c.w, c.r - c.w);
    c.w = c.r;
  }

  // At '&' in prose.
  bool reference(Cursor& c) {
    const Entity e = parse_entity(c.buf + c.r, c.n - c.r, c.at_end);
    if (e.kind == Entity::incomplete) return false;
    if (e.kind == Entity::decode && c.r - c.w + e.len - e.dlen <= kMaxGap) {
      std::memcpy(c.buf + c.w, e.bytes, e.dlen);
      c.w += e.dlen;
      c.r += e.len;
      return true;
    }
    end_word(c);
    if (e.kind == Entity::none) {
      c.w = ++c.r;  // '&' is text (and a separator)
    } else {
      blank(c.buf + c.r, e.len);
      c.w = c.r += e.len;
    }
    return true;
  }

  // At '<' in text: what it opens (a lone '<' is text).
  bool open_tag(Cursor& c) {
    const unsigned char* p = c.buf + c.r;
    const size_t avail = c.n - c.r;
    if (avail < 9 && !c.at_end) return false;  // "<![CDATA[" decides
    const unsigned char b1 = avail > 1 ? p[1] : 0;
    if (b1 == '!') {
      if (starts_with(p, avail, "<!-->")) return skip_now(c, 5);  // empty comments
      if (starts_with(p, avail, "<!--->")) return skip_now(c, 6);
      if (starts_with(p, avail, "<!--")) return skip_to_term(c, 4, "-->");
      if (starts_with(p, avail, "<![CDATA[")) return skip_to_term(c, 9, "]]>");
      return skip_to_term(c, 2, ">");  // <!DOCTYPE ...>, <!...>
    }
    if (b1 == '?' || b1 == '/') return skip_to_term(c, 2, ">");  // <?...>, end tags
    if (!is_alpha(b1)) {
      c.w = ++c.r;
      return true;
    }
    c.buf[c.r] = ' ';
    c.w = ++c.r;
    name_len_ = 0;
    state_ = State::tag_name;
    return true;
  }

  bool skip_now(Cursor& c, size_t len) {
    blank(c.buf + c.r, len);
    c.w = c.r += len;
    return true;
  }

  bool skip_to_term(Cursor& c, size_t open_len, std::string_view term) {
    skip_now(c, open_len);
    term_ = term;
    state_ = State::skip_to;
    return true;
  }

  // Blanks up to and with term_ (ending in '>'). The last term_.size() - 1
  // bytes of a piece are held back unblanked: a term_ may start in them.
  bool skip_to(Cursor& c) {
    const size_t tl = term_.size();
    for (size_t i = c.r; i < c.n; ++i) {
      const auto* q = static_cast<const unsigned char*>(std::memchr(c.buf + i, '>', c.n - i));
      if (q == nullptr) break;
      i = static_cast<size_t>(q - c.buf);
      if (i + 1 >= tl && std::memcmp(q + 1 - tl, term_.data(), tl - 1) == 0) {
        skip_now(c, i + 1 - c.r);
        state_ = State::text;
        return true;
      }
    }
    const size_t held = c.at_end ? 0 : std::min(tl - 1, c.n - c.r);
    skip_now(c, c.n - held - c.r);
    return held == 0;
  }

  bool tag_name(Cursor& c) {
    for (; c.r < c.n; ++c.r) {
      const unsigned char b = c.buf[c.r];
      if (kSpace[b] || b == '/' || b == '>') {
        code_element_ = code_element_index();
        self_closing_ = false;
        state_ = State::before_attr;
        break;
      }
      if (name_len_ < kMaxName + 1) name_[name_len_++] = static_cast<char>(b | 0x20);
      c.buf[c.r] = ' ';
    }
    c.w = c.r;
    return true;
  }

  int code_element_index() const {
    const std::string_view name(name_, name_len_);
    for (size_t i = 0; i < std::size(kCodeElements); ++i)
      if (kCodeElements[i] == name) return static_cast<int>(i);
    return -1;
  }

  bool before_attr(Cursor& c) {
    for (; c.r < c.n; ++c.r) {
      const unsigned char b = c.buf[c.r];
      if (b == '>') {
        c.buf[c.r++] = ' ';
        // XHTML's <code/> is empty: nothing to skip.
        state_ = code_element_ >= 0 && !self_closing_ ? State::code_element : State::text;
        break;
      }
      if (!kSpace[b] && b != '/') {
        self_closing_ = false;
        attr_len_ = 0;
        state_ = State::attr_name;
        break;
      }
      self_closing_ = b == '/';
      if (b != '\n') c.buf[c.r] = ' ';
    }
    c.w = c.r;
    return true;
  }

  bool attr_name(Cursor& c) {
    for (; c.r < c.n; ++c.r) {
      const unsigned char b = c.buf[c.r];
      if (kSpace[b] || b == '=' || b == '>' || b == '/') {
        state_ = State::after_attr_name;
        break;
      }
      if (attr_len_ < kMaxName + 1) attr_[attr_len_++] = static_cast<char>(b | 0x20);
      c.buf[c.r] = ' ';
    }
    c.w = c.r;
    return true;
  }

  bool after_attr_name(Cursor& c) {
    for (; c.r < c.n; ++c.r) {
      const unsigned char b = c.buf[c.r];
      if (b == '=') {
        c.buf[c.r++] = ' ';
        state_ = State::before_value;
        break;
      }
      if (!kSpace[b]) {
        state_ = State::before_attr;  // an attribute without a value
        break;
      }
      if (b != '\n') c.buf[c.r] = ' ';
    }
    c.w = c.r;
    return true;
  }

  bool before_value(Cursor& c) {
    for (; c.r < c.n; ++c.r) {
      const unsigned char b = c.buf[c.r];
      if (b == '>') {
        state_ = State::before_attr;
        break;
      }
      if (!kSpace[b]) {
        quote_ = b == '"' || b == '\'' ? b : 0;
        if (quote_ != 0) c.buf[c.r++] = ' ';
        const std::string_view name(attr_, attr_len_);
        keep_value_ = name == "alt" || name == "title";
        state_ = State::value;
        break;
      }
      if (b != '\n') c.buf[c.r] = ' ';
    }
    c.w = c.r;
    return true;
  }

  bool value(Cursor& c) {
    const ByteSet& stop = quote_ == '"' ? kDoubleStop : quote_ == '\'' ? kSingleStop : kBareStop;
    if (keep_value_) return prose(c, stop);
    size_t i = c.r;
    while (i < c.n && !stop[c.buf[i]]) ++i;
    blank(c.buf + c.r, i - c.r);
    c.w = c.r = i;
    return i == c.n || end_value(c);
  }

  // At the byte that ends a value: a quote is blanked.
  bool end_value(Cursor& c) {
    if (quote_ != 0) c.buf[c.r++] = ' ';
    c.w = c.r;
    state_ = State::before_attr;
    return true;
  }

  // In a code element: blanks up to its end tag (which open_tag then
  // blanks). An unfinished "</na" at a piece's end is held back.
  bool code_element(Cursor& c) {
    const std::string_view name = kCodeElements[code_element_];
    for (size_t i = c.r; i < c.n; ++i) {
      const auto* q = static_cast<const unsigned char*>(std::memchr(c.buf + i, '<', c.n - i));
      if (q == nullptr) break;
      i = static_cast<size_t>(q - c.buf);
      const size_t avail = c.n - i;
      if (avail < name.size() + 3 && !c.at_end) {
        skip_now(c, i - c.r);
        return false;
      }
      if (is_end_tag(q, avail, name)) {
        skip_now(c, i - c.r);
        state_ = State::text;
        return true;
      }
    }
    skip_now(c, c.n - c.r);
    return true;
  }

  // "</name" then a space, '/', '>' or the end; name's case does not matter.
  static bool is_end_tag(const unsigned char* p, size_t avail, std::string_view name) {
    if (avail < name.size() + 2 || p[1] != '/') return false;
    for (size_t k = 0; k < name.size(); ++k)
      if ((p[2 + k] | 0x20) != static_cast<unsigned char>(name[k])) return false;
    const size_t after = name.size() + 2;
    return avail == after || kSpace[p[after]] || p[after] == '/' || p[after] == '>';
  }

  State state_ = State::text;
  size_t gap_ = 0;         // free bytes at the next call's start (a word being compacted)
  std::string_view term_;  // skip_to: what ends the skipped construct
  int code_element_ = -1;  // the start tag's code element (kCodeElements), or -1
  bool self_closing_ = false;
  bool keep_value_ = false;  // the value of alt or title
  unsigned char quote_ = 0;  // the value's quote; 0 when unquoted
  size_t name_len_ = 0, attr_len_ = 0;
  char name_[kMaxName + 1] = {}, attr_[kMaxName + 1] = {};  // lower case; one longer: no match
};

}  // namespace

std::unique_ptr<MarkupFilter> make_html_filter() { return std::make_unique<HtmlFilter>(); }

}  // namespace spellcheck
