#include "spellcheck/dictionary/affix_rules.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>

#include "spellcheck/dictionary/affix_text.hpp"

namespace spellcheck {

namespace {

constexpr int kFlagLimit = 65510;  // hunspell's DEFAULTFLAGS: flags at or above it are its own

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

int to_int(std::string_view s) { return std::atoi(std::string(s).c_str()); }

// The reading state: lines, the current line number, the character set.
class AffReader {
 public:
  AffReader(std::string_view bytes, const std::string& path) : lines_(hunspell_lines(bytes)), path_(path) {}

  bool next(std::string_view& line) {
    if (at_ >= lines_.size()) return false;
    line = lines_[at_++];
    if (line.find('\0') != std::string_view::npos) fail("a NUL byte (not a text file?)");
    return true;
  }
  size_t line_number() const { return at_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw AffixFileError(path_ + ":" + std::to_string(at_) + ": " + what);
  }
  std::string text(std::string_view raw) const {
    return encoding_.empty() ? std::string(raw) : to_utf8(raw, encoding_);
  }
  void set_encoding(std::string e) { encoding_ = std::move(e); }
  void rewind() { at_ = 0; }

 private:
  std::vector<std::string_view> lines_;
  size_t at_ = 0;
  const std::string& path_;
  std::string encoding_;  // "" while unknown; then hunspell's name
};

// Sorted list structure of hunspell's affix lookup: a binary tree per
// first key byte, flattened in order, then the next_eq / next_ne links.
void build_index(std::vector<AffixEntry>& entries, AffixIndex& index) {
  std::vector<int32_t> left(entries.size(), -1), right(entries.size(), -1);  // tree: key <= node: left
  for (int32_t e = 0; e < static_cast<int32_t>(entries.size()); ++e) {
    const std::string& key = entries[e].key;
    if (key.empty()) {  // empty keys: a list at 0, newest first
      entries[e].next = index.start[0];
      index.start[0] = e;
      continue;
    }
    int32_t& root = index.start[static_cast<unsigned char>(key[0])];
    if (root < 0) {
      root = e;
      continue;
    }
    for (int32_t at = root;;) {
      int32_t& child = std::strcmp(key.c_str(), entries[at].key.c_str()) <= 0 ? left[at] : right[at];
      if (child < 0) {
        child = e;
        break;
      }
      at = child;
    }
  }
  // In order: the right subtree is listed after the node, the left before.
  std::function<int32_t(int32_t, int32_t)> flatten = [&](int32_t node, int32_t after) -> int32_t {
    if (node < 0) return after;
    after = flatten(right[node], after);
    entries[node].next = after;
    return flatten(left[node], node);
  };
  const auto subset = [](const std::string& a, const std::string& b) {  // hunspell's isSubset on keys
    size_t i = 0;
    while (i < a.size() && i < b.size() && (a[i] == b[i] || a[i] == '.')) ++i;
    return i == a.size();
  };
  for (int c = 1; c < 256; ++c) {
    index.start[c] = flatten(index.start[c], -1);
    for (int32_t p = index.start[c]; p >= 0; p = entries[p].next) {
      int32_t q = entries[p].next;
      while (q >= 0 && subset(entries[p].key, entries[q].key)) q = entries[q].next;
      entries[p].next_ne = q;
      entries[p].next_eq = -1;
      const int32_t n = entries[p].next;
      if (n >= 0 && subset(entries[p].key, entries[n].key)) entries[p].next_eq = n;
    }
    for (int32_t p = index.start[c]; p >= 0; p = entries[p].next) {
      int32_t last = -1;
      for (int32_t q = entries[p].next; q >= 0 && subset(entries[p].key, entries[q].key); q = entries[q].next) last = q;
      if (last >= 0) entries[last].next_ne = -1;
    }
  }
}

class AffParser {
 public:
  AffParser(std::string_view bytes, const std::string& path, std::vector<std::string>* warnings)
      : in_(bytes, path), warnings_(warnings) {
    r_.path = path;
    r_.in_cont_class.assign(65536, 0);
  }

  AffixRules parse() {
    first_pass();
    std::string_view line;
    while (in_.next(line)) directive(line);
    finish();
    return std::move(r_);
  }

