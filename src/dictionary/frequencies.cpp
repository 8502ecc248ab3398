#include "spellcheck/dictionary/frequencies.hpp"

#include <xxhash.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

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

namespace {

// The file's bytes, passed to f a buffer at a time.
template <class F>
void read_file_in_parts(const std::string& path, F&& f) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) throw InputError(path + ": " + std::strerror(errno));
  std::vector<char> buffer(1 << 20);
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0;) f(buffer.data(), n);
  if (std::ferror(file.get())) throw InputError(path + ": " + std::strerror(errno));
}

}  // namespace

uint64_t file_digest(const std::string& path) {
  const std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(), XXH3_freeState);
  XXH3_64bits_reset(state.get());
  read_file_in_parts(path, [&](const char* p, size_t n) { XXH3_64bits_update(state.get(), p, n); });
  return XXH3_64bits_digest(state.get());
}

FrequencyList read_frequency_file(const std::string& path, uint64_t& digest) {
  std::string text;
  read_file_in_parts(path, [&](const char* p, size_t n) { text.append(p, n); });
  digest = XXH3_64bits(text.data(), text.size());
  return parse_frequencies(text, path);
}

}  // namespace spellcheck
