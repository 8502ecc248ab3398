#include "spellcheck/candidates.hpp"

#include <cstring>

namespace spellcheck {

std::string apply_edit(std::string_view word, EditRef e) {
  std::string s(word);
  const char c = kAlphabet[e.ch()];
  switch (e.op()) {
    case EditOp::deletion: s.erase(e.pos(), 1); break;
    case EditOp::substitution: s[e.pos()] = c; break;
    case EditOp::insertion: s.insert(s.begin() + e.pos(), c); break;
  }
  return s;
}

std::string_view Candidates::spell(size_t i, char* out) const {
  const EditRef e = edits_[i];
  const size_t L = word_.size();
  const size_t pos = e.pos();
  const char c = kAlphabet[e.ch()];
  switch (e.op()) {
    case EditOp::deletion:
      std::memcpy(out, word_.data(), pos);
      std::memcpy(out + pos, word_.data() + pos + 1, L - pos - 1);
      return {out, L - 1};
    case EditOp::substitution:
      std::memcpy(out, word_.data(), L);
      out[pos] = c;
      return {out, L};
    case EditOp::insertion:
      std::memcpy(out, word_.data(), pos);
      out[pos] = c;
      std::memcpy(out + pos + 1, word_.data() + pos, L - pos);
      return {out, L + 1};
  }
  return {};
}

void Candidates::generate(std::string_view w) {
  const size_t L = w.size();
  word_.assign(w);
  edits_.clear();
  hashes_.clear();
  const size_t most = L + 61 * L + 62 * (L + 1);
  if (edits_.capacity() < most) {
    edits_.reserve(most);
    hashes_.reserve(most);
  }
  if (scratch_.size() < L + 1) scratch_.resize(L + 1);
  char* s = scratch_.data();
  // Byte `b` as it stands at position `at` of a key (first byte lowered).
  auto key = [](char b, size_t at) { return at == 0 ? ascii_lower(b) : b; };

  // Deletions: deleting w[i] leaves w[0..i) w[i+1..L). Going from i-1 to i
  // only position i-1 changes (to w[i-1]).
  if (L > 0) {
    for (size_t j = 1; j < L; ++j) s[j - 1] = key(w[j], j - 1);
    for (size_t i = 0; i < L; ++i) {
      if (i > 0) s[i - 1] = key(w[i - 1], i - 1);
      if (i > 0 && w[i] == w[i - 1]) continue;
      add(EditRef::make(EditOp::deletion, 0, static_cast<uint32_t>(i)), L - 1);
    }
  }
  // Substitutions: strings differing at distinct positions are distinct.
  for (size_t j = 0; j < L; ++j) s[j] = key(w[j], j);
  for (size_t i = 0; i < L; ++i) {
    for (uint32_t c = 0; c < kAlphabet.size(); ++c) {
      if (kAlphabet[c] == w[i]) continue;
      s[i] = key(kAlphabet[c], i);
      add(EditRef::make(EditOp::substitution, c, static_cast<uint32_t>(i)), L);
    }
    s[i] = key(w[i], i);
  }
  // Insertions: c before position i is w[0..i) c w[i..L). Inserting c
  // before i equals inserting it before i-1 when w[i-1] == c: skipped.
  for (size_t j = 0; j < L; ++j) s[j + 1] = w[j];
  for (size_t i = 0; i <= L; ++i) {
    for (uint32_t c = 0; c < kAlphabet.size(); ++c) {
      if (i > 0 && w[i - 1] == kAlphabet[c]) continue;
      s[i] = key(kAlphabet[c], i);
      add(EditRef::make(EditOp::insertion, c, static_cast<uint32_t>(i)), L + 1);
    }
    if (i < L) s[i] = key(w[i], i);  // w[i] moves left of the insertion point
  }
}

}  // namespace spellcheck
