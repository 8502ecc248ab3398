// hunspell 1.7's checking, rewritten around a RootSource. The structure
// follows hunspell's own steps so that every decision (which homonym, which
// affix first, the state the compound check reads back) is the one hunspell
// makes; the comments name hunspell's functions where a step mirrors one.
#include "spellcheck/dictionary/affix_checker.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace spellcheck {

namespace {

// Where an affix check happens (hunspell's IN_CPD_*).
enum InCompound : char { kNotInCompound = 0, kCompoundBegin = 1, kCompoundEnd = 2, kCompoundOther = 3 };
constexpr int kCrossProduct = 1;  // aeXPRODUCT as a check option
// hunspell's SPELL_* info bits.
constexpr int kInfoCompound = 1 << 0, kInfoForbidden = 1 << 1, kInfoInitCap = 1 << 4, kInfoOrigCap = 1 << 5,
              kInfoWarn = 1 << 6;
constexpr size_t kMaxWordBytes = 300;  // hunspell's MAXWORDUTF8LEN
constexpr size_t kMaxSharps = 5;
// hunspell gives a compound check 50 ms (its TIMELIMIT), then gives up:
// some words have exponentially many splits ("1000...0x" with the parts 0,
// 00, 000). The same bound here is counted in split points tried, so every
// rank and run gives the same answer; real compounds take a few hundred.
constexpr uint32_t kCompoundSplitBudget = 5000;

using Hit = const Root*;
using Homonyms = RootList;

bool cont_has(const AffixEntry* e, Flag f) { return e != nullptr && !e->cont.empty() && e->has_cont(f); }
// cont_has for the four flags AffixEntry::marks caches.
bool marked(const AffixEntry* e, AffixMark m) { return e != nullptr && (e->marks & m) != 0; }
bool flags_nonempty(Hit r) { return r->flag_count != 0; }
char byte_at(std::string_view s, size_t i) { return i < s.size() ? s[i] : '\0'; }

// hunspell's isSubset: key a prefix of s, '.' in key matching any byte.
bool key_prefix(std::string_view key, std::string_view s) {
  if (key.size() > s.size()) return false;
  for (size_t i = 0; i < key.size(); ++i)
    if (key[i] != s[i] && key[i] != '.') return false;
  return true;
}
// hunspell's isRevSubset: key (reversed append) matches s backwards from its end.
bool key_suffix(std::string_view key, std::string_view s) {
  if (key.size() > s.size()) return false;
  for (size_t i = 0; i < key.size(); ++i)
    if (key[i] != s[s.size() - 1 - i] && key[i] != '.') return false;
  return true;
}

// A number with separators: 1,000 3.14 2-3 (but no "..", "--").
bool separated_number(std::string_view s) {
  enum { begin, digits, separator } state = begin;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      state = digits;
    } else if (c == ',' || c == '.' || c == '-') {
      if (state == separator || i == 0) break;
      state = separator;
    } else {
      break;
    }
  }
  return i == s.size() && state == digits;
}

// A compound step's answer, given: see Check::compound_split_at.
bool decide(Hit& answer, Hit h) {
  answer = h;
  return true;
}

// hunspell's compound_check keeps its search state in locals that each
// step reads and changes: here they are one object per call, which the
// steps get by reference.
struct CompoundSplit {
  CompoundSplit(const std::string& w, short wordnum_, short maxwordnum_, short wnum_, Hit* words_, Hit* rwords_,
                int* info_)
      : word(w),
        st(w),
        len(static_cast<int>(w.size())),
        wordnum(wordnum_),
        maxwordnum(maxwordnum_),
        wnum(wnum_),
        words(words_),
        rwords(rwords_),
        info(info_) {}

  // word + k, as hunspell reads it.
  std::string_view from(int k) const {
    return k <= static_cast<int>(word.size()) ? std::string_view(word).substr(static_cast<size_t>(k))
                                              : std::string_view();
  }

  const std::string& word;
  std::string st;  // word, with a CHECKCOMPOUNDPATTERN's replacement undone at i
  int len;         // st's length as hunspell counts it
  int i = 0;       // the split: the first part is st[0, i)
  int cmin = 0, cmax = 0;
  short wordnum, oldwordnum = 0;  // parts before this one (COMPOUNDROOT counts two)
  const short maxwordnum, wnum;
  Hit* words;  // COMPOUNDRULE: the parts so far (may be pointed at rwords)
  Hit* const rwords;
  int* const info;
  int onlycpdrule = 0;                                  // this pass tries COMPOUNDRULE only
  int checked_prefix = 0;                               // the first part is an affixed form
  size_t scpd = 0;                                      // the CHECKCOMPOUNDPATTERN tried, from 1; 0: none
  int soldi = 0, oldcmin = 0, oldcmax = 0, oldlen = 0;  // i and the bounds before a pattern's replacement
  int striple = 0, checkedstriple = 0;                  // SIMPLIFIEDTRIPLE
  char ch = '\0';                                       // st[i] when the pattern loop last read it
  Hit rv_first = nullptr;                               // the first part
};

class Check {
 public:
  Check(const AffixRules& r, const LetterCase& c, RootSource& roots) : r_(r), case_(c), roots_(roots) {}

  bool spell(std::string_view word);
  Hit simple(std::string_view word);

 private:
  Homonyms homonyms(std::string_view w) { return roots_.homonyms(w); }
  Hit first(std::string_view w) {
    const Homonyms h = homonyms(w);
    return h.empty() ? nullptr : h[0];
  }
  // The homonym after h[k] (k advanced), or null.
  static Hit next_homonym(Homonyms h, size_t& k) { return ++k < h.size() ? h[k] : nullptr; }

  // spell's steps.
  std::string cleaned_word(std::string_view word, size_t& abbreviation) const;
  Hit cased_check(std::string& scw, std::u32string& u, Capitalisation captype, size_t abbreviation, int& info);
  Hit all_capitals_check(std::string& scw, std::u32string& u, size_t abbreviation, int& info);
  Hit initial_capital_check(std::string& scw, std::u32string& u, Capitalisation captype, size_t abbreviation,
                            int& info);
  bool break_check(const std::string& scw);
  // The case variants, made from the code points s32 (s8: their UTF-8).
  void lower_all(std::string& s8, std::u32string& s32) const;
  void raise_first(std::string& s8, std::u32string& s32) const;

  Hit checkword(std::string_view w, int& info);
  Hit spellsharps(std::string& base, size_t from, size_t n, int replaced, int& info);
  bool keepcase(Hit r) const { return r_.keepcase && flags_nonempty(r) && r->has(r_.keepcase); }

  Hit affix_check(std::string_view w, Flag needflag, char in_compound);
  Hit prefix_check(std::string_view w, char in_compound, Flag needflag);
  Hit prefix_check_twosfx(std::string_view w, char in_compound, Flag needflag);
  Hit suffix_check(std::string_view w, int sfxopts, const AffixEntry* ppfx, Flag cclass, Flag needflag,
                   char in_compound);
  Hit suffix_check_twosfx(std::string_view w, int sfxopts, const AffixEntry* ppfx, Flag needflag);
  Hit prefix_entry(const AffixEntry& pe, std::string_view w, char in_compound, Flag needflag);
  Hit prefix_entry_twosfx(const AffixEntry& pe, std::string_view w, char in_compound, Flag needflag);
  Hit suffix_entry(const AffixEntry& se, std::string_view w, int optflags, const AffixEntry* ppfx, Flag cclass,
                   Flag needflag, Flag badflag);
  Hit suffix_entry_twosfx(const AffixEntry& se, std::string_view w, int optflags, const AffixEntry* ppfx,
                          Flag needflag);
  bool suffix_allowed(const AffixEntry& se, const AffixEntry* ppfx, Flag cclass, char in_compound) const;

