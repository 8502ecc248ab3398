#include "spellcheck/suggest/ranked_results.hpp"

#include <algorithm>

namespace spellcheck {

RankedResults::RankedResults(const std::vector<RankedWord>& ranked) : words_(ranked.size()) {
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (ranked[i].accepted) {
      set_accepted(i);
      continue;
    }
    start(i);
    for (const RankedCandidate& c : ranked[i].best) add(i, c.word, c.score, c.distance);
  }
}

RankedWord RankedResults::operator[](size_t i) const {
  RankedWord r;
  r.accepted = accepted(i);
  for (size_t k = 0; k < candidates(i); ++k)
    r.best.push_back(RankedCandidate{std::string(word(i, k)), score(i, k), distance(i, k)});
  return r;
}

void RankedResults::reorder(const std::vector<uint32_t>& order) {
  std::vector<Word> moved(words_.size());
  for (size_t j = 0; j < order.size(); ++j) moved[order[j]] = words_[j];
  words_ = std::move(moved);
}

void RankingMerger::add(const RankedResults& r, size_t i) {
  if (r.accepted(i)) accept();
  for (size_t k = 0; k < r.candidates(i); ++k) add(r.word(i, k), r.score(i, k), r.distance(i, k));
}

void RankingMerger::finish(RankedResults& out, size_t i, size_t top) {
  if (accepted_) {
    out.set_accepted(i);
    return;
  }
  // Best first (score, then the word byte-wise); a word taken already is
  // there at a better score, so it is skipped (at most top compares).
  auto spelled = [&](const StoredCandidate& k) { return k.spelling(text_); };
  std::sort(kept_.begin(), kept_.end(), [&](const StoredCandidate& a, const StoredCandidate& b) {
    if (a.score != b.score) return a.score > b.score;
    return spelled(a) < spelled(b);
  });
  out.start(i);
  size_t taken = 0;
  for (size_t k = 0; k < kept_.size() && taken < top; ++k) {
    bool seen = false;
    for (size_t t = 0; t < taken && !seen; ++t) seen = out.word(i, t) == spelled(kept_[k]);
    if (seen) continue;
    out.add(i, spelled(kept_[k]), kept_[k].score, kept_[k].distance);
    ++taken;
  }
}

}  // namespace spellcheck
