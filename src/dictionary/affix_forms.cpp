#include "spellcheck/dictionary/affix_forms.hpp"

#include <algorithm>

namespace spellcheck {

bool apply_prefix(const AffixRules& rules, const AffixEntry& p, std::string_view word, std::string& out) {
  if (!p.strip.empty() && (word.size() < p.strip.size() || word.compare(0, p.strip.size(), p.strip) != 0)) return false;
  const size_t rest = word.size() - p.strip.size();
  if (!(rest > 0 || (rest == 0 && rules.fullstrip))) return false;
  if (!p.condition.matches_start(word)) return false;
  out.assign(p.append);
  out.append(word.substr(p.strip.size()));
  return true;
}

bool apply_suffix(const AffixRules& rules, const AffixEntry& s, std::string_view word, std::string& out) {
  if (!s.strip.empty() &&
      (word.size() < s.strip.size() || word.compare(word.size() - s.strip.size(), s.strip.size(), s.strip) != 0))
    return false;
  const size_t rest = word.size() - s.strip.size();
  if (!(rest > 0 || (rest == 0 && rules.fullstrip))) return false;
  if (!s.condition.matches_end(word)) return false;
  out.assign(word.substr(0, rest));
  out.append(s.append);
  return true;
}

namespace {

// The last code point a word needs for suffix e to apply; 0: none known.
char32_t needed_last(const AffixEntry& e) {
  if (!e.strip.empty()) {
    const std::u32string s = decode_utf8(e.strip);
    return s.back();
  }
  if (e.condition.atoms.empty()) return 0;
  const AffixCondition::Atom& a = e.condition.atoms.back();
  return !a.any && !a.negated && a.chars.size() == 1 ? a.chars[0] : 0;
}

char32_t last_code_point(std::string_view w) {
  if (w.empty()) return 0;
  size_t b = w.size() - 1;
  while (b > 0 && (static_cast<unsigned char>(w[b]) & 0xC0) == 0x80 && w.size() - b < 4) --b;
  char32_t c[4];
  const size_t n = decode_utf8(w.substr(b), c);
  return c[n - 1];
}

}  // namespace

AffixesByFlag::AffixesByFlag(const AffixRules& rules) : prefixes(65536), suffixes(65536), suffixes_by_last(65536) {
  for (uint32_t i = 0; i < rules.prefixes.size(); ++i) prefixes[rules.prefixes[i].flag].push_back(i);
  for (uint32_t i = 0; i < rules.suffixes.size(); ++i) {
    suffixes[rules.suffixes[i].flag].push_back(i);
    suffixes_by_last[rules.suffixes[i].flag].emplace_back(needed_last(rules.suffixes[i]), i);
  }
  for (auto& v : suffixes_by_last) std::sort(v.begin(), v.end());
  std::vector<uint8_t> named(65536, 0);
  for (const AffixEntry& p : rules.prefixes)
    if (p.cross)
      for (Flag f : p.cont) named[f] = 1;
  for (uint32_t i = 0; i < rules.suffixes.size(); ++i)
    if (rules.suffixes[i].cross && named[rules.suffixes[i].flag]) enabled_by_prefix.push_back(i);
}

namespace {

// Flags as a small sorted set.
void add_flags(std::vector<Flag>& set, const std::vector<Flag>& more) {
  for (Flag f : more)
    if (!std::binary_search(set.begin(), set.end(), f)) set.insert(std::upper_bound(set.begin(), set.end(), f), f);
}

}  // namespace

void expand_forms(const AffixRules& rules, const AffixesByFlag& by_flag, const StemEntry& entry,
                  std::vector<std::string>& out) {
  out.clear();
  out.push_back(entry.word);
  const std::vector<Flag>& own = entry.flags;
  const auto owned = [&](Flag f) { return std::binary_search(own.begin(), own.end(), f); };
  std::string once, twice, with_prefix;
  // Prefixes on a form: flags from the entry or the named classes; a
  // suffix the entry lacks (enabled) needs a prefix that names it.
  const auto prefix_all = [&](std::string_view word, const std::vector<Flag>& flags, bool cross_only,
                              const AffixEntry* enabled) {
    for (Flag f : flags)
      for (uint32_t p : by_flag.prefixes[f]) {
        const AffixEntry& pe = rules.prefixes[p];
        if (cross_only && !pe.cross) continue;
        if (enabled && !pe.has_cont(enabled->flag)) continue;
        if (apply_prefix(rules, pe, word, with_prefix)) out.push_back(with_prefix);
      }
  };
  prefix_all(entry.word, own, false, nullptr);
  // Suffixes: the entry's, those its prefixes carry on, and those any
  // cross-product prefix may enable.
  std::vector<Flag> suffix_flags = own;
  for (Flag f : own)
    for (uint32_t p : by_flag.prefixes[f]) add_flags(suffix_flags, rules.prefixes[p].cont);
  std::vector<uint32_t> suffixes;
  const char32_t last = last_code_point(entry.word);
  for (Flag f : suffix_flags) by_flag.each_suffix(f, last, [&](uint32_t s) { suffixes.push_back(s); });
  suffixes.insert(suffixes.end(), by_flag.enabled_by_prefix.begin(), by_flag.enabled_by_prefix.end());
  std::sort(suffixes.begin(), suffixes.end());
  suffixes.erase(std::unique(suffixes.begin(), suffixes.end()), suffixes.end());
  std::vector<Flag> prefix_flags;
  for (uint32_t s : suffixes) {
    const AffixEntry& se = rules.suffixes[s];
    if (!apply_suffix(rules, se, entry.word, once)) continue;
    // The entry's own suffix, or one a prefix must enable.
    const bool own_suffix = owned(se.flag) || std::binary_search(suffix_flags.begin(), suffix_flags.end(), se.flag);
    const AffixEntry* enabled = own_suffix ? nullptr : &se;
    if (own_suffix) out.push_back(once);
    if (se.cross) {  // a prefix on top: the entry's flags or this suffix's classes
      prefix_flags = own;
      add_flags(prefix_flags, se.cont);
      prefix_all(once, prefix_flags, true, enabled);
    }
    const char32_t once_last = se.cont.empty() ? 0 : last_code_point(once);
    for (Flag g : se.cont)  // a second suffix, from this one's classes
      by_flag.each_suffix(g, once_last, [&](uint32_t t) {
        const AffixEntry& te = rules.suffixes[t];
        if (!apply_suffix(rules, te, once, twice)) return;
        if (own_suffix) out.push_back(twice);
        if (se.cross || te.cross) {
          prefix_flags = own;
          add_flags(prefix_flags, se.cont);
          add_flags(prefix_flags, te.cont);
          prefix_all(twice, prefix_flags, true, enabled);
        }
      });
  }
}

void expand_forms(const AffixRules& rules, const StemEntry& entry, std::vector<std::string>& out) {
  const AffixesByFlag by_flag(rules);
  expand_forms(rules, by_flag, entry, out);
}

}  // namespace spellcheck