  Hit compound_check(const std::string& word, short wordnum, short maxwordnum, short wnum, Hit* words, Hit* rwords,
                     int* info);
  // compound_check's steps. Those with an answer return true when they
  // found it: the word's first part when the word is a compound, null when
  // it must not be one; false to go on. (Not a std::optional<Hit>: copied
  // out of the split loop, its two halves stored apart and loaded as one
  // stall the loop.)
  bool compound_split_at(CompoundSplit& s, Hit& answer);
  bool apply_compound_pattern(CompoundSplit& s) const;
  // What the first part leaves the pattern loop to do: look at the rest,
  // go round again, leave the loop, or give the word up.
  enum class FirstPart { go_on, retry, stop, forbidden };
  FirstPart first_compound_part(CompoundSplit& s, std::string_view part1, Hit& rv);
  Hit affixed_first_part(std::string_view part1, bool roots1, short wordnum, int& checked_prefix);
  bool first_part_fits(const CompoundSplit& s, Hit rv) const;
  bool compound_rest(CompoundSplit& s, Hit& answer);
  bool rest_as_root(CompoundSplit& s, Hit& answer);
  bool rest_affixed(CompoundSplit& s, Hit& answer);
  bool rest_as_compound(CompoundSplit& s, Hit& answer);
  bool first_part_homonym_fails(Hit rv, Hit*& words, short wnum, short wordnum, int onlycpdrule, Hit* rwords,
                                size_t scpd);
  bool defcpd_check(Hit*& words, short wnum, Hit rv, Hit* def, bool all);
  bool cpdrep_check(std::string_view word);
  bool cpdwordpair_check(std::string_view word);
  bool cpdpat_check(std::string_view word, size_t pos, Hit r1, Hit r2) const;
  bool cpdcase_check(std::string_view word, size_t pos) const;
  bool candidate_check(std::string_view word);
  void setcminmax(int& cmin, int& cmax, std::string_view word) const;

  const AffixRules& r_;
  const LetterCase& case_;
  RootSource& roots_;
  // hunspell keeps these in its AffixMgr between calls; the compound check
  // reads what the last affix check left.
  const AffixEntry* pfx_ = nullptr;
  const AffixEntry* sfx_ = nullptr;
  uint32_t compound_splits_ = 0;  // split points tried since the outermost compound check began
};

// ---------------------------------------------------------------- spell ---

bool Check::spell(std::string_view word) {
  if (word.size() >= kMaxWordBytes) return false;
  std::string converted;
  if (r_.iconv.convert(word, converted)) word = converted;
  size_t abbreviation = 0;
  std::string scw = cleaned_word(word, abbreviation);
  if (scw.empty()) return true;
  // hunspell keeps the word twice, as UTF-8 (scw) and as code points (u),
  // and derives each case variant from the code points: u stays right
  // where it edits only scw (the dotted capital I below).
  std::u32string u = decode_utf8(scw);
  const Capitalisation captype = case_.kind(std::u32string_view(u));
  if (separated_number(scw)) return true;

  int info = 0;
  const Hit rv = cased_check(scw, u, captype, abbreviation, info);
  if (rv) {
    if (r_.warn && flags_nonempty(rv) && rv->has(r_.warn)) {
      info |= kInfoWarn;
      return !r_.forbid_warn;
    }
    return true;
  }
  if (r_.breaks.empty() || (info & kInfoForbidden)) return false;
  return break_check(scw);
}

// cleanword2: IGNORE characters out, leading blanks dropped, trailing dots
// dropped and counted (abbreviation).
std::string Check::cleaned_word(std::string_view word, size_t& abbreviation) const {
  std::string cleaned = r_.remove_ignored(word);
  std::string_view q = cleaned;
  while (!q.empty() && q.front() == ' ') q.remove_prefix(1);
  abbreviation = 0;
  while (!q.empty() && q.back() == '.') {
    q.remove_suffix(1);
    ++abbreviation;
  }
  return std::string(q);
}

void Check::lower_all(std::string& s8, std::u32string& s32) const {
  for (char32_t& c : s32) c = case_.lower(c);
  s8 = encode_utf8(s32);
}

void Check::raise_first(std::string& s8, std::u32string& s32) const {
  if (!s32.empty()) s32[0] = case_.upper(s32[0]);
  s8 = encode_utf8(s32);
}

// The word as it stands, and the case variants its capitalisation allows.
Hit Check::cased_check(std::string& scw, std::u32string& u, Capitalisation captype, size_t abbreviation, int& info) {
  switch (captype) {
    case Capitalisation::mixed:
    case Capitalisation::mixed_initial:
    case Capitalisation::none: {
      if (captype != Capitalisation::none) info |= kInfoOrigCap;
      Hit rv = checkword(scw, info);
      if (abbreviation && !rv) rv = checkword(scw + '.', info);
      return rv;
    }
    case Capitalisation::all:
      if (const Hit rv = all_capitals_check(scw, u, abbreviation, info)) return rv;
      return initial_capital_check(scw, u, captype, abbreviation, info);
    case Capitalisation::initial: return initial_capital_check(scw, u, captype, abbreviation, info);
  }
  return nullptr;
}

// A word in capitals as it stands, with the apostrophe's prefix rule and
// sharp s; then it goes on as an initial capital (scw and u lowered on the
// way when it has an apostrophe or SS).
Hit Check::all_capitals_check(std::string& scw, std::u32string& u, size_t abbreviation, int& info) {
  info |= kInfoOrigCap;
  Hit rv = checkword(scw, info);
  if (rv) return rv;
  if (abbreviation) {
    rv = checkword(scw + '.', info);
    if (rv) return rv;
  }
  // Prefixes before an apostrophe (SANT'ELIA -> Sant'Elia).
  const size_t apos = scw.find('\'');
  if (apos != std::string::npos) {
    lower_all(scw, u);
    if (apos < scw.size() - 1) {
      const std::string part1 = scw.substr(0, apos + 1);
      std::u32string part2u = decode_utf8(scw.substr(apos + 1));
      std::string part2;
      raise_first(part2, part2u);
      scw = part1 + part2;
      u = decode_utf8(part1) + part2u;
      rv = checkword(scw, info);
      if (rv) return rv;
      raise_first(scw, u);
      rv = checkword(scw, info);
      if (rv) return rv;
    }
  }
  if (r_.checksharps && scw.find("SS") != std::string::npos) {
    lower_all(scw, u);
    std::string buffer = scw;
    rv = spellsharps(buffer, 0, 0, 0, info);
    if (!rv) {
      raise_first(scw, u);
      rv = spellsharps(scw, 0, 0, 0, info);
    }
    if (abbreviation && !rv) {
      buffer += '.';
      rv = spellsharps(buffer, 0, 0, 0, info);
      if (!rv) {
        buffer = scw + '.';
        rv = spellsharps(buffer, 0, 0, 0, info);
      }
    }
    if (rv) return rv;
  }
  return nullptr;
}