 private:
  // What hunspell reads before the rest (its HashMgr's pass): the
  // character set and flag mode decide how every later field is read, and
  // AF aliases and IGNORE apply to affixes written before them too.
  void first_pass() {
    std::string_view line;
    while (in_.next(line)) {
      if (starts_with(line, "FLAG") && line.size() > 4 && (line[4] == ' ' || line[4] == '\t')) {
        if (line.find("long") != std::string_view::npos) r_.flag_mode = FlagMode::two_bytes;
        if (line.find("num") != std::string_view::npos) r_.flag_mode = FlagMode::number;
        if (line.find("UTF-8") != std::string_view::npos) r_.flag_mode = FlagMode::utf8;
      }
      if (starts_with(line, "SET") && r_.encoding.empty()) {
        const auto f = fields(line, 2, "SET");
        r_.encoding = std::string(f[1]);
        if (!known_charset(r_.encoding)) in_.fail("unknown character set '" + r_.encoding + "' (SET)");
        in_.set_encoding(r_.encoding);
      }
      if (starts_with(line, "COMPLEXPREFIXES")) r_.complex_prefixes = true;
      if (starts_with(line, "AF") && line.size() > 2 && (line[2] == ' ' || line[2] == '\t')) aliases(line);
      if (starts_with(line, "IGNORE")) {
        r_.ignore = decode_utf8(string_value(line, "IGNORE"));
        std::sort(r_.ignore.begin(), r_.ignore.end());
      }
    }
    in_.rewind();
    in_.set_encoding(r_.encoding.empty() ? "ISO8859-1" : r_.encoding);
  }

  std::vector<std::string_view> fields(std::string_view line, size_t at_least, const char* what) {
    auto f = hunspell_fields(line);
    if (f.size() < at_least) in_.fail(std::string("missing data (") + what + ")");
    return f;
  }
  std::string string_value(std::string_view line, const char* what) { return in_.text(fields(line, 2, what)[1]); }
  void flag_value(std::string_view line, Flag& out, const char* what) {
    if (out != kNoFlag && out < kFlagLimit) in_.fail(std::string("multiple definitions of ") + what);
    out = decode_flag(fields(line, 2, what)[1], r_.flag_mode);
  }
  void number_value(std::string_view line, int& out, bool& seen, const char* what) {
    if (seen) in_.fail(std::string("multiple definitions of ") + what);
    seen = true;
    out = to_int(fields(line, 2, what)[1]);
  }
  void warn(const std::string& what) {
    if (warnings_ && warned_.insert(what).second) warnings_->push_back(r_.path + ": " + what);
  }

  // A table header "NAME n": its count (at least `least`).
  int table_count(std::string_view line, const char* name, int least = 1) {
    const auto f = fields(line, 2, name);
    const int n = to_int(f[1]);
    if (n < least) in_.fail(std::string("bad entry number for ") + name);
    return n;
  }
  // The n lines of a table, each starting with name.
  std::vector<std::string_view> table_lines(std::string_view name, int n) {
    std::vector<std::string_view> rows;
    for (int k = 0; k < n; ++k) {
      std::string_view row;
      if (!in_.next(row)) in_.fail("the " + std::string(name) + " table ends early");
      const auto f = hunspell_fields(row);
      if (f.empty() || !starts_with(f[0], name)) in_.fail("the " + std::string(name) + " table is corrupt");
      rows.push_back(row);
    }
    return rows;
  }

