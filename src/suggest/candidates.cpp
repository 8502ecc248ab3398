#include "spellcheck/suggest/candidates.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace spellcheck {

std::string_view spell_edit(std::string_view word, EditRef e, char* out) {
  const size_t L = word.size();
  const size_t pos = e.pos();
  const char c = kAlphabet[e.ch()];
  switch (e.op()) {
    case EditOp::deletion:
      std::memcpy(out, word.data(), pos);
      std::memcpy(out + pos, word.data() + pos + 1, L - pos - 1);
      return {out, L - 1};
    case EditOp::substitution:
      std::memcpy(out, word.data(), L);
      out[pos] = c;
      return {out, L};
    case EditOp::insertion:
      std::memcpy(out, word.data(), pos);
      out[pos] = c;
      std::memcpy(out + pos + 1, word.data() + pos, L - pos);
      return {out, L + 1};
  }
  return {};
}

std::string apply_edit(std::string_view word, EditRef e) {
  std::string s(word.size() + 1, '\0');
  s.resize(spell_edit(word, e, s.data()).size());
  return s;
}

namespace {

// Byte b as it stands at position at of a key (first byte lowered).
inline char key_byte(char b, size_t at) { return at == 0 ? ascii_lower(b) : b; }

// The alphabet bit of ch (none for a byte outside the alphabet).
inline uint64_t own_bit(char ch) {
  const uint32_t sy = TrigramFilter::symbol(static_cast<unsigned char>(ch));
  return sy < 62 ? uint64_t{1} << sy : uint64_t{0};
}

inline bool has_triple(const TrigramFilter* tri, uint32_t a, uint32_t b, uint32_t c) {
  return tri == nullptr || tri->has(a, b, c);
}

}  // namespace

void Candidates::generate(std::string_view w, const TrigramFilter* tri, const AffixFilter* affix) {
  const size_t L = w.size();
  word_.assign(w);
  n_ = 0;
  generated_ = 0;
  // A byte outside the alphabet (an apostrophe, UTF-8) has 62 substitutes,
  // not 61.
  const size_t most = L + 62 * L + 62 * (L + 1);
  if (edits_.size() < most) {
    edits_.resize(most);
    hashes_.resize(most);
  }
  if (scratch_.size() < L + 1) scratch_.resize(L + 1);

  // The window of useful edit positions (see AffixFilter): an edit at i
  // keeps w[0..i), which must start a key (i <= reach), and the bytes after
  // it from the candidate's second byte on, which must end one (their start
  // in w >= from; deleting w[0] keeps w[2..) there).
  const size_t reach = affix ? affix->prefix_reach(w) : L;
  const size_t from = affix ? affix->suffix_reach(w) : 0;

  mark_trigrams(w, tri);
  add_deletions(w, tri, reach, from);
  add_substitutions(w, tri, reach, from);
  add_insertions(w, tri, reach, from);
}

// Trigram bookkeeping. sym[k + 2] is the symbol of w[k]; triple j is
// (sym[j], sym[j+1], sym[j+2]) for j = 0..L. An edit at word position i
// touches only the triples around i: the others must already be present
// (ok_pre_, ok_suf_), and then only the two or three new ones are looked up.
void Candidates::mark_trigrams(std::string_view w, const TrigramFilter* tri) {
  const size_t L = w.size();
  constexpr uint32_t B = TrigramFilter::kBoundary;
  if (sym_.size() < L + 4) {
    sym_.resize(L + 4);
    ok_pre_.resize(L + 2);
    ok_suf_.resize(L + 2);
  }
  uint32_t* sym = sym_.data();
  if (tri) {
    sym[0] = sym[1] = B;
    for (size_t k = 0; k < L; ++k) sym[k + 2] = TrigramFilter::symbol(static_cast<unsigned char>(w[k]));
    sym[L + 2] = sym[L + 3] = B;
    ok_pre_[0] = 1;
    for (size_t j = 0; j <= L; ++j) ok_pre_[j + 1] = ok_pre_[j] && tri->has(sym[j], sym[j + 1], sym[j + 2]);
    ok_suf_[L + 1] = 1;
    for (size_t j = L + 1; j-- > 0;) ok_suf_[j] = ok_suf_[j + 1] && tri->has(sym[j], sym[j + 1], sym[j + 2]);
  } else {
    std::fill(ok_pre_.begin(), ok_pre_.end(), 1);
    std::fill(ok_suf_.begin(), ok_suf_.end(), 1);
    std::fill(sym_.begin(), sym_.end(), 0);
  }
}

