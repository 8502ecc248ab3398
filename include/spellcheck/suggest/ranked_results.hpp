#pragma once
// Every word's ranking (ranking.hpp) in three flat arrays: per word where
// its candidates are, the candidates, their spellings. What ranked_lookup
// returns and the ranked report reads: a vector of RankedWord held a heap
// block per word and a string per candidate (about 100 MB per rank on
// docs/large), and reading them back was a cache miss per word.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/suggest/ranking.hpp"

namespace spellcheck {

class RankedResults {
 public:
  RankedResults() = default;
  explicit RankedResults(size_t words) : words_(words) {}
  explicit RankedResults(const std::vector<RankedWord>& ranked);

  size_t size() const { return words_.size(); }
  bool accepted(size_t i) const { return words_[i].accepted; }
  size_t candidates(size_t i) const { return words_[i].count; }
  // Candidate k of word i, best first.
  std::string_view word(size_t i, size_t k) const { return candidates_[words_[i].first + k].spelling(text_); }
  int64_t score(size_t i, size_t k) const { return candidates_[words_[i].first + k].score; }
  uint8_t distance(size_t i, size_t k) const { return candidates_[words_[i].first + k].distance; }
  // Upper bounds of the candidates and spelling bytes of all words (a
  // merge leaves the parts it replaced behind): for a reader's reserve.
  size_t stored_candidates() const { return candidates_.size(); }
  size_t stored_bytes() const { return text_.size(); }
  // A reader going through the words in another order than they were
  // filled fetches a word's record, then (after that is in) its
  // candidates and their spellings (a candidate's spelling follows the
  // previous one's).
  void prefetch_word(size_t i) const { __builtin_prefetch(&words_[i]); }
  void prefetch_candidates(size_t i) const {
    const Word& w = words_[i];
    if (w.count == 0) return;
    __builtin_prefetch(&candidates_[w.first]);
    __builtin_prefetch(&candidates_[w.first + w.count - 1]);
  }
  void prefetch_spellings(size_t i) const {
    const Word& w = words_[i];
    if (w.count == 0) return;
    __builtin_prefetch(text_.data() + candidates_[w.first].at);
    __builtin_prefetch(text_.data() + candidates_[w.first + w.count - 1].at);
  }
  // Word i as a RankedWord (tests, tools).
  RankedWord operator[](size_t i) const;

  // Word i accepted (no candidates).
  void set_accepted(size_t i) { words_[i] = Word{0, 0, true}; }
  // Word i's candidates from here on: call add() for each, best first.
  // One more word (none yet); returns its index.
  size_t push_word() {
    words_.push_back(Word{});
    return words_.size() - 1;
  }
  void start(size_t i) { words_[i] = Word{candidates_.size(), 0, false}; }
  void add(size_t i, std::string_view spelled, int64_t score, uint8_t distance) {
    candidates_.push_back(StoredCandidate::append(text_, spelled, score, distance));
    ++words_[i].count;
  }
  // Room for this many more candidates and spelling bytes. An upper bound
  // costs address space only (pages are touched as they fill), where
  // growing by doubling faults in and copies about twice the final size.
  // A hint: where the system refuses the address space, they grow as usual.
  void reserve(size_t more_candidates, size_t more_text) noexcept {
    try {
      candidates_.reserve(candidates_.size() + more_candidates);
      text_.reserve(text_.size() + more_text);
    } catch (const std::exception&) {  // bad_alloc, or length_error past max_size()
    }
  }
  // Word i as it is in `from` (the same words).
  void copy_word(const RankedResults& from, size_t i) {
    if (from.accepted(i)) return set_accepted(i);
    start(i);
    for (size_t k = 0; k < from.candidates(i); ++k) add(i, from.word(i, k), from.score(i, k), from.distance(i, k));
  }
  // Word j becomes word order[j] (order: a permutation of the words).
  void reorder(const std::vector<uint32_t>& order);

 private:
  struct Word {
    size_t first = 0;  // into candidates_
    uint32_t count = 0;
    bool accepted = false;
  };
  std::vector<Word> words_;
  std::vector<StoredCandidate> candidates_;  // spellings in text_
  std::string text_;
};

// One word's rankings from several places (the owners of its entries, the
// two passes), each best first with distinct words, merged into the best
// `top` distinct words (each at its best score); accepted if any part is.
class RankingMerger {
 public:
  void start() {
    kept_.clear();
    text_.clear();
    accepted_ = false;
  }
  void accept() { accepted_ = true; }
  void add(std::string_view spelled, int64_t score, uint8_t distance) {
    kept_.push_back(StoredCandidate::append(text_, spelled, score, distance));
  }
  // Word i of r, as a part.
  void add(const RankedResults& r, size_t i);
  // The merged ranking as word i of out.
  void finish(RankedResults& out, size_t i, size_t top);

 private:
  std::vector<StoredCandidate> kept_;  // spellings in text_
  std::string text_;
  bool accepted_ = false;
};

}  // namespace spellcheck