  void directive(std::string_view line) {
    struct FlagOption {
      const char* name;
      Flag AffixRules::*field;
    };
    static const FlagOption flag_options[] = {
        {"COMPOUNDFLAG", &AffixRules::compound_flag},
        {"COMPOUNDMIDDLE", &AffixRules::compound_middle},
        {"COMPOUNDROOT", &AffixRules::compound_root},
        {"COMPOUNDPERMITFLAG", &AffixRules::compound_permit},
        {"COMPOUNDFORBIDFLAG", &AffixRules::compound_forbid},
        {"NOSUGGEST", &AffixRules::nosuggest},
        {"NONGRAMSUGGEST", &AffixRules::nongram_suggest},
        {"FORBIDDENWORD", &AffixRules::forbidden},
        {"CIRCUMFIX", &AffixRules::circumfix},
        {"ONLYINCOMPOUND", &AffixRules::only_in_compound},
        {"PSEUDOROOT", &AffixRules::need_affix},
        {"NEEDAFFIX", &AffixRules::need_affix},
        {"KEEPCASE", &AffixRules::keepcase},
        {"FORCEUCASE", &AffixRules::forceucase},
        {"WARN", &AffixRules::warn},
        {"SUBSTANDARD", &AffixRules::substandard},
    };
    for (const auto& o : flag_options)
      if (starts_with(line, o.name)) flag_value(line, r_.*o.field, o.name);
    if (starts_with(line, "COMPOUNDBEGIN"))
      flag_value(line, r_.complex_prefixes ? r_.compound_end : r_.compound_begin, "COMPOUNDBEGIN");
    if (starts_with(line, "COMPOUNDEND"))
      flag_value(line, r_.complex_prefixes ? r_.compound_begin : r_.compound_end, "COMPOUNDEND");
    if (starts_with(line, "LEMMA_PRESENT")) warn("LEMMA_PRESENT (morphology) is ignored");

    struct Switch {
      const char* name;
      bool AffixRules::*field;
    };
    static const Switch switches[] = {
        {"COMPOUNDMORESUFFIXES", &AffixRules::compound_more_suffixes},
        {"CHECKCOMPOUNDDUP", &AffixRules::check_compound_dup},
        {"CHECKCOMPOUNDREP", &AffixRules::check_compound_rep},
        {"CHECKCOMPOUNDTRIPLE", &AffixRules::check_compound_triple},
        {"SIMPLIFIEDTRIPLE", &AffixRules::simplified_triple},
        {"CHECKCOMPOUNDCASE", &AffixRules::check_compound_case},
        {"FULLSTRIP", &AffixRules::fullstrip},
        {"FORBIDWARN", &AffixRules::forbid_warn},
        {"CHECKSHARPS", &AffixRules::checksharps},
    };
    for (const auto& s : switches)
      if (starts_with(line, s.name)) r_.*s.field = true;

    if (starts_with(line, "KEY")) r_.key_chars = string_value(line, "KEY");
    if (starts_with(line, "TRY")) r_.try_chars = string_value(line, "TRY");
    if (starts_with(line, "LANG")) r_.lang = string_value(line, "LANG");
    if (starts_with(line, "WORDCHARS")) r_.wordchars = string_value(line, "WORDCHARS");
    if (starts_with(line, "COMPOUNDWORDMAX"))
      number_value(line, r_.compound_word_max, seen_word_max_, "COMPOUNDWORDMAX");
    if (starts_with(line, "COMPOUNDMIN")) {
      number_value(line, r_.compound_min, seen_compound_min_, "COMPOUNDMIN");
      if (r_.compound_min < 1) r_.compound_min = 1;
    }
    if (starts_with(line, "COMPOUNDSYLLABLE") || starts_with(line, "SYLLABLENUM"))
      warn(
          "COMPOUNDSYLLABLE and SYLLABLENUM (Hungarian compounding) are not supported: compounds are checked "
          "without syllable counts");
    if (starts_with(line, "AF") && line.size() > 2 && (line[2] == ' ' || line[2] == '\t')) skip_table(line, "AF");
    if (starts_with(line, "AM") && line.size() > 2 && (line[2] == ' ' || line[2] == '\t')) skip_table(line, "AM");
    if (starts_with(line, "REP")) rep_table(line);
    if (starts_with(line, "ICONV")) conversion(line, "ICONV", r_.iconv);
    if (starts_with(line, "OCONV")) conversion(line, "OCONV", r_.oconv);
    if (starts_with(line, "PHONE")) skip_table(line, "PHONE");
    if (starts_with(line, "CHECKCOMPOUNDPATTERN")) compound_pattern_table(line);
    if (starts_with(line, "COMPOUNDRULE")) compound_rule_table(line);
    if (starts_with(line, "MAP")) map_table(line);
    if (starts_with(line, "BREAK")) break_table(line);
    if (starts_with(line, "PFX")) affix_class(line, !r_.complex_prefixes);
    if (starts_with(line, "SFX")) affix_class(line, r_.complex_prefixes);
  }