// The initial-capital case (also the all-capitals one from here on): the
// word with its first letter raised, then all lowered.
Hit Check::initial_capital_check(std::string& scw, std::u32string& u, Capitalisation captype, size_t abbreviation,
                                 int& info) {
  const bool dotted_i =
      scw.size() >= 2 && static_cast<unsigned char>(scw[0]) == 0xC4 && static_cast<unsigned char>(scw[1]) == 0xB0;
  info |= kInfoOrigCap;
  if (captype == Capitalisation::all) {
    lower_all(scw, u);
    raise_first(scw, u);
    if (dotted_i) scw.replace(0, 1, "\xC4\xB0");  // hunspell's; u keeps the proper form
  }
  if (captype == Capitalisation::initial) info |= kInfoInitCap;
  Hit rv = checkword(scw, info);
  if (captype == Capitalisation::initial) info &= ~kInfoInitCap;
  if (info & kInfoForbidden) return nullptr;
  if (rv && keepcase(rv) && captype == Capitalisation::all) rv = nullptr;
  if (rv || (dotted_i && !case_.turkic())) return rv;
  lower_all(scw, u);
  std::string buffer = scw;
  raise_first(scw, u);
  rv = checkword(buffer, info);
  if (abbreviation && !rv) {
    buffer += '.';
    rv = checkword(buffer, info);
    if (!rv) {
      buffer = scw + '.';
      if (captype == Capitalisation::initial) info |= kInfoInitCap;
      rv = checkword(buffer, info);
      if (captype == Capitalisation::initial) info &= ~kInfoInitCap;
      if (rv && keepcase(rv) && captype == Capitalisation::all) rv = nullptr;
      return rv;
    }
  }
  if (rv && keepcase(rv) &&
      (captype == Capitalisation::all || !(r_.checksharps && buffer.find("\xC3\x9F") != std::string::npos)))
    rv = nullptr;
  return rv;
}

// Break points (BREAK): the word correct as parts split at them,
// recursively.
bool Check::break_check(const std::string& scw) {
  const size_t wl = scw.size();
  size_t points = 0;
  for (const std::string& b : r_.breaks)
    for (size_t pos = scw.find(b); pos != std::string::npos; pos = scw.find(b, pos + b.size())) ++points;
  if (points >= 10) return false;
  for (const std::string& b : r_.breaks) {  // ^begin and end$ patterns
    const size_t plen = b.size();
    if (plen == 1 || plen > wl) continue;
    if (b[0] == '^' && scw.compare(0, plen - 1, b, 1, plen - 1) == 0 && spell(scw.substr(plen - 1))) return true;
    if (b[plen - 1] == '$' && scw.compare(wl - plen + 1, plen - 1, b, 0, plen - 1) == 0 &&
        spell(scw.substr(0, wl - plen + 1)))
      return true;
  }
  for (int pass = 0; pass < 2; ++pass) {  // other patterns: the second occurrence first, then the first
    for (const std::string& b : r_.breaks) {
      const size_t plen = b.size();
      size_t found = scw.find(b);
      if (found == std::string::npos || found == 0 || found >= wl - plen) continue;
      if (pass == 0) {
        const size_t found2 = scw.find(b, found + 1);
        if (found2 != std::string::npos && found2 > 0 && found2 < wl - plen) found = found2;
      }
      if (!spell(scw.substr(found + plen))) continue;
      if (spell(scw.substr(0, found))) return true;
    }
  }
  return false;
}

Hit Check::simple(std::string_view word) {
  std::string w = r_.internal_form(word);
  if (w.empty() || !roots_.prepare(w)) return nullptr;
  for (const Root* e : homonyms(w)) {
    if (flags_nonempty(e) && ((r_.need_affix && e->has(r_.need_affix)) ||
                              (r_.only_in_compound && e->has(r_.only_in_compound)) || e->has(r_.forbidden)))
      continue;
    return e;
  }
  Hit he = affix_check(w, kNoFlag, kNotInCompound);
  if (he && flags_nonempty(he) && ((r_.only_in_compound && he->has(r_.only_in_compound)) || he->has(r_.forbidden)))
    return nullptr;
  return he;
}

// hunspell's checkword: the word itself, then with affixes stripped, then
// as a compound.
Hit Check::checkword(std::string_view in, int& info) {
  std::string w = r_.internal_form(in);
  if (w.empty()) return nullptr;
  Hit he = nullptr;
  if (roots_.prepare(w)) {
    const Homonyms h = homonyms(w);
    size_t k = 0;
    he = h.empty() ? nullptr : h[0];
    if (he && flags_nonempty(he) && he->has(r_.forbidden)) {
      info |= kInfoForbidden;
      return nullptr;
    }
    while (he && flags_nonempty(he) &&
           ((r_.need_affix && he->has(r_.need_affix)) || (r_.only_in_compound && he->has(r_.only_in_compound)) ||
            ((info & kInfoInitCap) && he->has(kOnlyUpcaseFlag))))
      he = next_homonym(h, k);
    if (he) return he;
    he = affix_check(w, kNoFlag, kNotInCompound);
  } else {  // no root: nothing to find, as affix_check would leave it
    pfx_ = nullptr;
    if (r_.have_cont_class) sfx_ = nullptr;
  }
  if (he && flags_nonempty(he) &&
      ((r_.only_in_compound && he->has(r_.only_in_compound)) || ((info & kInfoInitCap) && he->has(kOnlyUpcaseFlag))))
    he = nullptr;
  if (he) {
    if (flags_nonempty(he) && he->has(r_.forbidden)) {
      info |= kInfoForbidden;
      return nullptr;
    }
    return he;
  }
  if (r_.compounding()) {
    std::array<Hit, 100> rwords{};
    he = compound_check(w, 0, 100, 0, nullptr, rwords.data(), &info);
    if (he) info |= kInfoCompound;
  }
  return he;
}

// Words in capitals with "SS": each "ss" tried as ß too (CHECKSHARPS).
Hit Check::spellsharps(std::string& base, size_t from, size_t n, int replaced, int& info) {
  const size_t pos = base.find("ss", from);
  if (pos != std::string::npos && n < kMaxSharps) {
    base[pos] = '\xC3';
    base[pos + 1] = '\x9F';
    Hit h = spellsharps(base, pos + 2, n + 1, replaced + 1, info);
    if (h) return h;
    base[pos] = 's';
    base[pos + 1] = 's';
    h = spellsharps(base, pos + 2, n + 1, replaced, info);
    if (h) return h;
  } else if (replaced > 0) {
    return checkword(base, info);
  }
  return nullptr;
}

// ------------------------------------------------------------- affixes ---

Hit Check::affix_check(std::string_view w, Flag needflag, char in_compound) {
  Hit rv = prefix_check(w, in_compound, needflag);
  if (rv) return rv;
  rv = suffix_check(w, 0, nullptr, kNoFlag, needflag, in_compound);
  if (r_.have_cont_class) {
    sfx_ = nullptr;
    pfx_ = nullptr;
    if (rv) return rv;
    rv = suffix_check_twosfx(w, 0, nullptr, needflag);
    if (rv) return rv;
    rv = prefix_check_twosfx(w, kNotInCompound, needflag);
  }
  return rv;
}

