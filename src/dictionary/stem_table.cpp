#include "spellcheck/dictionary/stem_table.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "spellcheck/dictionary/affix_text.hpp"

namespace spellcheck {

StemTable::StemTable(std::vector<StemEntry> entries) : entries_(std::move(entries)) {
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const StemEntry& a, const StemEntry& b) { return a.word < b.word; });
  std::vector<StemEntry> linked;
  linked.reserve(entries_.size());
  for (size_t b = 0; b < entries_.size();) {
    size_t e = b + 1;
    while (e < entries_.size() && entries_[e].word == entries_[b].word) ++e;
    std::vector<StemEntry> group(std::make_move_iterator(entries_.begin() + b),
                                 std::make_move_iterator(entries_.begin() + e));
    link_homonyms(group);
    for (StemEntry& g : group) linked.push_back(std::move(g));
    b = e;
  }
  entries_ = std::move(linked);
  roots_.reserve(entries_.size());
  for (const StemEntry& s : entries_)
    roots_.push_back(Root{s.word, s.flags.data(), static_cast<uint32_t>(s.flags.size()), s.order});
  for (const Root& r : roots_) list_.push_back(&r);
  for (uint32_t b = 0; b < roots_.size();) {
    uint32_t e = b + 1;
    while (e < roots_.size() && roots_[e].word == roots_[b].word) ++e;
    index_.emplace(roots_[b].word, std::make_pair(b, e));
    b = e;
  }
}

RootList StemTable::homonyms(std::string_view word) {
  const auto it = index_.find(word);
  if (it == index_.end()) return {};
  return RootList(list_.data() + it->second.first, it->second.second - it->second.first);
}

namespace {
std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

std::unique_ptr<LocalDictionary> load_local_dictionary(const std::string& dic_path,
                                                       std::vector<std::string>* warnings) {
  std::string aff_path = dic_path;
  if (aff_path.size() >= 4 && aff_path.compare(aff_path.size() - 4, 4, ".dic") == 0)
    aff_path.resize(aff_path.size() - 4);
  aff_path += ".aff";
  auto d = std::make_unique<LocalDictionary>();
  const std::string aff = read_whole(aff_path);
  d->rules = parse_affix_rules(aff, aff_path, warnings);
  const std::string dic = read_whole(dic_path);
  const auto lines = hunspell_lines(dic);
  if (lines.empty() || !valid_stem_count(lines[0]))
    throw std::runtime_error(dic_path + ":1: the first line must be the number of entries");
  const LetterCase cases(d->rules.lang);
  d->stems = StemTable(parse_stem_lines(lines, 1, d->rules, cases, dic_path));
  return d;
}

}  // namespace spellcheck