// Deletions: deleting w[i] leaves w[0..i) w[i+1..L). Going from i-1 to i
// only position i-1 changes (to w[i-1]). The empty string is no entry.
void Candidates::add_deletions(std::string_view w, const TrigramFilter* tri, size_t reach, size_t from) {
  const size_t L = w.size();
  if (L <= 1) return;
  char* s = scratch_.data();
  const uint32_t* sym = sym_.data();
  for (size_t j = 1; j < L; ++j) s[j - 1] = key_byte(w[j], j - 1);
  for (size_t i = 0; i < L; ++i) {
    if (i > 0) s[i - 1] = key_byte(w[i - 1], i - 1);
    if (i > 0 && w[i] == w[i - 1]) continue;
    ++generated_;
    if (i > reach || std::max<size_t>(i + 1, 2) < from) continue;
    if (!(ok_pre_[i] && suffix_ok(i + 3, L) && has_triple(tri, sym[i], sym[i + 1], sym[i + 3]) &&
          (i + 1 > L - 1 || has_triple(tri, sym[i + 1], sym[i + 3], sym[i + 4]))))
      continue;
    add(EditRef::make(EditOp::deletion, 0, static_cast<uint32_t>(i)), L - 1);
  }
}

// Substitutions and insertions test the 62 characters at once: the masks
// of the new triples are ANDed, and only the surviving characters are
// visited (lowest bit first, i.e. in alphabet order).

// Substitutions: strings differing at distinct positions are distinct.
void Candidates::add_substitutions(std::string_view w, const TrigramFilter* tri, size_t reach, size_t from) {
  const size_t L = w.size();
  char* s = scratch_.data();
  const uint32_t* sym = sym_.data();
  for (size_t j = 0; j < L; ++j) s[j] = key_byte(w[j], j);
  for (size_t i = 0; i < L; ++i) {
    const uint64_t own = own_bit(w[i]);
    generated_ += kAlphabet.size() - (own ? 1 : 0);
    if (i > reach || i + 1 < from || !(ok_pre_[i] && suffix_ok(i + 3, L))) continue;
    uint64_t allowed = TrigramFilter::kAlphabetMask & ~own;
    if (tri) {
      allowed &= tri->last(sym[i], sym[i + 1]) & tri->middle(sym[i + 1], sym[i + 3]);
      if (i + 2 <= L) allowed &= tri->first(sym[i + 3], sym[i + 4]);
    }
    for (; allowed; allowed &= allowed - 1) {
      const uint32_t c = static_cast<uint32_t>(std::countr_zero(allowed));
      s[i] = key_byte(kAlphabet[c], i);
      add(EditRef::make(EditOp::substitution, c, static_cast<uint32_t>(i)), L);
    }
    s[i] = key_byte(w[i], i);
  }
}

// Insertions: c before position i is w[0..i) c w[i..L). Inserting c
// before i equals inserting it before i-1 when w[i-1] == c: skipped.
void Candidates::add_insertions(std::string_view w, const TrigramFilter* tri, size_t reach, size_t from) {
  const size_t L = w.size();
  char* s = scratch_.data();
  const uint32_t* sym = sym_.data();
  for (size_t j = 0; j < L; ++j) s[j + 1] = w[j];
  for (size_t i = 0; i <= L; ++i) {
    const uint64_t dup = i > 0 ? own_bit(w[i - 1]) : 0;
    generated_ += kAlphabet.size() - (dup ? 1 : 0);
    if (i <= reach && i >= from && ok_pre_[i] && suffix_ok(i + 2, L)) {
      uint64_t allowed = TrigramFilter::kAlphabetMask & ~dup;
      if (tri) {
        allowed &= tri->last(sym[i], sym[i + 1]) & tri->middle(sym[i + 1], sym[i + 2]);
        if (i < L) allowed &= tri->first(sym[i + 2], sym[i + 3]);  // the triple after c, unless c ends the word
      }
      for (; allowed; allowed &= allowed - 1) {
        const uint32_t c = static_cast<uint32_t>(std::countr_zero(allowed));
        s[i] = key_byte(kAlphabet[c], i);
        add(EditRef::make(EditOp::insertion, c, static_cast<uint32_t>(i)), L + 1);
      }
    }
    if (i < L) s[i] = key_byte(w[i], i);  // w[i] moves left of the insertion point
  }
}

}  // namespace spellcheck