Hit Check::prefix_check(std::string_view w, char in_compound, Flag needflag) {
  pfx_ = nullptr;
  const auto allowed = [&](const AffixEntry& pe) {
    return (in_compound != kNotInCompound || !marked(&pe, kOnlyInCompoundMark)) &&
           (in_compound != kCompoundEnd || marked(&pe, kPermitMark));
  };
  for (int32_t e = r_.prefix_index.start[0]; e >= 0; e = r_.prefixes[e].next) {
    const AffixEntry& pe = r_.prefixes[e];
    if (!allowed(pe)) continue;
    if (Hit rv = prefix_entry(pe, w, in_compound, needflag)) {
      pfx_ = &pe;
      return rv;
    }
  }
  if (w.empty()) return nullptr;
  for (int32_t e = r_.prefix_index.start[static_cast<unsigned char>(w[0])]; e >= 0;) {
    const AffixWalkStep& step = r_.prefix_walk[static_cast<size_t>(e)];
    if (!key_prefix(r_.walk_key(step), w)) {
      e = step.next_ne;
      continue;
    }
    const AffixEntry& pe = r_.prefixes[e];
    if (allowed(pe))
      if (Hit rv = prefix_entry(pe, w, in_compound, needflag)) {
        pfx_ = &pe;
        return rv;
      }
    e = step.next_eq;
  }
  return nullptr;
}

Hit Check::prefix_check_twosfx(std::string_view w, char in_compound, Flag needflag) {
  pfx_ = nullptr;
  for (int32_t e = r_.prefix_index.start[0]; e >= 0; e = r_.prefixes[e].next)
    if (Hit rv = prefix_entry_twosfx(r_.prefixes[e], w, in_compound, needflag)) return rv;
  if (w.empty()) return nullptr;
  for (int32_t e = r_.prefix_index.start[static_cast<unsigned char>(w[0])]; e >= 0;) {
    const AffixWalkStep& step = r_.prefix_walk[static_cast<size_t>(e)];
    if (!key_prefix(r_.walk_key(step), w)) {
      e = step.next_ne;
      continue;
    }
    const AffixEntry& pe = r_.prefixes[e];
    if (Hit rv = prefix_entry_twosfx(pe, w, in_compound, needflag)) {
      pfx_ = &pe;
      return rv;
    }
    e = step.next_eq;
  }
  return nullptr;
}

// The conditions suffix_check puts on a suffix before trying it.
bool Check::suffix_allowed(const AffixEntry& se, const AffixEntry* ppfx, Flag cclass, char in_compound) const {
  const bool permitted = in_compound != kCompoundBegin || (r_.compound_permit && marked(&se, kPermitMark));
  const bool circumfix_ok = !r_.circumfix ||
                            ((!ppfx || !marked(ppfx, kCircumfixMark)) && !marked(&se, kCircumfixMark)) ||
                            (ppfx && marked(ppfx, kCircumfixMark) && marked(&se, kCircumfixMark));
  const bool in_compound_ok = in_compound != kNotInCompound || !marked(&se, kOnlyInCompoundMark);
  const bool needaffix_ok = cclass || !marked(&se, kNeedAffixMark) || (ppfx && !marked(ppfx, kNeedAffixMark));
  return permitted && circumfix_ok && in_compound_ok && needaffix_ok;
}

Hit Check::suffix_check(std::string_view w, int sfxopts, const AffixEntry* ppfx, Flag cclass, Flag needflag,
                        char in_compound) {
  const Flag badflag = in_compound != kNotInCompound ? kNoFlag : r_.only_in_compound;
  for (int32_t e = r_.suffix_index.start[0]; e >= 0; e = r_.suffixes[e].next) {
    const AffixEntry& se = r_.suffixes[e];
    if (cclass && se.cont.empty()) continue;
    if (!suffix_allowed(se, ppfx, cclass, in_compound)) continue;
    if (Hit rv = suffix_entry(se, w, sfxopts, ppfx, cclass, needflag, badflag)) {
      sfx_ = &se;
      return rv;
    }
  }
  if (w.empty()) return nullptr;
  for (int32_t e = r_.suffix_index.start[static_cast<unsigned char>(w.back())]; e >= 0;) {
    const AffixWalkStep& step = r_.suffix_walk[static_cast<size_t>(e)];
    if (!key_suffix(r_.walk_key(step), w)) {
      e = step.next_ne;
      continue;
    }
    const AffixEntry& se = r_.suffixes[e];
    if (suffix_allowed(se, ppfx, cclass, in_compound) &&
        (in_compound != kCompoundEnd || ppfx || !marked(&se, kOnlyInCompoundMark)))
      if (Hit rv = suffix_entry(se, w, sfxopts, ppfx, cclass, needflag, badflag)) {
        sfx_ = &se;
        return rv;
      }
    e = step.next_eq;
  }
  return nullptr;
}

Hit Check::suffix_check_twosfx(std::string_view w, int sfxopts, const AffixEntry* ppfx, Flag needflag) {
  for (int32_t e = r_.suffix_index.start[0]; e >= 0; e = r_.suffixes[e].next) {
    const AffixEntry& se = r_.suffixes[e];
    if (r_.in_cont_class[se.flag])
      if (Hit rv = suffix_entry_twosfx(se, w, sfxopts, ppfx, needflag)) return rv;
  }
  if (w.empty()) return nullptr;
  for (int32_t e = r_.suffix_index.start[static_cast<unsigned char>(w.back())]; e >= 0;) {
    const AffixWalkStep& step = r_.suffix_walk[static_cast<size_t>(e)];
    if (!key_suffix(r_.walk_key(step), w)) {
      e = step.next_ne;
      continue;
    }
    const AffixEntry& se = r_.suffixes[e];
    if (r_.in_cont_class[se.flag])
      if (Hit rv = suffix_entry_twosfx(se, w, sfxopts, ppfx, needflag)) return rv;
    e = step.next_eq;
  }
  return nullptr;
}

// PfxEntry::checkword: the root under the prefix, or under it and a suffix.
Hit Check::prefix_entry(const AffixEntry& pe, std::string_view w, char in_compound, Flag needflag) {
  if (w.size() < pe.append.size()) return nullptr;
  const size_t rest = w.size() - pe.append.size();
  if (!(rest > 0 || (rest == 0 && r_.fullstrip))) return nullptr;
  const std::string_view tail = w.substr(pe.append.size());
  const bool maybe = roots_.may_be_spelled(pe.strip, tail);
  if (!maybe && !pe.cross) return nullptr;  // no entry to find, nothing to strip further
  std::string root = pe.strip;
  root.append(tail);
  if (!pe.condition.matches_start(root)) return nullptr;
  if (maybe)
    for (const Root* he : homonyms(root))
      if (he->has(pe.flag) && !marked(&pe, kNeedAffixMark) &&
          (!needflag || he->has(needflag) || cont_has(&pe, needflag)))
        return he;
  if (pe.cross) return suffix_check(root, kCrossProduct, &pe, kNoFlag, needflag, in_compound);
  return nullptr;
}

Hit Check::prefix_entry_twosfx(const AffixEntry& pe, std::string_view w, char in_compound, Flag needflag) {
  if (w.size() < pe.append.size()) return nullptr;
  const size_t rest = w.size() - pe.append.size();
  if (!(rest > 0 || (rest == 0 && r_.fullstrip))) return nullptr;
  std::string root = pe.strip;
  root.append(w.substr(pe.append.size()));
  if (root.size() < pe.condition_length() || !pe.condition.matches_start(root)) return nullptr;
  if (pe.cross && in_compound != kCompoundBegin) return suffix_check_twosfx(root, kCrossProduct, &pe, needflag);
  return nullptr;
}

