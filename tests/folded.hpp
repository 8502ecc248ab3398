// A word as the ranked index compares words: its code points, case folded
// (common/code_points.hpp), for the suggestion tests' expectations.
#pragma once

#include <string>
#include <string_view>

#include "spellcheck/common/code_points.hpp"

inline std::u32string folded(std::string_view s) {
  std::u32string out(s.size() + 1, 0);
  out.resize(spellcheck::decode_utf8(s, out.data()));
  for (auto& c : out) c = spellcheck::fold_case(c);
  return out;
}
