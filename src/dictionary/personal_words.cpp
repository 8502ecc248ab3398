#include "spellcheck/dictionary/personal_words.hpp"

#include "spellcheck/input/reader.hpp"

namespace spellcheck {

bool parse_personal_line(std::string_view line, PersonalWord& out) {
  const std::string_view w = clean_line(line);
  if (w.empty()) return false;
  out = PersonalWord{};
  const size_t slash = w.find('/', 1);
  if (slash == std::string_view::npos) {
    if (w[0] == '*' && w.size() > 1) {
      out.kind = PersonalWord::Kind::forbid;
      out.word = w.substr(1);
    } else {
      out.word = w;
    }
    return true;
  }
  std::string_view example = w.substr(slash + 1);
  if (!example.empty() && example[0] == '/') example.remove_prefix(1);
  out.kind = PersonalWord::Kind::add_like;
  out.word = w.substr(0, slash);
  out.example = example;
  return true;
}

PlainExtraWords read_plain_extra_words(const mpi::Comm& comm, const std::vector<std::string>& files) {
  PlainExtraWords out;
  for (const std::string& file : files) {
    const TextChunk chunk = read_line_share(comm, file);
    PersonalWord w;
    for_each_clean_line(chunk.bytes, [&](std::string_view line) {
      if (!parse_personal_line(line, w)) return;
      (w.kind == PersonalWord::Kind::forbid ? out.forbid : out.add).push_back(w.word);
    });
  }
  return out;
}

WordList read_ignore_words(const mpi::Comm& comm, const std::vector<std::string>& files) {
  WordList out;
  for (const std::string& file : files) {
    const TextChunk chunk = read_line_share(comm, file);
    for_each_clean_line(chunk.bytes, [&](std::string_view w) { out.push_back(w); });
  }
  return out;
}

}  // namespace spellcheck