// SfxEntry::checkword: the root under the suffix.
Hit Check::suffix_entry(const AffixEntry& se, std::string_view w, int optflags, const AffixEntry* ppfx, Flag cclass,
                        Flag needflag, Flag badflag) {
  if ((optflags & kCrossProduct) && !se.cross) return nullptr;
  if (w.size() < se.append.size()) return nullptr;
  const size_t rest = w.size() - se.append.size();
  if (!(rest > 0 || (rest == 0 && r_.fullstrip))) return nullptr;
  if (!roots_.may_be_spelled(w.substr(0, rest), se.strip)) return nullptr;  // (the usual case)
  std::string root(w.substr(0, rest));
  root += se.strip;
  if (!se.condition.matches_end(root)) return nullptr;
  for (const Root* he : homonyms(root)) {
    const bool flag_ok = he->has(se.flag) || cont_has(ppfx, se.flag);
    const bool cross_ok = !(optflags & kCrossProduct) || (ppfx && he->has(ppfx->flag)) ||
                          (!se.cont.empty() && ppfx && se.has_cont(ppfx->flag));
    const bool cclass_ok = !cclass || (!se.cont.empty() && se.has_cont(cclass));
    const bool bad_ok = !badflag || !he->has(badflag);
    const bool need_ok = !needflag || he->has(needflag) || (!se.cont.empty() && se.has_cont(needflag));
    if (flag_ok && cross_ok && cclass_ok && bad_ok && need_ok) return he;
  }
  return nullptr;
}

// SfxEntry::check_twosfx: the outer suffix stripped, the inner one checked.
Hit Check::suffix_entry_twosfx(const AffixEntry& se, std::string_view w, int optflags, const AffixEntry* ppfx,
                               Flag needflag) {
  if ((optflags & kCrossProduct) && !se.cross) return nullptr;
  if (w.size() < se.append.size()) return nullptr;
  const size_t rest = w.size() - se.append.size();
  if (!(rest > 0 || (rest == 0 && r_.fullstrip))) return nullptr;
  std::string inner(w.substr(0, rest));
  inner += se.strip;
  if (!se.condition.matches_end(inner)) return nullptr;
  if (ppfx) {
    if (!se.cont.empty() && se.has_cont(ppfx->flag))
      return suffix_check(inner, 0, nullptr, se.flag, needflag, kNotInCompound);
    return suffix_check(inner, optflags, ppfx, se.flag, needflag, kNotInCompound);
  }
  return suffix_check(inner, 0, nullptr, se.flag, needflag, kNotInCompound);
}

// ----------------------------------------------------------- compounds ---

void Check::setcminmax(int& cmin, int& cmax, std::string_view word) const {
  const int len = static_cast<int>(word.size());
  const auto continuation = [&](int k) { return (static_cast<unsigned char>(word[k]) & 0xC0) == 0x80; };
  cmin = 0;
  for (int i = 0; i < r_.compound_min && cmin < len; ++i)
    for (++cmin; cmin < len && continuation(cmin); ++cmin) {
    }
  cmax = len;
  for (int i = 0; i < r_.compound_min - 1 && cmax >= 0; ++i)
    for (--cmax; cmax >= 0 && continuation(cmax); --cmax) {
    }
}

bool Check::candidate_check(std::string_view word) {
  if (!roots_.prepare(word)) return false;
  if (first(word)) return true;
  return affix_check(word, kNoFlag, kNotInCompound) != nullptr;
}

// A compound that is a REP-variant of a word is a typo, not a compound.
bool Check::cpdrep_check(std::string_view word) {
  if (word.size() < 2 || r_.rep.empty()) return false;
  for (const ReplacementRule& rep : r_.rep) {
    if (rep.out[0].empty()) continue;
    for (size_t at = word.find(rep.pattern); at != std::string_view::npos; at = word.find(rep.pattern, at + 1)) {
      std::string candidate(word);
      candidate.replace(at, rep.pattern.size(), rep.out[0]);
      if (candidate_check(candidate)) return true;
    }
  }
  return false;
}

// A compound that the dictionary holds as two words ("a b") is no compound.
bool Check::cpdwordpair_check(std::string_view word) {
  if (word.size() <= 2) return false;
  std::string candidate(word);
  for (size_t i = 1; i < word.size(); ++i) {
    if ((static_cast<unsigned char>(word[i]) & 0xC0) == 0x80) continue;
    candidate.insert(i, 1, ' ');
    if (candidate_check(candidate)) return true;
    candidate.erase(i, 1);
  }
  return false;
}

// CHECKCOMPOUNDPATTERN: a forbidden boundary at pos between parts r1 and r2.
bool Check::cpdpat_check(std::string_view word, size_t pos, Hit r1, Hit r2) const {
  for (const CompoundPattern& p : r_.compound_patterns) {
    if (!key_prefix(p.begin_chars, word.substr(std::min(pos, word.size())))) continue;
    if (r1 && p.end_flag && !(flags_nonempty(r1) && r1->has(p.end_flag))) continue;
    if (r2 && p.begin_flag && !(flags_nonempty(r2) && r2->has(p.begin_flag))) continue;
    if (p.end_chars.empty()) return true;
    if (p.end_chars[0] == '0') {
      if (r1 && r1->word.size() <= pos && word.substr(pos - r1->word.size(), r1->word.size()) == r1->word) return true;
    } else if (p.end_chars.size() <= pos && word.substr(pos - p.end_chars.size(), p.end_chars.size()) == p.end_chars) {
      return true;
    }
  }
  return false;
}

// CHECKCOMPOUNDCASE: an upper-case letter at the boundary (not beside '-').
bool Check::cpdcase_check(std::string_view word, size_t pos) const {
  size_t p = pos - 1;
  while (p > 0 && (static_cast<unsigned char>(word[p]) & 0xC0) == 0x80) --p;
  const std::u32string pair = decode_utf8(word.substr(p));
  const char32_t a = pair.size() > 1 ? pair[1] : 0;
  const char32_t b = pair.empty() ? 0 : pair[0];
  return (case_.upper(a) == a || case_.upper(b) == b) && a != U'-' && b != U'-';
}

