// libFuzzer target: hunspell dictionaries (.aff and .dic) and personal
// dictionary lines. The input is "AFF\n====\nDIC\n====\nWORDS" (missing parts
// empty). A malformed .aff or .dic must be refused with an exception naming
// its file; one that parses must check every word (the .dic's words, the
// given ones, and one-letter edits of them) the same way over the whole
// table of roots and over the neighbourhoods the expansion builds (the
// expansion must miss no root a word strips to). Words are as written (any
// bytes): the checker must not fail on invalid UTF-8 either.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/dictionary/affix_checker.hpp"
#include "spellcheck/dictionary/affix_forms.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/personal_words.hpp"
#include "spellcheck/dictionary/root_neighbourhoods.hpp"
#include "spellcheck/dictionary/stem_table.hpp"

using namespace spellcheck;

namespace {

std::vector<std::string_view> split(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> parts;
  for (size_t b = 0;;) {
    const size_t e = s.find(sep, b);
    parts.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + sep.size();
  }
  while (parts.size() < 3) parts.emplace_back();
  return parts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = split(std::string_view(reinterpret_cast<const char*>(data), size), "\n====\n");
  AffixRules rules;
  try {
    rules = parse_affix_rules(parts[0], "fuzz.aff", nullptr);
  } catch (const AffixFileError& e) {
    if (std::string_view(e.what()).substr(0, 9) != "fuzz.aff:") std::abort();  // the file and line, always
    return 0;
  }
  const LetterCase cases(rules.lang);
  std::vector<StemEntry> stems;
  try {
    stems = parse_stem_lines(hunspell_lines(parts[1]), 1, rules, cases, "fuzz.dic");
  } catch (const std::runtime_error& e) {
    if (std::string_view(e.what()).substr(0, 9) != "fuzz.dic:") std::abort();
    return 0;
  }
  if (stems.size() > 64) return 0;  // the expansion of a big random table is slow, not wrong

  std::vector<std::string> words;
  for (const StemEntry& s : stems) words.push_back(rules.complex_prefixes ? reversed_code_points(s.word) : s.word);
  for (std::string_view line : hunspell_lines(parts[2])) {
    PersonalWord w;
    if (parse_personal_line(line, w)) words.push_back(w.word);
    words.emplace_back(line);
  }
  if (words.size() > 16) words.resize(16);
  const size_t given = words.size();
  for (size_t i = 0; i < given; ++i)
    for (size_t k = 0; k < words[i].size() && k < 4; ++k) {
      std::string e = words[i];
      e.erase(k, 1);
      words.push_back(e);
    }

  StemTable table(stems);
  const AffixesByFlag by_flag(rules);
  std::vector<StemEntry> entries = table.entries();
  std::vector<KeyedEntry> pairs;
  std::vector<std::string> forms;
  for (uint32_t i = 0; i < entries.size(); ++i) {
    expand_forms(rules, by_flag, entries[i], forms);
    if (forms.size() > 20000) return 0;  // pathological tables: slow, not wrong
    for (const std::string& f : forms) pairs.push_back(KeyedEntry{neighbourhood_key(cases, f), i});
  }
  RootNeighbourhoods nb;
  nb.build(std::move(entries), std::move(pairs));
  BloomFilter filter(1, BloomFilter::blocks_for(nb.keys() + 1, 12));
  for (uint64_t k : nb.key_list()) filter.insert_unshared(k, 0);
  NeighbourhoodSource source(cases, nb, nullptr, filter, 0, 1);
  const AffixChecker checker(rules, cases);
  for (const std::string& w : words) {
    const bool by_roots = checker.spell(w, table);
    source.reset();
    if (checker.spell(w, source) != by_roots) std::abort();
  }
  return 0;
}
