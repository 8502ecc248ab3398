#pragma once
// Every root of a dictionary in one local table: the serial view (tests,
// tools, one rank's own entries), homonyms of a spelling together and in
// hunspell's order.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "spellcheck/dictionary/affix_rules.hpp"
#include "spellcheck/dictionary/roots.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

class StemTable : public RootSource {
 public:
  StemTable() = default;
  // Movable: the roots point into the entries' own buffers, which a move keeps.
  StemTable(StemTable&&) = default;
  StemTable& operator=(StemTable&&) = default;
  // Takes the entries (any order, homonyms not yet linked) and indexes them.
  explicit StemTable(std::vector<StemEntry> entries);

  bool prepare(std::string_view) override { return true; }
  RootList homonyms(std::string_view word) override;
  const std::vector<StemEntry>& entries() const { return entries_; }

 private:
  std::vector<StemEntry> entries_;                                             // grouped by spelling, each group linked
  std::vector<Root> roots_;                                                    // one per entry, pointing into entries_
  std::vector<const Root*> list_;                                              // &roots_[i]
  std::unordered_map<std::string_view, std::pair<uint32_t, uint32_t>> index_;  // spelling -> [begin, end) of list_
};

// A hunspell dictionary read whole (one process): its rules and its roots.
struct LocalDictionary {
  AffixRules rules;
  StemTable stems;
};
// Reads NAME.aff beside dic_path and dic_path. Throws AffixFileError or
// std::runtime_error naming the file (and line).
std::unique_ptr<LocalDictionary> load_local_dictionary(const std::string& dic_path,
                                                       std::vector<std::string>* warnings = nullptr);

}  // namespace spellcheck