// COMPOUNDRULE: whether the parts so far (words[0..wnum], the last rv)
// match a rule; with all, the whole rule. words may be pointed at def (the
// caller's buffer) here, as hunspell's does.
bool Check::defcpd_check(Hit*& words, short wnum, Hit rv, Hit* def, bool all) {
  bool pointed = false;
  if (!words) {
    pointed = true;
    words = def;
  }
  if (!words) return false;
  const auto unset = [&] {
    words[wnum] = nullptr;
    if (pointed) words = nullptr;
  };
  words[wnum] = rv;
  if (rv->flag_count == 0) {
    unset();
    return false;
  }
  bool any = false;
  for (const auto& rule : r_.compound_rules)
    for (Flag f : rule)
      if (f != '*' && f != '?' && rv->has(f)) any = true;
  if (!any) {
    unset();
    return false;
  }
  struct Backtrack {
    int pp = 0, wp = 0, num = 0;
  };
  for (const auto& rule : r_.compound_rules) {
    std::vector<Backtrack> bt(1);
    int b = 0;
    size_t pp = 0;
    int wp = 0;
    bool ok = true, ok2 = true;
    const auto meta = [&](size_t k) { return k < rule.size() && (rule[k] == '*' || rule[k] == '?'); };
    do {
      while (pp < rule.size() && wp <= wnum) {
        if (meta(pp + 1)) {
          const int wend = rule[pp + 1] == '?' ? wp : wnum;
          ok2 = true;
          pp += 2;
          bt[b].pp = static_cast<int>(pp);
          bt[b].wp = wp;
          while (wp <= wend) {
            if (!words[wp]->flag_count || !words[wp]->has(rule[pp - 2])) {
              ok2 = false;
              break;
            }
            ++wp;
          }
          if (wp <= wnum) ok2 = false;
          bt[b].num = wp - bt[b].wp;
          if (bt[b].num > 0) {
            ++b;
            bt.resize(b + 1);
          }
          if (ok2) break;
        } else {
          ok2 = true;
          if (!words[wp] || !words[wp]->flag_count || !words[wp]->has(rule[pp])) {
            ok = false;
            break;
          }
          ++pp;
          ++wp;
          if (rule.size() == pp && !(wp > wnum)) ok = false;
        }
      }
      if (ok && ok2) {
        size_t r = pp;
        while (rule.size() > r && meta(r + 1)) r += 2;
        if (rule.size() <= r) return true;
      }
      if (b) do {
          ok = true;
          bt[b - 1].num--;
          pp = static_cast<size_t>(bt[b - 1].pp);
          wp = bt[b - 1].wp + bt[b - 1].num;
        } while (bt[b - 1].num < 0 && --b);
    } while (b);
    if (ok && ok2 && (!all || rule.size() <= pp)) return true;
    while (ok && ok2 && rule.size() > pp && meta(pp + 1)) pp += 2;
    if (ok && ok2 && rule.size() <= pp) return true;
  }
  unset();
  return false;
}

// The homonym search of the first part: whether rv is NOT a homonym the
// first part may be (hunspell's loop condition).
bool Check::first_part_homonym_fails(Hit rv, Hit*& words, short wnum, short wordnum, int onlycpdrule, Hit* rwords,
                                     size_t scpd) {
  if (r_.need_affix && rv->has(r_.need_affix)) return true;
  const bool flagged = (r_.compound_flag && !words && !onlycpdrule && rv->has(r_.compound_flag)) ||
                       (r_.compound_begin && !wordnum && !onlycpdrule && rv->has(r_.compound_begin)) ||
                       (r_.compound_middle && wordnum && !words && !onlycpdrule && rv->has(r_.compound_middle)) ||
                       (!r_.compound_rules.empty() && onlycpdrule &&
                        ((!words && !wordnum && defcpd_check(words, wnum, rv, rwords, false)) ||
                         (words && defcpd_check(words, wnum, rv, rwords, false))));
  if (!flagged) return true;
  return scpd != 0 && r_.compound_patterns[scpd - 1].end_flag != kNoFlag &&
         !rv->has(r_.compound_patterns[scpd - 1].end_flag);
}

Hit Check::compound_check(const std::string& word, short wordnum, short maxwordnum, short wnum, Hit* words, Hit* rwords,
                          int* info) {
  CompoundSplit s(word, wordnum, maxwordnum, wnum, words, rwords, info);
  Hit* const oldwords = words;
  setcminmax(s.cmin, s.cmax, word);
  if (wordnum == 0) compound_splits_ = 0;  // hunspell starts its clock here

  for (s.i = s.cmin; s.i < s.cmax; s.i++) {
    if (++compound_splits_ > kCompoundSplitBudget) return nullptr;  // out of time, as hunspell would be
    while (s.i < static_cast<int>(s.st.size()) && (static_cast<unsigned char>(s.st[s.i]) & 0xC0) == 0x80) s.i++;
    if (s.i >= s.cmax) return nullptr;

    s.words = oldwords;
    s.onlycpdrule = s.words ? 1 : 0;
    do {  // onlycpdrule loop
      s.oldwordnum = s.wordnum;
      s.checked_prefix = 0;
      if (Hit answer = nullptr; compound_split_at(s, answer)) return answer;
      s.scpd = 0;
      s.wordnum = s.oldwordnum;
      if (s.soldi != 0) {
        s.i = s.soldi;
        s.st = word;
        s.soldi = 0;
      } else if (s.i < static_cast<int>(s.st.size())) {
        s.st[s.i] = s.ch;
      }
    } while (!r_.compound_rules.empty() && s.oldwordnum == 0 && s.onlycpdrule++ < 1);
  }
  return nullptr;
}

// The split at s.i, under each CHECKCOMPOUNDPATTERN in turn (hunspell's
// simplified pattern loop).
bool Check::compound_split_at(CompoundSplit& s, Hit& answer) {
  int spins = 0;  // hunspell's loop could spin forever here; it never does on real data
  do {            // simplified CHECKCOMPOUNDPATTERN loop
    if (++spins > 1000 || compound_splits_ > kCompoundSplitBudget) break;
    if (s.scpd > 0 && !apply_compound_pattern(s)) break;
    if (s.i >= static_cast<int>(s.st.size())) break;  // hunspell would read past the end here
    s.ch = s.st[s.i];
    const std::string_view part1(s.st.data(), static_cast<size_t>(s.i));

    sfx_ = nullptr;
    pfx_ = nullptr;
    Hit rv = nullptr;
    const FirstPart first = first_compound_part(s, part1, rv);
    if (first == FirstPart::retry) continue;
    if (first == FirstPart::stop) break;
    if (first == FirstPart::forbidden) return decide(answer, nullptr);
    if (first_part_fits(s, rv)) {
      s.rv_first = rv;
      do {  // SIMPLIFIEDTRIPLE loop
        if (r_.simplified_triple) {
          if (s.striple) {
            s.checkedstriple = 1;
            s.i--;  // "fahrt" instead of "ahrt" in "Schiffahrt"
          } else if (s.i > 2 && byte_at(s.word, s.i - 1) == byte_at(s.word, s.i - 2)) {
            s.striple = 1;
          }
        }
        if (compound_rest(s, answer)) return true;
      } while (s.striple && !s.checkedstriple);
      if (s.checkedstriple) {
        s.i++;
        s.checkedstriple = 0;
        s.striple = 0;
      }
    }
    if (s.soldi != 0) {
      s.i = s.soldi;
      s.soldi = 0;
      s.len = s.oldlen;
      s.cmin = s.oldcmin;
      s.cmax = s.oldcmax;
    }
    s.scpd++;
  } while (!s.onlycpdrule && r_.simplified_compound_patterns && s.scpd <= r_.compound_patterns.size());
  return false;
}

// The next CHECKCOMPOUNDPATTERN (from s.scpd on) whose replacement stands
// at s.i, undone in st: its end and begin characters in its place, i after
// the end characters (soldi and the old bounds kept to go back). False
// when no pattern is left.
bool Check::apply_compound_pattern(CompoundSplit& s) const {
  const std::vector<CompoundPattern>& table = r_.compound_patterns;
  for (; s.scpd <= table.size() &&
         (table[s.scpd - 1].replacement.empty() ||
          s.from(s.i).substr(0, table[s.scpd - 1].replacement.size()) != table[s.scpd - 1].replacement);
       s.scpd++) {
  }
  if (s.scpd > table.size()) return false;
  const CompoundPattern& p = table[s.scpd - 1];
  s.st.replace(static_cast<size_t>(s.i), std::string::npos, p.end_chars);
  s.soldi = s.i;
  s.i += static_cast<int>(p.end_chars.size());
  s.st.replace(static_cast<size_t>(s.i), std::string::npos, p.begin_chars);
  s.st.replace(static_cast<size_t>(s.i) + p.begin_chars.size(), std::string::npos,
               s.from(s.soldi + static_cast<int>(p.replacement.size())));
  s.oldlen = s.len;
  s.len += static_cast<int>(p.end_chars.size() + p.begin_chars.size() - p.replacement.size());
  s.oldcmin = s.cmin;
  s.oldcmax = s.cmax;
  setcminmax(s.cmin, s.cmax, s.st);
  s.cmax = s.len - r_.compound_min + 1;
  return true;
}