  void aliases(std::string_view line) {
    if (!r_.flag_aliases.empty()) in_.fail("multiple AF tables");
    const int n = table_count(line, "AF");
    for (std::string_view row : table_lines("AF", n)) {
      const auto f = hunspell_fields(row);
      std::vector<Flag> flags = f.size() > 1 ? decode_flags(f[1], r_.flag_mode) : std::vector<Flag>{};
      std::sort(flags.begin(), flags.end());
      r_.flag_aliases.push_back(std::move(flags));
    }
  }

  void skip_table(std::string_view line, const char* name) {
    const auto f = hunspell_fields(line);
    if (f.size() < 2) return;
    const int n = to_int(f[1]);
    if (std::string_view(name) == "PHONE")
      warn("PHONE (hunspell's phonetic suggestions) is not used: ranked suggestions have their own");
    for (int k = 0; k < n; ++k) {
      std::string_view row;
      if (!in_.next(row)) in_.fail(std::string("the ") + name + " table ends early");
    }
  }

  void rep_table(std::string_view line) {
    if (rep_parsed_) in_.fail("multiple REP tables");
    rep_parsed_ = true;
    const int n = table_count(line, "REP");
    for (std::string_view row : table_lines("REP", n)) {
      const auto f = hunspell_fields(row);
      ReplacementRule rule;
      if (f.size() < 3) in_.fail("the REP table is corrupt");
      std::string pattern = in_.text(f[1]);
      int type = 0;
      if (!pattern.empty() && pattern[0] == '^') {
        type = 1;
        pattern.erase(0, 1);
      }
      if (!pattern.empty() && pattern.back() == '$') {
        type += 2;
        pattern.pop_back();
      }
      std::replace(pattern.begin(), pattern.end(), '_', ' ');
      std::string out = in_.text(f[2]);
      std::replace(out.begin(), out.end(), '_', ' ');
      if (pattern.empty() || out.empty()) in_.fail("the REP table is corrupt");
      rule.pattern = std::move(pattern);
      rule.out[type] = std::move(out);
      r_.rep.push_back(std::move(rule));
    }
  }

  void conversion(std::string_view line, const char* name, ConversionTable& table) {
    if (!table.empty()) in_.fail(std::string("multiple ") + name + " tables");
    const int n = table_count(line, name);
    for (std::string_view row : table_lines(name, n)) {
      const auto f = hunspell_fields(row);
      if (f.size() < 3) in_.fail(std::string("the ") + name + " table is corrupt");
      table.add(in_.text(f[1]), in_.text(f[2]));
    }
  }

  // "end[/flag] begin[/flag] [replacement]"
  void compound_pattern_table(std::string_view line) {
    if (patterns_parsed_) in_.fail("multiple CHECKCOMPOUNDPATTERN tables");
    patterns_parsed_ = true;
    const int n = table_count(line, "CHECKCOMPOUNDPATTERN");
    for (std::string_view row : table_lines("CHECKCOMPOUNDPATTERN", n)) {
      const auto f = hunspell_fields(row);
      CompoundPattern p;
      const auto part = [&](std::string_view field, std::string& text, Flag& flag) {
        const size_t slash = field.find('/');
        text = in_.text(field.substr(0, slash));
        if (slash != std::string_view::npos) flag = decode_flag(field.substr(slash + 1), r_.flag_mode);
      };
      if (f.size() > 1) part(f[1], p.end_chars, p.end_flag);
      if (f.size() > 2) part(f[2], p.begin_chars, p.begin_flag);
      if (f.size() > 3) {
        p.replacement = in_.text(f[3]);
        r_.simplified_compound_patterns = true;
      }
      r_.compound_patterns.push_back(std::move(p));
    }
  }

