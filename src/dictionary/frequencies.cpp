#include "spellcheck/dictionary/frequencies.hpp"

#include <charconv>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/input/reader.hpp"

namespace spellcheck {

FrequencyList parse_frequencies(std::string_view text, const std::string& path) {
  if (text.find('\0') != std::string_view::npos)
    throw InputError("frequency file '" + path + "' is binary (holds a NUL byte)");
  FrequencyList out;
  auto bad = [&](std::string_view line, const char* why) {
    const std::string shown(line.substr(0, 40));
    throw InputError("frequency file '" + path + "': " + why + " in line '" + shown + "'");
  };
  for_each_clean_line(text, [&](std::string_view line) {
    const size_t sep = line.find_first_of(" \t");
    if (sep == std::string_view::npos) bad(line, "no count");
    const std::string_view word = line.substr(0, sep);
    const std::string_view count = clean_line(line.substr(sep + 1));
    if (count.empty()) bad(line, "no count");
    if (count[0] == '-') bad(line, "a negative count");
    uint64_t c = 0;
    const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), c);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && c > kMaxFrequency))
      bad(line, "a count too large");
    if (ec != std::errc() || end != count.data() + count.size()) bad(line, "a count that is not a whole number");
    out.words.push_back(word);
    out.counts.push_back(c);
  });
  return out;
}

}  // namespace spellcheck