// FIRST WORD: part1 as a root that may start (or continue) a compound, or
// failing that as an affixed form; rv: what was found.
Check::FirstPart Check::first_compound_part(CompoundSplit& s, std::string_view part1, Hit& rv) {
  const Flag cpdend = r_.compound_end, cpdmiddle = r_.compound_middle;
  const bool roots1 = roots_.prepare(part1);
  const Homonyms h1 = roots1 ? homonyms(part1) : Homonyms();
  size_t k1 = 0;
  rv = h1.empty() ? nullptr : h1[0];
  // COMPOUNDFORBIDFLAG on the stem overrides COMPOUNDPERMITFLAG.
  if (rv && r_.compound_forbid && rv->has(r_.compound_forbid)) return FirstPart::retry;
  while (rv && first_part_homonym_fails(rv, s.words, s.wnum, s.wordnum, s.onlycpdrule, s.rwords, s.scpd))
    rv = next_homonym(h1, k1);

  if (!rv) {
    if (s.onlycpdrule) return FirstPart::stop;
    rv = affixed_first_part(part1, roots1, s.wordnum, s.checked_prefix);
  } else if (flags_nonempty(rv) && (rv->has(r_.forbidden) || rv->has(r_.need_affix) || rv->has(kOnlyUpcaseFlag))) {
    return FirstPart::stop;
  }

  // COMPOUNDFORBIDFLAG, COMPOUNDEND, COMPOUNDMIDDLE on the affixes.
  if (rv && (cont_has(pfx_, r_.compound_forbid) || cont_has(sfx_, r_.compound_forbid))) rv = nullptr;
  if (rv && !s.checked_prefix && cpdend && (cont_has(pfx_, cpdend) || cont_has(sfx_, cpdend))) rv = nullptr;
  if (rv && !s.checked_prefix && s.wordnum == 0 && cpdmiddle &&
      (cont_has(pfx_, cpdmiddle) || cont_has(sfx_, cpdmiddle)))
    rv = nullptr;
  if (rv && flags_nonempty(rv) && (rv->has(r_.forbidden) || rv->has(kOnlyUpcaseFlag))) return FirstPart::forbidden;
  if (rv && r_.compound_root && rv->has(r_.compound_root)) s.wordnum++;
  return FirstPart::go_on;
}

// The first part with affixes, when no root of it fits: a COMPOUNDFLAG
// form, else a COMPOUNDBEGIN one (first part) or COMPOUNDMIDDLE one (later
// part); checked_prefix set when one is found. With no root (roots1
// false), every affix check fails (and changes nothing): skipped.
Hit Check::affixed_first_part(std::string_view part1, bool roots1, short wordnum, int& checked_prefix) {
  const Flag cpdflag = r_.compound_flag, cpdbegin = r_.compound_begin, cpdmiddle = r_.compound_middle,
             cpdend = r_.compound_end;
  Hit rv = nullptr;
  if (roots1 && cpdflag && !(rv = prefix_check(part1, kCompoundBegin, cpdflag))) {
    if (((rv = suffix_check(part1, 0, nullptr, kNoFlag, cpdflag, kCompoundBegin)) ||
         (r_.compound_more_suffixes && (rv = suffix_check_twosfx(part1, 0, nullptr, cpdflag)))) &&
        sfx_ && !sfx_->cont.empty() &&
        ((r_.compound_forbid && sfx_->has_cont(r_.compound_forbid)) || (cpdend && sfx_->has_cont(cpdend)))) {
      rv = nullptr;
    }
  }
  if (rv ||
      (roots1 && (wordnum == 0) && cpdbegin &&
       ((rv = suffix_check(part1, 0, nullptr, kNoFlag, cpdbegin, kCompoundBegin)) ||
        (r_.compound_more_suffixes && (rv = suffix_check_twosfx(part1, 0, nullptr, cpdbegin))) ||
        (rv = prefix_check(part1, kCompoundBegin, cpdbegin)))) ||
      (roots1 && (wordnum > 0) && cpdmiddle &&
       ((rv = suffix_check(part1, 0, nullptr, kNoFlag, cpdmiddle, kCompoundBegin)) ||
        (r_.compound_more_suffixes && (rv = suffix_check_twosfx(part1, 0, nullptr, cpdmiddle))) ||
        (rv = prefix_check(part1, kCompoundBegin, cpdmiddle)))))
    checked_prefix = 1;
  return rv;
}

// Whether the first part found may start the compound at this split: its
// flags (or a COMPOUNDRULE), the pattern's end flag, and no triple letter
// (CHECKCOMPOUNDTRIPLE) or capital (CHECKCOMPOUNDCASE) at the boundary.
bool Check::first_part_fits(const CompoundSplit& s, Hit rv) const {
  const std::vector<CompoundPattern>& table = r_.compound_patterns;
  const Flag cpdflag = r_.compound_flag, cpdbegin = r_.compound_begin, cpdmiddle = r_.compound_middle;
  const std::string& word = s.word;
  const int i = s.i;
  return rv &&
         (s.checked_prefix || (s.words && s.words[s.wnum]) || (cpdflag && rv->has(cpdflag)) ||
          (s.oldwordnum == 0 && cpdbegin && rv->has(cpdbegin)) ||
          (s.oldwordnum > 0 && cpdmiddle && rv->has(cpdmiddle))) &&
         (s.scpd == 0 || table[s.scpd - 1].end_flag == kNoFlag || rv->has(table[s.scpd - 1].end_flag)) &&
         !((r_.check_compound_triple && s.scpd == 0 && !s.words && byte_at(word, i - 1) == byte_at(word, i) &&
            ((i > 1 && byte_at(word, i - 1) == byte_at(word, i - 2)) ||
             byte_at(word, i - 1) == byte_at(word, i + 1))) ||
           (r_.check_compound_case && s.scpd == 0 && !s.words && cpdcase_check(word, static_cast<size_t>(i))));
}

// The rest after the first part, st[i..]: a root, an affixed form, or a
// compound itself.
bool Check::compound_rest(CompoundSplit& s, Hit& answer) {
  return rest_as_root(s, answer) || rest_affixed(s, answer) || rest_as_compound(s, answer);
}

