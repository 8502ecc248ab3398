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

void Candidates::generate(std::string_view w) {
  const size_t L = w.size();
  len_ = L;
  stride_ = L + 1;
  const size_t most = L + 61 * L + 62 * (L + 1);
  if (buf_.size() < most * stride_) buf_.resize(most * stride_);
  if (edits_.capacity() < most) edits_.reserve(most);
  edits_.clear();
  size_t n = 0;
  const char* src = w.data();
  // Deletions: deleting w[i] equals deleting w[i-1] when they are equal.
  for (size_t i = 0; i < L; ++i) {
    if (i > 0 && w[i] == w[i - 1]) continue;
    char* d = slot(n++);
    std::memcpy(d, src, i);
    std::memcpy(d + i, src + i + 1, L - i - 1);
    edits_.push_back(EditRef::make(EditOp::deletion, 0, static_cast<uint32_t>(i)));
  }
  // Substitutions: strings differing at distinct positions are distinct.
  for (size_t i = 0; i < L; ++i) {
    for (uint32_t c = 0; c < kAlphabet.size(); ++c) {
      if (kAlphabet[c] == w[i]) continue;
      char* d = slot(n++);
      std::memcpy(d, src, L);
      d[i] = kAlphabet[c];
      edits_.push_back(EditRef::make(EditOp::substitution, c, static_cast<uint32_t>(i)));
    }
  }
  // Insertions: inserting c before position i equals inserting it before
  // i-1 when w[i-1] == c.
  for (size_t i = 0; i <= L; ++i) {
    for (uint32_t c = 0; c < kAlphabet.size(); ++c) {
      if (i > 0 && w[i - 1] == kAlphabet[c]) continue;
      char* d = slot(n++);
      std::memcpy(d, src, i);
      d[i] = kAlphabet[c];
      std::memcpy(d + i + 1, src + i, L - i);
      edits_.push_back(EditRef::make(EditOp::insertion, c, static_cast<uint32_t>(i)));
    }
  }
}

void Candidates::hash_all() {
  const size_t n = edits_.size();
  if (hashes_.size() < n) hashes_.resize(n);
  for (size_t i = 0; i < n; ++i) hashes_[i] = word_hash((*this)[i]);
}

}  // namespace spellcheck