  void compound_rule_table(std::string_view line) {
    if (rules_parsed_) in_.fail("multiple COMPOUNDRULE tables");
    rules_parsed_ = true;
    const int n = table_count(line, "COMPOUNDRULE");
    for (std::string_view row : table_lines("COMPOUNDRULE", n)) {
      const auto f = hunspell_fields(row);
      std::vector<Flag> rule;
      if (f.size() > 1) {
        const std::string_view text = f[1];
        if (text.find('(') == std::string_view::npos) {
          rule = decode_flags(text, r_.flag_mode);
        } else {
          for (size_t k = 0; k < text.size(); ++k) {
            size_t b = k, e = k + 1;
            if (text[k] == '(') {
              const size_t close = text.find(')', k);
              if (close != std::string_view::npos) {
                b = k + 1;
                e = close;
                k = close;
              }
            }
            if (text[b] == '*' || text[b] == '?') {
              rule.push_back(static_cast<Flag>(text[b]));
            } else {
              const auto flags = decode_flags(text.substr(b, e - b), r_.flag_mode);
              rule.insert(rule.end(), flags.begin(), flags.end());
            }
          }
        }
      }
      if (rule.empty()) in_.fail("the COMPOUNDRULE table is corrupt");
      r_.compound_rules.push_back(std::move(rule));
    }
  }

  void map_table(std::string_view line) {
    if (map_parsed_) in_.fail("multiple MAP tables");
    map_parsed_ = true;
    const int n = table_count(line, "MAP");
    for (std::string_view row : table_lines("MAP", n)) {
      const auto f = hunspell_fields(row);
      std::vector<std::string> group;
      if (f.size() > 1) {
        const std::u32string text = decode_utf8(in_.text(f[1]));
        for (size_t k = 0; k < text.size(); ++k) {
          if (text[k] == U'(') {
            const size_t close = text.find(U')', k);
            if (close != std::u32string::npos) {
              group.push_back(encode_utf8(text.substr(k + 1, close - k - 1)));
              k = close;
              continue;
            }
          }
          group.push_back(encode_utf8(text.substr(k, 1)));
        }
      }
      r_.map.push_back(std::move(group));
    }
  }

  void break_table(std::string_view line) {
    if (breaks_parsed_) in_.fail("multiple BREAK tables");
    breaks_parsed_ = true;
    const int n = table_count(line, "BREAK", 0);
    if (n == 0) return;
    for (std::string_view row : table_lines("BREAK", n)) {
      const auto f = hunspell_fields(row);
      if (f.size() > 1) r_.breaks.push_back(in_.text(f[1]));
    }
    if (r_.breaks.size() != static_cast<size_t>(n)) in_.fail("the BREAK table is corrupt");
  }

  // "PFX flag Y|N count" and its count entry lines. as_prefix: where the
  // entries go in the internal form (COMPLEXPREFIXES swaps the sides).
  void affix_class(std::string_view line, bool as_prefix) {
    const auto head = hunspell_fields(line);
    if (head.size() < 4) in_.fail("missing data in an affix header");
    const Flag flag = decode_flag(head[1], r_.flag_mode);
    const bool cross = !head[2].empty() && head[2][0] == 'Y';
    const int n = to_int(head[3]);
    if (n <= 0) in_.fail("bad entry number in an affix header");
    for (int k = 0; k < n; ++k) {
      std::string_view row;
      if (!in_.next(row)) in_.fail("affix " + r_.flag_name(flag) + " ends early (" + std::to_string(n) + " entries)");
      const auto f = hunspell_fields(row);
      if (f.size() < 4) in_.fail("affix " + r_.flag_name(flag) + " is corrupt");
      if (decode_flag(f[1], r_.flag_mode) != flag)  // the first field is not checked, as hunspell does not
        in_.fail("affix " + r_.flag_name(flag) + " is corrupt (an entry of another affix)");
      affix_entry(f, flag, cross, as_prefix);
    }
  }

