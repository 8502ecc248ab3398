// Code points: decoding never fails and round-trips any bytes; simple case
// mapping; case patterns and spelling an entry in a typo's pattern.
#include "spellcheck/common/code_points.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using namespace spellcheck;

namespace {

std::u32string cps(std::string_view s) {
  std::u32string out(s.size() + 1, 0);
  out.resize(decode_utf8(s, out.data()));
  return out;
}

std::string utf8(const std::u32string& w) {
  std::string s;
  for (char32_t c : w) append_utf8(s, c);
  return s;
}

CasePattern pattern(std::string_view s) {
  const auto w = cps(s);
  return case_pattern(w.data(), w.size());
}

std::string in_case(std::string_view entry, CasePattern p) {
  const auto w = cps(entry);
  std::string out;
  spell_in_case(w.data(), w.size(), p, out);
  return out;
}

}  // namespace

TEST_CASE("decode_utf8: valid UTF-8 is code points, invalid bytes are one code point each") {
  CHECK(cps("abc") == U"abc");
  CHECK(cps("naïve") == U"naïve");
  CHECK(cps("Ωμέγα") == U"Ωμέγα");
  CHECK(cps("𝄞x") == U"𝄞x");
  CHECK(cps("") == U"");
  // A lone continuation byte, a truncated sequence, an overlong form, a
  // surrogate, bytes that never start a sequence.
  CHECK(cps("\x80") == std::u32string(1, 0xDC80 + 0x00));
  CHECK(cps("a\xC3") == std::u32string{U'a', 0xDC80 + 0x43});
  CHECK(cps("\xC0\xAF").size() == 2);
  CHECK(cps("\xED\xA0\x80").size() == 3);
  CHECK(cps("\xFF\xFE").size() == 2);
  CHECK(cps("\xF4\x90\x80\x80").size() == 4);  // above U+10FFFF
  CHECK(cps("\xE2\x82").size() == 2);
  CHECK(cps("\xE2\x82\xAC") == U"€");
}

TEST_CASE("decode_utf8 / append_utf8: random bytes come back identical") {
  std::mt19937 rng(42);
  // Bytes biased towards UTF-8 lead and continuation bytes so that valid,
  // truncated and overlong sequences all occur.
  const unsigned char pool[] = {'a',  'Z',  '\'', 0x80, 0xBF, 0xA9, 0xC2, 0xC3, 0xC0, 0xDF, 0xE0, 0xE2,
                                0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0x90, 0x8F, 0x00, 0x7F};
  for (int t = 0; t < 20000; ++t) {
    std::string s(rng() % 14, 'a');
    for (auto& c : s) c = static_cast<char>((rng() % 3 == 0) ? rng() % 256 : pool[rng() % sizeof pool]);
    std::vector<char32_t> out(s.size() + 1);
    const size_t n = decode_utf8(s, out.data());
    CHECK(n <= s.size());
    std::string back;
    for (size_t i = 0; i < n; ++i) append_utf8(back, out[i]);
    if (back != s) {
      CAPTURE(t);
      CHECK(back == s);
    }
  }
}

TEST_CASE("append_utf8: every valid code point encodes and decodes back") {
  for (char32_t c = 1; c < 0x110000; c += (c < 0x3000 ? 1 : 97)) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    std::string s;
    append_utf8(s, c);
    const auto back = cps(s);
    REQUIRE(back.size() == 1);
    CHECK(back[0] == c);
  }
}

