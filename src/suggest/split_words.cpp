#include "spellcheck/suggest/split_words.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include "spellcheck/input/token_observer.hpp"
#include "spellcheck/suggest/detail/word_cuts.hpp"

namespace spellcheck {
namespace {

using detail::CountTable;
using detail::cuttable;
using detail::inner_capital;
using detail::known_key;
using detail::one_letter;
using detail::pair_key;
using detail::word_key;

// One cut of a word: where, its parts' context hashes, and which part is
// one letter.
struct Cut {
  size_t word = 0, at = 0;
  uint64_t left = 0, right = 0;
  bool left_one = false, right_one = false;
};

// fn(cut) for each cut of the words not accepted, up to max_bytes (computed
// again on each call: cheaper than holding ten cuts per misspelled word).
template <class Fn>
void for_each_cut(const WordList& words, const RankedResults& ranked, size_t max_bytes, Fn&& fn) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (ranked.accepted(i) || w.size() < 2 || w.size() > max_bytes || inner_capital(w)) continue;
    for (size_t at = 1; at < w.size(); ++at)
      if (cuttable(w, at))
        fn(Cut{i, at, context_token_hash(w.substr(0, at)), context_token_hash(w.substr(at)),
               one_letter(w.substr(0, at)), one_letter(w.substr(at))});
  }
}

// A candidate, or a split offered as one.
struct Option {
  std::string spelled;
  int64_t score = 0;
  uint8_t distance = 0;
};

// Word i's ranking with its splits (in cut order) each put before the
// first candidate that scores less.
void merge_splits(const RankedResults& ranked, size_t i, const std::vector<Option>& splits, size_t top,
                  RankedResults& out) {
  std::vector<Option> all;
  for (size_t k = 0; k < ranked.candidates(i); ++k)
    all.push_back({std::string(ranked.word(i, k)), ranked.score(i, k), ranked.distance(i, k)});
  const size_t had = all.size();
  for (const Option& o : splits) {
    const auto lower = std::find_if(all.begin(), all.end(), [&](const Option& c) { return c.score < o.score; });
    all.insert(lower, o);
  }
  all.resize(std::min(all.size(), std::max(had, top)));
  out.start(i);
  for (const Option& o : all) out.add(i, o.spelled, o.score, o.distance);
}

// Collective: the counts of the correct words among the parts of the cuts
// a filter of every rank's correct words passes (most cuts of a misspelled
// word have a part that is no word: not asked about), by known_key.
CountTable correct_parts(const mpi::Comm& comm, const WordList& words, const RankedResults& ranked,
                         const std::vector<WordCount>& word_counts, const SplitParams& params,
                         const BloomFilter& correct) {
  std::vector<uint64_t> parts;  // distinct
  {
    CountTable distinct(words.size() / 4);
    for_each_cut(words, ranked, params.max_bytes, [&](const Cut& c) {
      const uint64_t l = known_key(word_key(c.left)), r = known_key(word_key(c.right));
      if (!correct.maybe_contains(l, 0) || !correct.maybe_contains(r, 0)) return;
      distinct.add(l, 0);
      distinct.add(r, 0);
    });
    parts.reserve(distinct.size());
    distinct.for_each([&](uint64_t k, uint64_t) { parts.push_back(k); });
  }
  return detail::correct_counts(comm, parts, word_counts);
}

}  // namespace

std::vector<WordSplit> known_splits(const mpi::Comm& comm, const WordList& words, const RankedResults& ranked,
                                    const std::vector<WordCount>& word_counts, const SplitParams& params) {
  if (!params.enabled) return {};
  uint64_t tokens = 0;
  for (const WordCount& w : word_counts) tokens += w.count;
  tokens = mpi::allreduce_sum(comm, tokens);
  const BloomFilter correct = detail::correct_filter(comm, word_counts);
  const CountTable known = correct_parts(comm, words, ranked, word_counts, params, correct);
  // A part of one letter only if a common word ("a lot"), not a stray
  // letter ("aum n", "cate n").
  const auto enough = [&](uint64_t hash, bool one) {
    const uint64_t k = known_key(word_key(hash));
    if (!correct.maybe_contains(k, 0)) return false;
    const uint64_t n = known.count(k);
    return n > 0 && (!one || n * params.one_letter_share >= tokens);
  };
  std::vector<WordSplit> splits;
  for_each_cut(words, ranked, params.max_bytes, [&](const Cut& c) {
    if (enough(c.left, c.left_one) && enough(c.right, c.right_one))
      splits.push_back({static_cast<uint32_t>(c.word), static_cast<uint32_t>(c.at), pair_key(c.left, c.right)});
  });
  return splits;
}

int64_t split_score(uint64_t pair_count, uint64_t tokens, const SplitParams& params) {
  // The pair's expected count in the frequency list's corpus.
  const double expected = tokens == 0 ? 0.0
                                      : static_cast<double>(params.frequency_total) * static_cast<double>(pair_count) /
                                            static_cast<double>(tokens);
  const ChannelWeights& w = params.weights;
  return channel_prior(static_cast<uint64_t>(expected), pair_count, w) - w.insertion + w.same_sound;
}

RankedResults with_splits(const WordList& words, const RankedResults& ranked, const std::vector<WordSplit>& splits,
                          const CountTable& counts, const std::vector<uint64_t>& occurrences, uint64_t tokens,
                          const SplitParams& params, uint64_t& offered) {
  RankedResults out(ranked.size());
  std::vector<Option> options;
  size_t s = 0;
  for (size_t i = 0; i < ranked.size(); ++i) {
    options.clear();
    for (; s < splits.size() && splits[s].word == i; ++s)
      if (const uint64_t n = counts.count(splits[s].pair); n > 0 && n >= params.apart_ratio * occurrences[i]) {
        std::string spelled(words[i]);
        spelled.insert(splits[s].at, 1, ' ');
        options.push_back({std::move(spelled), split_score(n, tokens, params), 1});
      }
    if (options.empty()) {
      out.copy_word(ranked, i);
      continue;
    }
    merge_splits(ranked, i, options, params.top, out);
    ++offered;
  }
  return out;
}

}  // namespace spellcheck
