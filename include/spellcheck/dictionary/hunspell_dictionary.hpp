#pragma once
// A hunspell dictionary (.aff + .dic) spread over the ranks. Every rank
// parses the .aff (small). The .dic is read 1/p per rank (MPI-IO); its
// entries go to the rank that owns their spelling, where homonyms are
// linked (stem_file.hpp), then each entry is expanded into its forms
// (affix_forms.hpp) and sent, once per rank, to the ranks owning the forms'
// fold keys (root_neighbourhoods.hpp). No rank holds the whole dictionary;
// a word's case variants and every root it could be stripped to sit on the
// rank owning its fold key. A Bloom filter of all keys (one segment per
// rank, allgathered) answers "no rank has this key" without asking.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/dictionary/affix_rules.hpp"
#include "spellcheck/dictionary/affix_text.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/personal_words.hpp"
#include "spellcheck/dictionary/root_neighbourhoods.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

// Whether path names a hunspell dictionary: it ends in ".dic" and NAME.aff
// lies beside it. Local.
bool is_hunspell_dictionary(const std::string& path);
// NAME.aff for NAME.dic.
std::string affix_path_of(const std::string& dic_path);
// Where --lang NAME looks: $DICPATH (colon-separated), /usr/share/hunspell,
// /usr/share/myspell. The .dic of the first that has NAME.aff and NAME.dic,
// or "" when none has.
std::vector<std::string> dictionary_search_path();
std::string find_dictionary(const std::string& name);
// The dictionaries those folders hold (NAME, path of NAME.dic), by name.
std::vector<std::pair<std::string, std::string>> list_dictionaries();

struct HunspellLoadStats {
  uint64_t stems = 0;          // .dic entries read (all ranks; hidden ones not counted)
  uint64_t entries = 0;        // entries after linking homonyms, hidden ones included
  uint64_t forms = 0;          // forms the entries make (all ranks)
  uint64_t keys = 0;           // fold keys (all ranks)
  uint64_t bytes_local = 0;    // this rank's neighbourhoods
  uint64_t entries_local = 0;  // entries stored on this rank (copies included)
  uint64_t suggestable = 0;    // forms a suggestion may offer (all ranks; ranked mode)
};

struct HunspellLoadOptions {
  double filter_bits = 12.0;
  // Also keep the forms of each rank's keys that a suggestion may offer
  // (take_suggestable_forms: ranked mode's index).
  bool forms = false;
  std::vector<std::string> extra_dicts;  // --extra-dict: personal dictionaries (personal_words.hpp)
};

class HunspellDictionary {
 public:
  // Collective. Throws InputError naming the file (and line) for a missing
  // or malformed .aff or .dic; warnings (unsupported directives) are
  // returned, the same on every rank.
  static std::unique_ptr<HunspellDictionary> load(const mpi::Comm& comm, const std::string& dic_path,
                                                  std::vector<std::string>& warnings, HunspellLoadStats& stats,
                                                  const HunspellLoadOptions& options = {});

  // Rank of ranks' part of a compiled hunspell dictionary
  // (compiled_hunspell.hpp): the compiled .dic's path (path(); its .aff
  // names the rules in messages), the .aff's text (parsed here), the
  // neighbourhoods of its keys (pairs in RootNeighbourhoods::build_grouped's
  // order), the filter of every key (one segment). Local.
  static std::unique_ptr<HunspellDictionary> from_parts(const std::string& dic_path, std::string_view aff,
                                                        PackedEntries entries, const std::vector<KeyedEntry>& pairs,
                                                        BloomFilter filter, int rank, int ranks,
                                                        std::vector<std::string>& warnings);

  const AffixRules& rules() const { return rules_; }
  // The .aff as read (what compile keeps).
  const std::string& affix_text() const { return aff_text_; }
  const LetterCase& cases() const { return cases_; }
  const RootNeighbourhoods& local() const { return local_; }
  const std::string& path() const { return path_; }
  int ranks() const { return ranks_; }
  int rank() const { return rank_; }

  // The key a word (as written) is checked under: its case variants' and
  // roots' rank.
  uint64_t home_key(std::string_view word) const;
  bool owns(uint64_t key) const { return owner_of(key) == rank_; }
  int owner_of(uint64_t key) const;
  // False when no rank has any entry under key.
  bool may_exist(uint64_t key) const;
  uint64_t filter_bytes() const { return filter_.bytes(); }
  // The forms of this rank's keys that hunspell accepts as written, without
  // compounding, and that may be suggested (not NOSUGGEST, FORBIDDENWORD or
  // a hidden capitalised entry's), each once. Loaded with forms = true;
  // taken once.
  WordList take_suggestable_forms() { return std::move(suggestable_); }
  const BloomFilter& filter() const { return filter_; }

 private:
  HunspellDictionary() = default;
  // load()'s steps, in order.
  void read_rules(const mpi::Comm& comm, std::vector<std::string>& warnings);
  void parse_rules(const std::string& aff_path, std::vector<std::string>& warnings);
  std::vector<StemEntry> read_stems(const mpi::Comm& comm, uint64_t& dic_lines, HunspellLoadStats& stats,
                                    std::vector<std::string>& warnings);
  void warn_undefined_flags(const mpi::Comm& comm, const std::vector<StemEntry>& stems,
                            std::vector<std::string>& warnings) const;
  std::vector<PersonalOp> read_personal(const mpi::Comm& comm, const std::vector<std::string>& files,
                                        uint64_t dic_lines);
  std::vector<StemEntry> link_at_owners(const mpi::Comm& comm, std::vector<StemEntry> stems,
                                        std::vector<PersonalOp> ops);
  std::vector<std::string> spread_forms(const mpi::Comm& comm, std::vector<StemEntry> linked, bool with_forms,
                                        HunspellLoadStats& stats);
  void build_filter(const mpi::Comm& comm, double bits);
  void judge_forms(std::vector<std::string> forms);
  std::string path_;
  std::string aff_text_;
  AffixRules rules_;
  LetterCase cases_;
  RootNeighbourhoods local_;
  BloomFilter filter_;
  WordList suggestable_;
  int ranks_ = 1, rank_ = 0;
};

}  // namespace spellcheck
