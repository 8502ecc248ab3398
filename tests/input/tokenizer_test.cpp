// SPEC tokenizer: every rule, each excluded block edge, malformed UTF-8,
// apostrophes, numbers, the length limit, streaming, and a randomized
// comparison against a naive code-point-by-code-point reference.
#include "spellcheck/input/tokenizer.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace spellcheck;

namespace {

using Tok = std::pair<std::string, size_t>;

std::vector<Tok> toks(std::string_view s) {
  std::vector<Tok> out;
  for_each_token(s, [&](std::string_view t, size_t off) { out.emplace_back(std::string(t), off); });
  return out;
}

std::vector<std::string> words(std::string_view s) { return tokenize(s); }

// Every way of classifying blocks this CPU has (scalar and, on x86-64, SSE2,
// AVX2, AVX-512): the randomized tests below run each one.
std::vector<tok_detail::BlockIsa> isas_here() {
  using tok_detail::BlockIsa;
  std::vector<BlockIsa> out;
  for (BlockIsa isa : {BlockIsa::scalar, BlockIsa::sse2, BlockIsa::avx2, BlockIsa::avx512bw})
    if (tok_detail::cpu_has(isa)) out.push_back(isa);
  return out;
}

std::vector<Tok> toks_with(tok_detail::BlockIsa isa, std::string_view s) {
  std::vector<Tok> out;
  scan_tokens_with(isa, s, true, [&](std::string_view t, size_t off) { out.emplace_back(std::string(t), off); });
  return out;
}

std::string enc(uint32_t cp) {  // UTF-8 of a code point (also surrogates, for tests)
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

// The SPEC's excluded blocks, written out independently of the header.
const std::vector<std::pair<uint32_t, uint32_t>> kExcluded = {
    {0x80, 0xBF},     {0xD7, 0xD7},     {0xF7, 0xF7},     {0x2000, 0x2BFF}, {0x3000, 0x303F}, {0xFE00, 0xFE6F},
    {0xFEFF, 0xFEFF}, {0xFF00, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFF3B, 0xFF40}, {0xFF5B, 0xFF65}, {0x1F000, 0x1FAFF},
};

bool ref_is_word(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
  for (auto [lo, hi] : kExcluded)
    if (cp >= lo && cp <= hi) return false;
  return true;
}

// Naive reference: decode unit by unit, then group WORD (APOS WORD)*.
std::vector<Tok> ref_toks(std::string_view s) {
  enum Kind { W, A, S };
  struct Unit {
    size_t off, len;
    Kind kind;
  };
  std::vector<Unit> units;
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  size_t i = 0;
  while (i < s.size()) {
    const unsigned c = b[i];
    if (c < 0x80) {
      units.push_back({i, 1, c == '\'' ? A : ref_is_word(c) ? W : S});
      ++i;
      continue;
    }
    size_t n = c >= 0xF0 && c <= 0xF7 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC0 && c <= 0xDF ? 2 : 0;
    bool ok = n > 0 && i + n <= s.size();
    uint32_t cp = n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; ok && k < n; ++k) {
      if ((b[i + k] & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (b[i + k] & 0x3F);
    }
    if (ok) {
      const uint32_t min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ok = false;
    }
    if (!ok) {
      units.push_back({i, 1, S});
      ++i;
      continue;
    }
    units.push_back({i, n, cp == 0x2019 ? A : ref_is_word(cp) ? W : S});
    i += n;
  }
  std::vector<Tok> out;
  size_t u = 0;
  while (u < units.size()) {
    if (units[u].kind != W) {
      ++u;
      continue;
    }
    std::string t(s.substr(units[u].off, units[u].len));
    const size_t off = units[u].off;
    ++u;
    for (;;) {
      if (u < units.size() && units[u].kind == W) {
        t += s.substr(units[u].off, units[u].len);
        ++u;
      } else if (u + 1 < units.size() && units[u].kind == A && units[u + 1].kind == W) {
        t += '\'';
        t += s.substr(units[u + 1].off, units[u + 1].len);
        u += 2;
      } else {
        break;
      }
    }
    out.emplace_back(std::move(t), off);
  }
  return out;
}

// Streaming: cut at k, scan the prefix non-final, resume from the returned
// offset; must equal the one-shot result.
std::vector<Tok> toks_split(std::string_view s, size_t k) {
  std::vector<Tok> out;
  const size_t r = scan_tokens(s.substr(0, k), false,
                               [&](std::string_view t, size_t off) { out.emplace_back(std::string(t), off); });
  REQUIRE(r <= k);
  scan_tokens(s.substr(r), true, [&](std::string_view t, size_t off) { out.emplace_back(std::string(t), off + r); });
  return out;
}

// "a" X "b": one token when X is a word character, two when a separator.
bool joins(const std::string& x) { return words("a" + x + "b").size() == 1; }

}  // namespace

TEST_CASE("ASCII words, punctuation, offsets") {
  CHECK(toks("Hello, world!") == std::vector<Tok>{{"Hello", 0}, {"world", 7}});
  CHECK(toks("") == std::vector<Tok>{});
  CHECK(toks("  ...  ") == std::vector<Tok>{});
  CHECK(toks("abc") == std::vector<Tok>{{"abc", 0}});
  CHECK(words("snake_case foo-bar a.b x@y") ==
        std::vector<std::string>{"snake", "case", "foo", "bar", "a", "b", "x", "y"});
  CHECK(words("tab\tsep\x01"
              "ctl\x7f"
              "del") == std::vector<std::string>{"tab", "sep", "ctl", "del"});
}

TEST_CASE("CRLF line ends") {
  CHECK(toks("one\r\ntwo\r\n") == std::vector<Tok>{{"one", 0}, {"two", 5}});
  CHECK(words("a\rb\nc") == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("apostrophes: only a single one between word characters") {
  CHECK(words("don't Aaron's") == std::vector<std::string>{"don't", "Aaron's"});
  CHECK(toks("'tis") == std::vector<Tok>{{"tis", 1}});
  CHECK(words("dogs'") == std::vector<std::string>{"dogs"});
  CHECK(words("dogs' tails") == std::vector<std::string>{"dogs", "tails"});
  CHECK(words("don''t") == std::vector<std::string>{"don", "t"});
  CHECK(words("a'b'c") == std::vector<std::string>{"a'b'c"});
  CHECK(words("'''") == std::vector<std::string>{});
  CHECK(words("'a'") == std::vector<std::string>{"a"});
  CHECK(words("x' y") == std::vector<std::string>{"x", "y"});
  CHECK(words("o'\xC3\xA9t\xC3\xA9") == std::vector<std::string>{"o'\xC3\xA9t\xC3\xA9"});  // o'été
  CHECK(words("\xC3\xA9'a") == std::vector<std::string>{"\xC3\xA9'a"});
  CHECK(words("a'\xE2\x80\x94") == std::vector<std::string>{"a"});  // a'—
  CHECK(words("a'`b") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("U+2019 is normalised to an apostrophe, only between word characters") {
  const std::string q = "\xE2\x80\x99";
  CHECK(toks("don" + q + "t") == std::vector<Tok>{{"don't", 0}});
  CHECK(toks(q + "tis") == std::vector<Tok>{{"tis", 3}});
  CHECK(words("dogs" + q) == std::vector<std::string>{"dogs"});
  CHECK(words("don" + q + q + "t") == std::vector<std::string>{"don", "t"});
  CHECK(words("don'" + q + "t") == std::vector<std::string>{"don", "t"});
  CHECK(words("don" + q + "'t") == std::vector<std::string>{"don", "t"});
  CHECK(toks("x rock" + q + "n" + q + "roll y") == std::vector<Tok>{{"x", 0}, {"rock'n'roll", 2}, {"y", 18}});
  CHECK(words("it's it" + q + "s") == std::vector<std::string>{"it's", "it's"});
  // Other quotes are separators: U+2018, U+201C, U+201D, U+02BC is a letter.
  CHECK(words("\xE2\x80\x98quoted\xE2\x80\x99") == std::vector<std::string>{"quoted"});
  CHECK(words("\xE2\x80\x9Chi\xE2\x80\x9D") == std::vector<std::string>{"hi"});
  CHECK(words("a\xE2\x80\x98"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xCA\xBC"
              "b") == std::vector<std::string>{"a\xCA\xBC"
                                               "b"});
  // Truncated U+2019 at the end of the text / before a word character.
  CHECK(words("don\xE2\x80") == std::vector<std::string>{"don"});
  CHECK(words("don\xE2\x80t") == std::vector<std::string>{"don", "t"});
}

TEST_CASE("numbers are skipped; 3rd and 0x1F are words") {
  TokenCounts c;
  std::vector<std::string> w;
  for_each_word("1 22 333 3rd 0x1F 1'2 12,5 v2 \xEF\xBC\x91", 64, c,
                [&](std::string_view t, size_t) { w.emplace_back(t); });
  // U+FF11 (fullwidth one) is not an ASCII digit: a word.
  CHECK(w == std::vector<std::string>{"3rd", "0x1F", "1'2", "v2", "\xEF\xBC\x91"});
  CHECK(c.skipped_numbers == 5);  // 1 22 333 12 5
  CHECK(c.tokens == 5);
  CHECK(c.skipped_long == 0);
  CHECK(is_ascii_number("0123456789"));
  CHECK_FALSE(is_ascii_number("12a"));
  CHECK_FALSE(is_ascii_number(""));
}

TEST_CASE("length limit: exactly max bytes is kept, max+1 skipped") {
  auto run = [](std::string_view text, size_t max) {
    TokenCounts c;
    std::vector<std::string> w;
    for_each_word(text, max, c, [&](std::string_view t, size_t) { w.emplace_back(t); });
    return std::make_pair(w, c);
  };
  {
    auto [w, c] = run("abcde abcdef", 5);
    CHECK(w == std::vector<std::string>{"abcde"});
    CHECK(c.skipped_long == 1);
    CHECK(c.tokens == 1);
  }
  {  // bytes, not characters: e-acute is 2 bytes
    auto [w, c] = run("\xC3\xA9\xC3\xA9 \xC3\xA9\xC3\xA9x", 4);
    CHECK(w == std::vector<std::string>{"\xC3\xA9\xC3\xA9"});
    CHECK(c.skipped_long == 1);
  }
  {  // the normalised length counts: ab’cd is 5 bytes after normalisation
    auto [w, c] =
        run("ab\xE2\x80\x99"
            "cd ab\xE2\x80\x99"
            "cde",
            5);
    CHECK(w == std::vector<std::string>{"ab'cd"});
    CHECK(c.skipped_long == 1);
  }
  {  // long numbers are numbers
    auto [w, c] = run("1234567 12345", 5);
    CHECK(w.empty());
    CHECK(c.skipped_numbers == 2);
    CHECK(c.skipped_long == 0);
  }
  {  // default 64
    const std::string a64(64, 'a'), a65(65, 'a');
    auto [w, c] = run(a64 + " " + a65, 64);
    CHECK(w == std::vector<std::string>{a64});
    CHECK(c.skipped_long == 1);
  }
}

TEST_CASE("excluded blocks: first and last code point, and the ones just outside") {
  for (const auto& block : kExcluded) {
    const auto lo = block.first, hi = block.second;  // clang 14 cannot capture a structured binding
    CAPTURE(lo);
    CAPTURE(hi);
    CHECK_FALSE(joins(enc(lo)));
    CHECK_FALSE(joins(enc(hi)));
    CHECK_FALSE(is_word_code_point(lo));
    CHECK_FALSE(is_word_code_point(hi));
    if (lo - 1 >= 0x80) CHECK(joins(enc(lo - 1)) == ref_is_word(lo - 1));
    CHECK(joins(enc(hi + 1)) == ref_is_word(hi + 1));
  }
  // The neighbours spelled out.
  CHECK(joins(enc(0xC0)));
  CHECK(joins(enc(0xD6)));
  CHECK(joins(enc(0xD8)));
  CHECK(joins(enc(0xF6)));
  CHECK(joins(enc(0xF8)));
  CHECK(joins(enc(0x1FFF)));
  CHECK(joins(enc(0x2C00)));
  CHECK(joins(enc(0x2FFF)));
  CHECK(joins(enc(0x3040)));
  CHECK(joins(enc(0xFDFF)));
  CHECK(joins(enc(0xFE70)));
  CHECK(joins(enc(0xFEFE)));
  CHECK(joins(enc(0xFF10)));
  CHECK(joins(enc(0xFF19)));
  CHECK(joins(enc(0xFF21)));
  CHECK(joins(enc(0xFF3A)));
  CHECK(joins(enc(0xFF41)));
  CHECK(joins(enc(0xFF5A)));
  CHECK(joins(enc(0xFF66)));
  CHECK(joins(enc(0x1EFFF)));
  CHECK(joins(enc(0x1FB00)));
  CHECK(joins(enc(0x10FFFF)));
  CHECK(joins(enc(0x800)));
  CHECK(joins(enc(0x10000)));
  CHECK(joins(enc(0xD7FF)));
  CHECK(joins(enc(0xE000)));
  CHECK_FALSE(joins("\x7f"));
}

TEST_CASE("every code point, exhaustively, against the block list") {
  int bad = 0;
  for (uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    if (cp == '\'' || cp == 0x2019) continue;  // apostrophes join a and b by design
    const bool want = ref_is_word(cp);
    if (joins(enc(cp)) != want || is_word_code_point(cp) != want) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("malformed UTF-8 separates tokens") {
  // overlong encodings
  CHECK(words("a\xC0\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xC1\xBF"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xC1\x81"
              "b") == std::vector<std::string>{"a", "b"});  // overlong 'A'
  CHECK(words("a\xE0\x80\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xE0\x9F\xBF"
              "b") == std::vector<std::string>{"a", "b"});  // overlong U+07FF
  CHECK(words("a\xE0\xA0\x80"
              "b") == std::vector<std::string>{"a\xE0\xA0\x80"
                                               "b"});  // U+0800 is fine
  CHECK(words("a\xF0\x80\x80\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xF0\x8F\xBF\xBF"
              "b") == std::vector<std::string>{"a", "b"});  // overlong U+FFFF
  // surrogates
  CHECK(words("a\xED\xA0\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xED\xBF\xBF"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xED\x9F\xBF"
              "b") == std::vector<std::string>{"a\xED\x9F\xBF"
                                               "b"});  // U+D7FF
  // above U+10FFFF
  CHECK(words("a\xF4\x90\x80\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xF5\x80\x80\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xF7\xBF\xBF\xBF"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xF8\x88\x80\x80\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xFF\xFE"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xF4\x8F\xBF\xBF"
              "b") == std::vector<std::string>{"a\xF4\x8F\xBF\xBF"
                                               "b"});  // U+10FFFF
  // lone continuation bytes, truncated sequences inside the text
  CHECK(words("a\x80"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xBF\xBF"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xE4\xB8"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xF0\x9F\x98"
              "b") == std::vector<std::string>{"a", "b"});
  CHECK(words("a\xC3"
              "b") == std::vector<std::string>{"a", "b"});
  // the valid sequence right after a bad lead byte still counts
  CHECK(words("a\xE4\xE4\xB8\xAD") == std::vector<std::string>{"a", "\xE4\xB8\xAD"});
  CHECK(toks("\xC3\xC3\xA9t\xC3\xA9") == std::vector<Tok>{{"\xC3\xA9t\xC3\xA9", 1}});
}

TEST_CASE("truncated sequences at the end of the text") {
  CHECK(words("abc\xE4\xB8") == std::vector<std::string>{"abc"});
  CHECK(words("abc\xE4") == std::vector<std::string>{"abc"});
  CHECK(words("abc\xF0\x9F\x98") == std::vector<std::string>{"abc"});
  CHECK(words("\xC3") == std::vector<std::string>{});
  CHECK(words("x \xC3\xA9\xC3") == std::vector<std::string>{"x", "\xC3\xA9"});
  CHECK(words("abc'") == std::vector<std::string>{"abc"});
  CHECK(words("abc'\xC3") == std::vector<std::string>{"abc"});
}

TEST_CASE("non-Latin scripts") {
  CHECK(words("\xE4\xB8\xAD\xE6\x96\x87\xE3\x80\x82\xE6\x97\xA5") ==  // 中文。日
        std::vector<std::string>{"\xE4\xB8\xAD\xE6\x96\x87", "\xE6\x97\xA5"});
  CHECK(words("\xD0\x9F\xD1\x80\xD0\xB8 \xCE\xB1\xCE\xB2") ==
        std::vector<std::string>{"\xD0\x9F\xD1\x80\xD0\xB8", "\xCE\xB1\xCE\xB2"});
  CHECK(words("caf\xC3\xA9\xC2\xA0"
              "bar") == std::vector<std::string>{"caf\xC3\xA9", "bar"});  // NBSP separates
  CHECK(words("a\xF0\x9F\x98\x80"
              "b") == std::vector<std::string>{"a", "b"});  // emoji U+1F600
  CHECK(words("a\xEF\xBB\xBF"
              "b") == std::vector<std::string>{"a", "b"});  // BOM
  CHECK(words("a\xE2\x80\x94"
              "b") == std::vector<std::string>{"a", "b"});  // em dash
}

TEST_CASE("is_safe_split") {
  for (int b = 0; b < 256; ++b) {
    const bool alnum = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
    CHECK(is_safe_split(static_cast<unsigned char>(b)) == (b < 0x80 && !alnum && b != '\''));
  }
}

TEST_CASE("streaming: cut anywhere, resume where scan_tokens says") {
  const std::string q = "\xE2\x80\x99";
  const std::vector<std::string> texts = {
      "don" + q +
          "t stop, it's 3rd\r\n \xE4\xB8\xAD\xE6\x96\x87 caf\xC3\xA9 a'b'c d'' \xF0\x9F\x98\x80x\xF4\x8F\xBF\xBF",
      "a\xE4\xE4\xB8\xAD\xC3'" + q + "'z " + q + "x" + q,
      "x\xF0\x9F\x98 y\xC3\xA9" + q + "\xC3\xA9",
  };
  for (const std::string& t : texts) {
    const auto whole = toks(t);
    CHECK(whole == ref_toks(t));
    for (size_t k = 0; k <= t.size(); ++k) {
      CAPTURE(k);
      CHECK(toks_split(t, k) == whole);
    }
  }
  // Settled prefix: a complete token followed by a separator is reported.
  std::vector<Tok> got;
  CHECK(scan_tokens("ab cd", false, [&](std::string_view w, size_t o) { got.emplace_back(std::string(w), o); }) == 3);
  CHECK(got == std::vector<Tok>{{"ab", 0}});
  CHECK(scan_tokens("ab \xE4\xB8", false, [](std::string_view, size_t) {}) == 3);
  CHECK(scan_tokens("ab ", false, [](std::string_view, size_t) {}) == 3);
  CHECK(scan_tokens("ab'", false, [](std::string_view, size_t) {}) == 0);
}

TEST_CASE("scan_token_tail") {
  bool digits = true;
  TailScan t = scan_token_tail("123 456", true, digits);
  CHECK(t.ended);
  CHECK(t.pos == 3);
  CHECK(digits);
  t = scan_token_tail("12'3x, more text", false, digits);
  CHECK(t.ended);
  CHECK(t.pos == 5);
  CHECK_FALSE(digits);
  digits = true;
  t = scan_token_tail("1234567890", false, digits);
  CHECK_FALSE(t.ended);
  CHECK(t.pos == 3);  // 7 bytes left undecided
  CHECK(digits);
  digits = true;
  t = scan_token_tail(
      "aaa\xE2\x80\x99"
      "b' c",
      true, digits);
  CHECK(t.ended);
  CHECK(t.pos == 7);
  CHECK_FALSE(digits);
}

TEST_CASE("the block classifier the CPU is given is one it has") {
  const auto isas = isas_here();
  REQUIRE(!isas.empty());
  CHECK(isas.front() == tok_detail::BlockIsa::scalar);
  CHECK(isas.back() == tok_detail::best_block_isa());
#if defined(__x86_64__)
  CHECK(tok_detail::cpu_has(tok_detail::BlockIsa::sse2));  // every x86-64 has it
  CHECK(tok_detail::cpu_has(tok_detail::BlockIsa::avx2) == static_cast<bool>(__builtin_cpu_supports("avx2")));
#endif
  MESSAGE("block classifier here: " << static_cast<int>(tok_detail::best_block_isa())
                                    << " (0 scalar 1 sse2 2 avx2 3 avx512bw)");
}

TEST_CASE("randomized: tokenizer == naive reference, also streamed") {
  const std::vector<std::string> pieces = {"a",
                                           "Z",
                                           "7",
                                           "0",
                                           " ",
                                           "\n",
                                           "\r",
                                           ".",
                                           "-",
                                           "'",
                                           "''",
                                           "\xE2\x80\x99",
                                           "\xC3\xA9",
                                           "\xC2\xA0",
                                           "\xE4\xB8\xAD",
                                           "\xE3\x80\x82",
                                           "\xF0\x9F\x98\x80",
                                           "\xF0\x9F\xAC\x80",
                                           "\xF4\x8F\xBF\xBF",
                                           "\x80",
                                           "\xC3",
                                           "\xE4\xB8",
                                           "\xF0\x9F",
                                           "\xFF",
                                           "\xC0\xAF",
                                           "\xED\xA0\x80",
                                           "\xEF\xBC\x91",
                                           "\xEF\xBB\xBF",
                                           "\xD7\x90",
                                           "\xC3\x97",
                                           "_",
                                           std::string(1, '\0')};
  std::mt19937 rng(12345);
  for (int it = 0; it < 3000; ++it) {
    std::string t;
    const int n = static_cast<int>(rng() % 24);
    for (int k = 0; k < n; ++k) t += pieces[rng() % pieces.size()];
    CAPTURE(t);
    const auto whole = toks(t);
    REQUIRE(whole == ref_toks(t));
    const size_t k = t.empty() ? 0 : rng() % (t.size() + 1);
    REQUIRE(toks_split(t, k) == whole);
  }
}

TEST_CASE("randomized long texts (64-byte block path), also streamed") {
  // Mostly ASCII so that whole 64-byte blocks take the bit-mask path, with
  // apostrophes and multi-byte characters at every block offset now and then.
  const std::vector<std::string> common = {"a",  "b", "Z", "q", "7",  " ",     " ",
                                           "\n", ".", "'", "-", "xy", "don't", "\r\n"};
  const std::vector<std::string> rare = {"\xE2\x80\x99", "\xC3\xA9",         "\xC2\xA0", "\xE4\xB8\xAD",
                                         "\x80",         "\xF0\x9F\x98\x80", "''",       "\xC3"};
  std::mt19937 rng(4242);
  for (int it = 0; it < 4000; ++it) {
    std::string t;
    const int n = static_cast<int>(rng() % 400);
    const unsigned rare_every = 2 + rng() % 200;
    for (int k = 0; k < n; ++k)
      t += rng() % rare_every == 0 ? rare[rng() % rare.size()] : common[rng() % common.size()];
    CAPTURE(t);
    const auto whole = toks(t);
    REQUIRE(whole == ref_toks(t));
    for (const auto isa : isas_here()) {
      CAPTURE(static_cast<int>(isa));
      REQUIRE(toks_with(isa, t) == whole);
    }
    const size_t k = t.empty() ? 0 : rng() % (t.size() + 1);
    REQUIRE(toks_split(t, k) == whole);
  }
}

TEST_CASE("skipping tokens with digits: every block path, also streamed, equals filtering the tokens") {
  // Digits at every offset, in tokens that start, end or run across the
  // 64-byte blocks, with and without non-ASCII bytes in the block.
  const std::vector<std::string> common = {"a", "b", "Z", "q", "7", "0", " ", " ", "\n", ".", "'", "x86", "mp3", "ab"};
  const std::vector<std::string> rare = {"\xC3\xA9", "\xE2\x80\x99", "9\xC3\xA9", std::string(70, 'k'), "1"};
  std::mt19937 rng(77);
  for (int it = 0; it < 3000; ++it) {
    std::string t;
    const int n = static_cast<int>(rng() % 300);
    const unsigned rare_every = 2 + rng() % 100;
    for (int k = 0; k < n; ++k)
      t += rng() % rare_every == 0 ? rare[rng() % rare.size()] : common[rng() % common.size()];
    CAPTURE(t);
    std::vector<Tok> want;
    uint64_t want_skipped = 0;
    for (const Tok& tok : toks(t)) {
      if (has_ascii_digit(tok.first)) ++want_skipped;
      else want.push_back(tok);
    }
    for (const auto isa : isas_here()) {
      CAPTURE(static_cast<int>(isa));
      std::vector<Tok> got;
      uint64_t skipped = 0;
      scan_tokens_skipping_digits_with(
          isa, t, true, [&](std::string_view w, size_t off) { got.emplace_back(std::string(w), off); }, skipped);
      REQUIRE(got == want);
      REQUIRE(skipped == want_skipped);
    }
    const size_t k = t.empty() ? 0 : rng() % (t.size() + 1);
    std::vector<Tok> got;
    uint64_t skipped = 0;
    const auto add = [&](size_t base) {
      return [&, base](std::string_view w, size_t off) { got.emplace_back(std::string(w), off + base); };
    };
    const size_t r = scan_tokens_skipping_digits(std::string_view(t).substr(0, k), false, add(0), skipped);
    scan_tokens_skipping_digits(std::string_view(t).substr(r), true, add(r), skipped);
    REQUIRE(got == want);
    REQUIRE(skipped == want_skipped);
  }
}

TEST_CASE("block edges: apostrophes and tokens around byte 63/64/65") {
  for (size_t at = 55; at < 140; ++at) {
    for (const std::string& mid : {std::string("'"), std::string("''"), std::string("\xE2\x80\x99"), std::string("x'y"),
                                   std::string(" "), std::string("\xC3\xA9"), std::string("a")}) {
      std::string t(at, 'w');
      t[at / 3] = ' ';
      t += mid;
      t += "zz yy";
      t += std::string(70, 'k');
      CAPTURE(at);
      CAPTURE(mid);
      REQUIRE(toks(t) == ref_toks(t));
      for (const auto isa : isas_here()) REQUIRE(toks_with(isa, t) == ref_toks(t));
      for (size_t k = at - 3; k < at + 6; ++k) REQUIRE(toks_split(t, k) == ref_toks(t));
    }
  }
  // A token spanning many blocks.
  const std::string big = "x " + std::string(1000, 'a') + "'b " + std::string(200, 'c');
  CHECK(toks(big) == std::vector<Tok>{{"x", 0}, {std::string(1000, 'a') + "'b", 2}, {std::string(200, 'c'), 1005}});
}
