#include "spellcheck/input/tokenizer.hpp"

namespace spellcheck {

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> out;
  for_each_token(text, [&](std::string_view tok, size_t) { out.emplace_back(tok); });
  return out;
}

}  // namespace spellcheck