TEST_CASE("fold_case / upper_case: pairs") {
  const std::pair<std::u32string_view, std::u32string_view> pairs[] = {{U"ABCXYZ", U"abcxyz"},
                                                                       {U"ÀÉÎÕÜÞ", U"àéîõüþ"},
                                                                       {U"ĀĆĐĞİĽŁŃŇŊŒŘŠŸŹŻŽ", U"āćđğİľłńňŋœřšÿźżž"},
                                                                       {U"ΑΒΓΔΩ", U"αβγδω"},
                                                                       {U"ЁЂЉЏАБЯ", U"ёђљџабя"}};
  for (const auto& pair : pairs) {
    // Named, not bound: clang 14 cannot capture a structured binding (CAPTURE).
    const std::u32string_view up = pair.first, low = pair.second;
    REQUIRE(up.size() == low.size());
    for (size_t i = 0; i < up.size(); ++i) {
      CAPTURE(static_cast<uint32_t>(up[i]));
      if (up[i] == U'İ') {  // dotted capital I: no simple pair, maps to itself
        CHECK(fold_case(up[i]) == up[i]);
        continue;
      }
      CHECK(fold_case(up[i]) == low[i]);
      CHECK(upper_case(low[i]) == up[i]);
      CHECK(fold_case(low[i]) == low[i]);
      CHECK(upper_case(up[i]) == up[i]);
      CHECK(is_upper(up[i]));
      CHECK(is_lower(low[i]));
    }
  }
  // Not letters with a case: digits, punctuation, ×, ÷, ß, final sigma, CJK.
  for (char32_t c : std::u32string_view(U"09'-×÷ßς中ĸŉſ")) {
    CAPTURE(static_cast<uint32_t>(c));
    CHECK(fold_case(c) == c);
    CHECK(!is_upper(c));
  }
  CHECK(upper_case(U'ς') == U'ς');
  CHECK(upper_case(U'÷') == U'÷');
  CHECK(upper_case(U'ÿ') == U'Ÿ');
  // Every case pair is consistent both ways over the whole mapped range.
  for (char32_t c = 0; c < 0x500; ++c) {
    CAPTURE(static_cast<uint32_t>(c));
    if (is_upper(c)) CHECK(upper_case(fold_case(c)) == c);
    if (is_lower(c)) CHECK(fold_case(upper_case(c)) == c);
    CHECK(!(is_upper(c) && is_lower(c)));
  }
}

TEST_CASE("case_pattern") {
  CHECK(pattern("teh") == CasePattern::lower);
  CHECK(pattern("") == CasePattern::lower);
  CHECK(pattern("123") == CasePattern::lower);
  CHECK(pattern("Teh") == CasePattern::title);
  CHECK(pattern("T") == CasePattern::title);
  CHECK(pattern("'Teh") == CasePattern::title);
  CHECK(pattern("Élan") == CasePattern::title);
  CHECK(pattern("TEH") == CasePattern::upper);
  CHECK(pattern("ÉCOLE") == CasePattern::upper);
  CHECK(pattern("O'NEIL") == CasePattern::upper);
  CHECK(pattern("iPhone") == CasePattern::mixed);
  CHECK(pattern("McDonald") == CasePattern::mixed);
  CHECK(pattern("ΑΘήνα") == CasePattern::mixed);
}

TEST_CASE("spell_in_case") {
  CHECK(in_case("the", CasePattern::title) == "The");
  CHECK(in_case("the", CasePattern::upper) == "THE");
  CHECK(in_case("the", CasePattern::lower) == "the");
  CHECK(in_case("Paris", CasePattern::lower) == "Paris");  // a proper noun keeps its capital
  CHECK(in_case("Paris", CasePattern::mixed) == "Paris");
  CHECK(in_case("Paris", CasePattern::upper) == "PARIS");
  CHECK(in_case("école", CasePattern::title) == "École");
  CHECK(in_case("école", CasePattern::upper) == "ÉCOLE");
  CHECK(in_case("'twas", CasePattern::title) == "'Twas");  // the first letter, not the first code point
  CHECK(in_case("o'neil", CasePattern::upper) == "O'NEIL");
  CHECK(in_case("αθήνα", CasePattern::title) == "Αθήνα");
  // From the typo's pattern to the display.
  const auto teh = cps("Teh");
  CHECK(case_pattern(teh.data(), teh.size()) == CasePattern::title);
  CHECK(in_case("the", case_pattern(teh.data(), teh.size())) == "The");
  const auto TEH = cps("TEH");
  CHECK(in_case("the", case_pattern(TEH.data(), TEH.size())) == "THE");
  CHECK(utf8(cps("naïve")) == "naïve");
  // As it is (lower and mixed): ASCII, then any code point after it, and
  // invalid bytes, appended to what out holds.
  CHECK(in_case("naïve", CasePattern::lower) == "naïve");
  CHECK(in_case("École", CasePattern::lower) == "École");
  CHECK(in_case("αθήνα", CasePattern::mixed) == "αθήνα");
  CHECK(in_case("ab\xff\xfe", CasePattern::lower) == "ab\xff\xfe");
  CHECK(in_case("", CasePattern::lower).empty());
  const auto cafe = cps("café");
  std::string out = "x ";
  spell_in_case(cafe.data(), cafe.size(), CasePattern::lower, out);
  CHECK(out == "x café");
}