  void affix_entry(const std::vector<std::string_view>& f, Flag flag, bool cross, bool as_prefix) {
    AffixEntry e;
    e.flag = flag;
    e.cross = cross;
    e.strip = in_.text(f[2]);
    if (e.strip == "0") e.strip.clear();
    std::string_view appended = f[3];
    const size_t slash = appended.find('/');
    if (slash != std::string_view::npos) {
      const std::string_view cont = appended.substr(slash + 1);
      appended = appended.substr(0, slash);
      if (!r_.flag_aliases.empty()) {
        try {
          e.cont = r_.flags_of_field(cont);
        } catch (const std::invalid_argument& err) {
          in_.fail(err.what());
        }
      } else {
        e.cont = decode_flags(cont, r_.flag_mode);
      }
      std::sort(e.cont.begin(), e.cont.end());
      r_.have_cont_class = true;
      for (Flag c : e.cont) r_.in_cont_class[c] = 1;
    }
    e.append = r_.remove_ignored(in_.text(appended));
    if (e.append == "0") e.append.clear();
    std::u32string condition = f.size() > 4 ? decode_utf8(in_.text(f[4])) : U".";
    if (r_.complex_prefixes) {
      e.strip = reversed_code_points(e.strip);
      e.append = reversed_code_points(e.append);
    }
    e.condition = AffixCondition::parse(condition);
    if (r_.complex_prefixes) std::reverse(e.condition.atoms.begin(), e.condition.atoms.end());
    e.key = e.append;
    if (!as_prefix) std::reverse(e.key.begin(), e.key.end());
    (as_prefix ? r_.prefixes : r_.suffixes).push_back(std::move(e));
  }

  void finish() {
    for (auto* list : {&r_.prefixes, &r_.suffixes})
      for (AffixEntry& e : *list) {
        const auto mark = [&](Flag f, AffixMark m) { return has_flag(e.cont, f) ? m : 0; };
        e.marks =
            static_cast<uint8_t>(mark(r_.compound_permit, kPermitMark) | mark(r_.circumfix, kCircumfixMark) |
                                 mark(r_.only_in_compound, kOnlyInCompoundMark) | mark(r_.need_affix, kNeedAffixMark));
      }
    build_index(r_.prefixes, r_.prefix_index);
    build_index(r_.suffixes, r_.suffix_index);
    build_walk(r_.prefixes, r_.prefix_walk);
    build_walk(r_.suffixes, r_.suffix_walk);
    if (!breaks_parsed_) r_.breaks = {"-", "^-", "-$"};
  }

  void build_walk(const std::vector<AffixEntry>& entries, std::vector<AffixWalkStep>& walk) {
    walk.clear();
    for (const AffixEntry& e : entries) {
      walk.push_back(AffixWalkStep{static_cast<uint32_t>(r_.walk_keys.size()), static_cast<uint32_t>(e.key.size()),
                                   e.next_eq, e.next_ne});
      r_.walk_keys += e.key;
    }
  }