// The rest as a root that may end (or continue, by a COMPOUNDRULE) a
// compound.
bool Check::rest_as_root(CompoundSplit& s, Hit& answer) {
  const std::vector<CompoundPattern>& table = r_.compound_patterns;
  const Flag cpdflag = r_.compound_flag, cpdend = r_.compound_end;
  const std::string_view part2 = std::string_view(s.st).substr(static_cast<size_t>(s.i));
  const Homonyms h2 = roots_.prepare(part2) ? homonyms(part2) : Homonyms();
  size_t k2 = 0;
  Hit rv = h2.empty() ? nullptr : h2[0];
  while (rv && ((r_.need_affix && rv->has(r_.need_affix)) ||
                !((cpdflag && !s.words && rv->has(cpdflag)) || (cpdend && !s.words && rv->has(cpdend)) ||
                  (!r_.compound_rules.empty() && s.words && defcpd_check(s.words, s.wnum + 1, rv, nullptr, true))) ||
                (s.scpd != 0 && table[s.scpd - 1].begin_flag != kNoFlag && !rv->has(table[s.scpd - 1].begin_flag))))
    rv = next_homonym(h2, k2);
  if (rv && r_.forceucase && rv->has(r_.forceucase) && !(s.info && (*s.info & kInfoOrigCap))) rv = nullptr;
  if (rv && s.words && s.words[s.wnum + 1]) return decide(answer, s.rv_first);
  const short oldwordnum2 = s.wordnum;
  if (rv && r_.compound_root && rv->has(r_.compound_root)) s.wordnum++;
  if (rv && flags_nonempty(rv) && (rv->has(r_.forbidden) || rv->has(kOnlyUpcaseFlag))) return decide(answer, nullptr);
  if (rv && ((cpdflag && rv->has(cpdflag)) || (cpdend && rv->has(cpdend))) &&
      (r_.compound_word_max == -1 || s.wordnum + 1 < r_.compound_word_max) &&
      (table.empty() || s.scpd != 0 || !cpdpat_check(s.word, static_cast<size_t>(s.i), s.rv_first, rv)) &&
      (!r_.check_compound_dup || rv->order != s.rv_first->order) &&
      (s.scpd == 0 || table[s.scpd - 1].begin_flag == kNoFlag || rv->has(table[s.scpd - 1].begin_flag))) {
    if ((r_.check_compound_rep && cpdrep_check(s.word)) || cpdwordpair_check(s.word)) return decide(answer, nullptr);
    return decide(answer, s.rv_first);
  }
  s.wordnum = oldwordnum2;
  return false;
}

// Perhaps the second word has affixes: the rest as an affixed form with
// COMPOUNDFLAG, COMPOUNDEND or (by a COMPOUNDRULE) any flags.
bool Check::rest_affixed(CompoundSplit& s, Hit& answer) {
  const std::vector<CompoundPattern>& table = r_.compound_patterns;
  const Flag cpdflag = r_.compound_flag, cpdend = r_.compound_end;
  sfx_ = nullptr;
  const std::string_view rest = s.from(s.i);
  Hit rv = nullptr;
  const bool roots_rest = (cpdflag || cpdend || !r_.compound_rules.empty()) && roots_.prepare(rest);
  const auto affixed_rest = [&](Flag need) {  // affix_check, or what it leaves when no root exists
    if (roots_rest) return affix_check(rest, need, kCompoundEnd);
    pfx_ = nullptr;
    if (r_.have_cont_class) sfx_ = nullptr;
    return Hit{nullptr};
  };
  if (cpdflag && !s.onlycpdrule) rv = affixed_rest(cpdflag);
  if (!rv && cpdend && !s.onlycpdrule) {
    sfx_ = nullptr;
    pfx_ = nullptr;
    rv = affixed_rest(cpdend);
  }
  if (!rv && !r_.compound_rules.empty() && s.words) {
    rv = affixed_rest(kNoFlag);
    if (rv && defcpd_check(s.words, s.wnum + 1, rv, nullptr, true)) return decide(answer, s.rv_first);
    rv = nullptr;
  }
  if (rv && !(s.scpd == 0 || table[s.scpd - 1].begin_flag == kNoFlag || rv->has(table[s.scpd - 1].begin_flag)))
    rv = nullptr;
  if (rv && !table.empty() && s.scpd == 0 && cpdpat_check(s.word, static_cast<size_t>(s.i), s.rv_first, rv))
    rv = nullptr;
  if (rv && (cont_has(pfx_, r_.compound_forbid) || cont_has(sfx_, r_.compound_forbid))) rv = nullptr;
  if (rv && r_.forceucase && rv->has(r_.forceucase) && !(s.info && (*s.info & kInfoOrigCap))) rv = nullptr;
  if (rv && flags_nonempty(rv) && (rv->has(r_.forbidden) || rv->has(kOnlyUpcaseFlag))) return decide(answer, nullptr);
  const short oldwordnum2 = s.wordnum;
  if (rv && r_.compound_root && rv->has(r_.compound_root)) s.wordnum++;
  if (rv && (r_.compound_word_max == -1 || s.wordnum + 1 < r_.compound_word_max) &&
      (!r_.check_compound_dup || rv->order != s.rv_first->order)) {
    if ((r_.check_compound_rep && cpdrep_check(s.word)) || cpdwordpair_check(s.word)) return decide(answer, nullptr);
    return decide(answer, s.rv_first);
  }
  s.wordnum = oldwordnum2;
  return false;
}

// Perhaps the rest is a compound itself (while parts are left): then the
// word is one, unless it is a REP-variant or a word pair, or its head (the
// first part with the rest's) is.
bool Check::rest_as_compound(CompoundSplit& s, Hit& answer) {
  const std::vector<CompoundPattern>& table = r_.compound_patterns;
  const size_t i = static_cast<size_t>(s.i);
  Hit rv = nullptr;
  if (s.wordnum + 2 < s.maxwordnum) {
    rv = compound_check(s.st.substr(i), static_cast<short>(s.wordnum + 1), s.maxwordnum, static_cast<short>(s.wnum + 1),
                        s.words, s.rwords, s.info);
    if (rv && !table.empty() &&
        ((s.scpd == 0 && cpdpat_check(s.word, i, s.rv_first, rv)) ||
         (s.scpd != 0 && !cpdpat_check(s.word, i, s.rv_first, rv))))
      rv = nullptr;
  }
  if (!rv) return false;
  if (cpdwordpair_check(s.word)) return decide(answer, nullptr);
  if (r_.check_compound_rep || r_.forbidden) {
    if (r_.check_compound_rep && cpdrep_check(s.word)) return decide(answer, nullptr);
    // The first part, with the first part of the rest.
    const size_t upto = i + rv->word.size();
    if (s.from(s.i).substr(0, rv->word.size()) == rv->word && upto <= s.st.size()) {
      const std::string_view head = std::string_view(s.st).substr(0, upto);
      if ((r_.check_compound_rep && cpdrep_check(head)) || cpdwordpair_check(head)) return false;
      if (r_.forbidden && roots_.prepare(s.word)) {
        Hit rv2 = first(s.word);
        if (!rv2) rv2 = affix_check(s.word, kNoFlag, kNotInCompound);
        if (rv2 && flags_nonempty(rv2) && rv2->has(r_.forbidden) && rv2->word.size() >= upto &&
            rv2->word.substr(0, upto) == head)
          return decide(answer, nullptr);
      }
    }
  }
  return decide(answer, s.rv_first);
}

}  // namespace

AffixChecker::AffixChecker(const AffixRules& rules, const LetterCase& cases) : rules_(rules), cases_(cases) {}

bool AffixChecker::spell(std::string_view word, RootSource& roots) const {
  Check c(rules_, cases_, roots);
  return c.spell(word);
}

bool AffixChecker::simple_form(std::string_view word, RootSource& roots, const Root** root) const {
  Check c(rules_, cases_, roots);
  const Root* r = c.simple(word);
  if (root) *root = r;
  return r != nullptr;
}

}  // namespace spellcheck
