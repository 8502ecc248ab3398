// libFuzzer target: the line reader and cleaner (dictionary and --words
// lines): lines_to_words against a plain split-and-strip from SPEC.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/input/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t max_length = data[0] % 80 + 1;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string> want;
  uint64_t want_long = 0;
  size_t b = 0;
  while (b <= text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    std::string line = text.substr(b, e - b);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
    size_t lead = 0;
    while (lead < line.size() && (line[lead] == ' ' || line[lead] == '\t' || line[lead] == '\r')) ++lead;
    line.erase(0, lead);
    if (line.size() > max_length) ++want_long;
    else if (!line.empty()) want.push_back(line);
    b = e + 1;
  }
  uint64_t too_long = 0;
  const spellcheck::WordList got = spellcheck::lines_to_words(text, max_length, &too_long);
  if (got.size() != want.size() || too_long != want_long) std::abort();
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) std::abort();
  // Every cleaned line, as the dictionary reader sees them (no limit).
  size_t n = 0;
  spellcheck::for_each_clean_line(text, [&](std::string_view w) {
    if (w.empty() || w.find('\n') != std::string_view::npos) std::abort();
    ++n;
  });
  if (n < want.size()) std::abort();
  return 0;
}