  AffReader in_;
  std::vector<std::string>* warnings_;
  std::set<std::string> warned_;
  AffixRules r_;
  bool seen_word_max_ = false, seen_compound_min_ = false;
  bool rep_parsed_ = false, patterns_parsed_ = false, rules_parsed_ = false, map_parsed_ = false;
  bool breaks_parsed_ = false;
};

}  // namespace

bool has_flag(const Flag* sorted, size_t n, Flag f) { return std::binary_search(sorted, sorted + n, f); }

std::vector<Flag> decode_flags(std::string_view raw, FlagMode mode) {
  std::vector<Flag> out;
  switch (mode) {
    case FlagMode::two_bytes:
      for (size_t i = 0; i + 1 < raw.size(); i += 2)
        out.push_back(
            static_cast<Flag>((static_cast<unsigned char>(raw[i]) << 8) | static_cast<unsigned char>(raw[i + 1])));
      break;
    case FlagMode::number: {
      size_t b = 0;
      for (size_t i = 0; i <= raw.size(); ++i)
        if (i == raw.size() || raw[i] == ',') {
          out.push_back(static_cast<Flag>(to_int(raw.substr(b, i - b))));
          b = i + 1;
        }
      break;
    }
    case FlagMode::utf8:
      for (char32_t c : decode_utf8(raw)) out.push_back(static_cast<Flag>(c > 0xFFFF ? 0xFFFD : c));
      break;
    case FlagMode::single_byte:
      for (char c : raw) out.push_back(static_cast<unsigned char>(c));
      break;
  }
  return out;
}

Flag decode_flag(std::string_view raw, FlagMode mode) {
  switch (mode) {
    case FlagMode::two_bytes: {
      const unsigned char a = raw.empty() ? 0 : static_cast<unsigned char>(raw[0]);
      const unsigned char b = raw.size() < 2 ? 0 : static_cast<unsigned char>(raw[1]);
      return static_cast<Flag>((a << 8) | b);
    }
    case FlagMode::number: return static_cast<Flag>(to_int(raw));
    case FlagMode::utf8: {
      const std::u32string w = decode_utf8(raw);
      return w.empty() ? kNoFlag : static_cast<Flag>(w[0] > 0xFFFF ? 0xFFFD : w[0]);
    }
    case FlagMode::single_byte: break;
  }
  return raw.empty() ? kNoFlag : static_cast<unsigned char>(raw[0]);
}

bool AffixCondition::Atom::matches(char32_t c) const {
  if (any) return true;
  const bool in = chars.find(c) != std::u32string::npos;
  return in != negated;
}

// hunspell's condition matchers step over the word and the condition
// together. A word that ends where only a negated group is left passes it
// ("[^c]" accepts the end of the word): at a prefix condition's end, or at
// a suffix condition's start (suffixes are matched backwards). A suffix's
// root also needs as many bytes as the condition has atoms (checked before
// the condition).
bool AffixCondition::matches_start(std::string_view word) const {
  size_t at = 0;
  for (size_t k = 0; k < atoms.size(); ++k) {
    if (at >= word.size()) return k + 1 == atoms.size() && atoms[k].negated;
    const size_t n = utf8_length_at(word, at);
    char32_t c[4];
    decode_utf8(word.substr(at, n), c);
    if (!atoms[k].matches(c[0])) return false;
    at += n;
  }
  return true;
}

bool AffixCondition::matches_end(std::string_view word) const {
  if (word.size() < atoms.size()) return false;
  size_t end = word.size();
  for (size_t k = atoms.size(); k-- > 0;) {
    if (end == 0) return k == 0 && atoms[0].negated;
    size_t b = end - 1;
    while (b > 0 && (static_cast<unsigned char>(word[b]) & 0xC0) == 0x80 && end - b < 4) --b;
    char32_t c[4];
    const size_t got = decode_utf8(word.substr(b, end - b), c);
    if (!atoms[k].matches(c[got - 1])) return false;
    end = b;
  }
  return true;
}

AffixCondition AffixCondition::parse(std::u32string_view text) {
  AffixCondition c;
  if (text == U".") return c;
  for (size_t i = 0; i < text.size(); ++i) {
    Atom a;
    if (text[i] == U'[') {
      size_t k = i + 1;
      if (k < text.size() && text[k] == U'^') {
        a.negated = true;
        ++k;
      }
      while (k < text.size() && text[k] != U']') a.chars += text[k++];
      i = k;  // at ']' (or the end of an unclosed group)
    } else if (text[i] == U'.') {
      a.any = true;
    } else {
      a.chars = text[i];
    }
    c.atoms.push_back(std::move(a));
  }
  return c;
}

void ConversionTable::add(std::string pattern, std::string out) {
  int type = 0;
  if (!pattern.empty() && pattern[0] == '_') {
    pattern.erase(0, 1);
    type = 1;
  }
  if (!pattern.empty() && pattern.back() == '_') {
    pattern.pop_back();
    type += 2;
  }
  std::replace(pattern.begin(), pattern.end(), '_', ' ');
  std::replace(out.begin(), out.end(), '_', ' ');
  const int m = find(pattern);
  if (m >= 0 && entries[m].pattern == pattern) {
    entries[m].out[type] = std::move(out);
    return;
  }
  Entry e;
  e.pattern = std::move(pattern);
  e.out[type] = std::move(out);
  auto at = std::upper_bound(entries.begin(), entries.end(), e.pattern, [](const std::string& p, const Entry& x) {
    return std::strcmp(p.c_str(), x.pattern.c_str()) < 0;
  });
  entries.insert(at, std::move(e));
}

// hunspell's RepList::find: a binary search that keeps looking right for a
// longer pattern matching at the start of word.
int ConversionTable::find(std::string_view word) const {
  int lo = 0, hi = static_cast<int>(entries.size()) - 1, found = -1;
  const std::string w(word);
  while (lo <= hi) {
    const int m = static_cast<int>((static_cast<unsigned>(lo) + static_cast<unsigned>(hi)) >> 1);
    const int c = std::strncmp(w.c_str(), entries[m].pattern.c_str(), entries[m].pattern.size());
    if (c < 0) hi = m - 1;
    else if (c > 0) lo = m + 1;
    else {
      found = m;
      lo = m + 1;
    }
  }
  return found;
}

const std::string& ConversionTable::replacement(std::string_view word, int index, bool at_start) const {
  static const std::string none;
  if (index < 0) return none;
  const Entry& e = entries[index];
  int type = at_start ? 1 : 0;
  if (word.size() == e.pattern.size()) type = at_start ? 3 : 2;
  while (type && e.out[type].empty()) type = (type == 2 && !at_start) ? 0 : type - 1;
  return e.out[type];
}

bool ConversionTable::convert(std::string_view word, std::string& out) const {
  out.clear();
  bool changed = false;
  for (size_t i = 0; i < word.size(); ++i) {
    const int n = find(word.substr(i));
    const std::string& r = replacement(word.substr(i), n, i == 0);
    if (!r.empty()) {
      out += r;
      i += entries[n].pattern.size() - 1;
      changed = true;
    } else {
      out += word[i];
    }
  }
  return changed;
}

bool AffixRules::utf8() const { return encoding == "UTF-8" || encoding == "utf-8" || encoding == "utf8"; }

std::string AffixRules::remove_ignored(std::string_view word) const {
  if (ignore.empty()) return std::string(word);
  std::u32string w = decode_utf8(word);
  std::erase_if(w, [&](char32_t c) { return std::binary_search(ignore.begin(), ignore.end(), c); });
  return encode_utf8(w);
}

std::string AffixRules::internal_form(std::string_view word) const {
  std::string w = remove_ignored(word);
  return complex_prefixes ? reversed_code_points(w) : w;
}

std::vector<Flag> AffixRules::flags_of_field(std::string_view raw) const {
  if (flag_aliases.empty()) {
    auto f = decode_flags(raw, flag_mode);
    std::sort(f.begin(), f.end());
    return f;
  }
  const int index = to_int(raw);
  if (index < 1 || static_cast<size_t>(index) > flag_aliases.size())
    throw std::invalid_argument("bad flag alias number " + std::string(raw) + " (AF has " +
                                std::to_string(flag_aliases.size()) + ")");
  return flag_aliases[index - 1];
}

std::string AffixRules::flag_name(Flag f) const {
  switch (flag_mode) {
    case FlagMode::two_bytes: {
      std::string s;
      s += static_cast<char>(f >> 8);
      s += static_cast<char>(f & 0xFF);
      return s;
    }
    case FlagMode::number: return std::to_string(f);
    case FlagMode::utf8: {
      std::string s;
      append_utf8(s, f);
      return s;
    }
    case FlagMode::single_byte: break;
  }
  return std::string(1, static_cast<char>(f));
}

std::vector<std::string_view> hunspell_lines(std::string_view bytes) {
  std::vector<std::string_view> lines;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
  size_t b = 0;
  while (b < bytes.size()) {
    size_t e = bytes.find('\n', b);
    const size_t next = e == std::string_view::npos ? bytes.size() : e + 1;
    if (e == std::string_view::npos) e = bytes.size();
    std::string_view line = bytes.substr(b, e - b);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    b = next;
  }
  return lines;
}

std::vector<std::string_view> hunspell_fields(std::string_view line) {
  std::vector<std::string_view> f;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > b) f.push_back(line.substr(b, i - b));
  }
  return f;
}

AffixRules parse_affix_rules(std::string_view bytes, const std::string& path, std::vector<std::string>* warnings) {
  AffParser p(bytes, path, warnings);
  return p.parse();
}

}  // namespace spellcheck
