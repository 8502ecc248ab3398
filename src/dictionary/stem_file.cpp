#include "spellcheck/dictionary/stem_file.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "spellcheck/common/wire.hpp"

namespace spellcheck {

void append_stem_entry(std::string& out, uint64_t order, std::string_view word, const Flag* flags, size_t count) {
  wire::append_le<uint64_t>(out, order);
  wire::append_le<uint16_t>(out, static_cast<uint16_t>(word.size()));
  out.append(word);
  wire::append_le<uint16_t>(out, static_cast<uint16_t>(count));
  wire::append_array_le(out, flags, count);
}

StemEntry read_stem_entry(std::string_view bytes, size_t& at, const char* what) {
  StemEntry e;
  e.order = wire::read_le_at<uint64_t>(bytes, at, what);
  const auto length = wire::read_le_at<uint16_t>(bytes, at, what);
  e.word.assign(wire::read_bytes_at(bytes, at, length, what));
  const auto count = wire::read_le_at<uint16_t>(bytes, at, what);
  e.flags.resize(count);
  wire::read_array_le_at(bytes, at, e.flags.data(), count, what);
  return e;
}

namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

// Cuts the morphological fields (" xx:..." or after a tab) off a line, as
// hunspell's load_tables does.
std::string_view without_morphology(std::string_view ts) {
  size_t dp = std::string_view::npos;
  for (size_t p = ts.find(':'); p != std::string_view::npos; p = ts.find(':', p + 1)) {
    if (p > 3 && blank(ts[p - 3])) {
      size_t q = p - 3;
      while (q > 0 && blank(ts[q - 1])) --q;
      dp = q == 0 ? std::string_view::npos : q + 1;
      break;
    }
  }
  const size_t tab = ts.find('\t');
  if (tab != std::string_view::npos && (dp == std::string_view::npos || tab < dp)) dp = tab + 1;
  return dp == std::string_view::npos ? ts : ts.substr(0, dp - 1);
}

}  // namespace

size_t parse_stem_line(std::string_view line, uint64_t line_number, const AffixRules& rules, const LetterCase& cases,
                       std::vector<StemEntry>& out) {
  if (line.find('\0') != std::string_view::npos) throw std::invalid_argument("a NUL byte (not a text file?)");
  std::string ts(without_morphology(line));
  // "\/" is a slash in the word; a '/' at the start belongs to the word too.
  size_t slash = ts.find('/');
  while (slash != std::string::npos) {
    if (slash == 0) {
      slash = ts.find('/', 1);
      continue;
    }
    if (ts[slash - 1] != '\\') break;
    ts.erase(slash - 1, 1);
    slash = ts.find('/', slash);
  }
  std::vector<Flag> flags;
  if (slash != std::string::npos) {
    flags = rules.flags_of_field(std::string_view(ts).substr(slash + 1));
    ts.resize(slash);
  }
  if (ts.empty()) return 0;
  if (!rules.utf8()) ts = to_utf8(ts, rules.encoding.empty() ? "ISO8859-1" : rules.encoding);
  StemEntry e;
  e.word = rules.internal_form(ts);
  e.flags = flags;
  e.order = 2 * line_number;
  out.push_back(std::move(e));
  const Capitalisation kind = cases.kind(std::string_view(ts));
  const bool mixed = kind == Capitalisation::mixed || kind == Capitalisation::mixed_initial;
  if ((mixed || (kind == Capitalisation::all && !flags.empty())) && !has_flag(flags, rules.forbidden)) {
    StemEntry h;
    h.word = rules.internal_form(cases.to_title(ts));
    h.flags = std::move(flags);
    h.flags.push_back(kOnlyUpcaseFlag);
    std::sort(h.flags.begin(), h.flags.end());
    h.order = 2 * line_number + 1;
    out.push_back(std::move(h));
    return 2;
  }
  return 1;
}

void link_homonyms(std::vector<StemEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const StemEntry& a, const StemEntry& b) { return a.order < b.order; });
  std::vector<StemEntry> chain;
  chain.reserve(entries.size());
  for (StemEntry& e : entries) {
    if (e.hidden()) {
      if (chain.empty()) chain.push_back(std::move(e));
      continue;
    }
    if (!chain.empty() && chain.back().has(kOnlyUpcaseFlag)) {
      chain.back().flags = std::move(e.flags);  // the hidden entry's place, this entry's flags
      continue;
    }
    chain.push_back(std::move(e));
  }
  entries = std::move(chain);
}

std::vector<StemEntry> parse_stem_lines(const std::vector<std::string_view>& lines, uint64_t first_line,
                                        const AffixRules& rules, const LetterCase& cases, const std::string& path) {
  std::vector<StemEntry> out;
  for (size_t k = 0; k < lines.size(); ++k) {
    const uint64_t number = first_line + k;
    if (number == 1) continue;  // the count
    try {
      parse_stem_line(lines[k], number, rules, cases, out);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return out;
}

bool valid_stem_count(std::string_view first_line) {
  if (first_line.substr(0, 3) == "\xEF\xBB\xBF") first_line.remove_prefix(3);
  const long n = std::atol(std::string(first_line).c_str());
  return n > 0;
}

}  // namespace spellcheck
