#pragma once
// The counts context weighs by (context.hpp, split_words.hpp): keys of
// words and pairs, filters every rank shares, and counts kept at each
// key's owner (owner_of) for the ranks that ask.
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/suggest/detail/count_table.hpp"

namespace spellcheck {

// A word's count in the collection, by its word key (of its context hash:
// "The" and "the" add up); correct: the dictionary accepted it.
struct WordCount {
  uint64_t key = 0;
  uint64_t count = 0;
  bool correct = false;
};

}  // namespace spellcheck

namespace spellcheck::detail {

// The keys counted (never 0, which the count tables store as 1): a word by
// its context hash (context_token_hash), a pair of neighbours, and a word
// the dictionary accepted (its word key again, salted apart).
inline uint64_t word_key(uint64_t h) {
  const uint64_t k = mix64(h ^ 0x5be8a1f3c2d4e697ULL);
  return k ? k : 1;
}
inline uint64_t pair_key(uint64_t left, uint64_t right) {
  const uint64_t k = mix64(left * 0x9E3779B97F4A7C15ULL + right);
  return k ? k : 1;
}
inline uint64_t known_key(uint64_t word_key) {
  const uint64_t k = mix64(word_key ^ 0x2c7f0e9b41d3a865ULL);
  return k ? k : 1;
}

// Collective: a filter of every rank's keys (n here, given by
// for_each_key(insert)), on every rank.
template <class ForEachKey>
BloomFilter shared_filter(const mpi::Comm& comm, uint64_t n, ForEachKey&& for_each_key) {
  const uint64_t total = mpi::allreduce_sum(comm, n);
  BloomFilter f(1, BloomFilter::blocks_for(total > 0 ? total : 1, 12.0));
  for_each_key([&](uint64_t k) { f.insert_unshared(k, 0); });
  mpi::allreduce_bor(comm, f.data(), f.words());
  return f;
}

// Collective: each rank's buffer to[r] sent to rank r (emptied); returns
// what this rank got, in rank order.
std::string send_to_owners(const mpi::Comm& comm, std::vector<std::string>& to);

// Collective: the counts for_each_count(send) gives (send(key, count)),
// those the filter passes, to their keys' owners, summed there.
CountTable sum_at_owners(const mpi::Comm& comm, std::vector<std::string>& to);
template <class ForEachCount>
CountTable counts_at_owners(const mpi::Comm& comm, const BloomFilter& wanted, ForEachCount&& for_each_count) {
  std::vector<std::string> to(static_cast<size_t>(comm.size()));
  for_each_count([&](uint64_t k, uint64_t c) {
    if (!wanted.maybe_contains(k, 0)) return;
    std::string& b = to[static_cast<size_t>(owner_of(k, comm.size()))];
    wire::append_le<uint64_t>(b, k);
    wire::append_le<uint64_t>(b, c);
  });
  return sum_at_owners(comm, to);
}

// Collective: the counts of keys (distinct) from their owners, those
// above 0. Most wanted keys were never seen: only those a filter of the
// counted keys passes are asked.
CountTable ask_counts(const mpi::Comm& comm, const std::vector<uint64_t>& keys, const CountTable& owned);

// Collective: a filter of every rank's correct words, by known_key.
BloomFilter correct_filter(const mpi::Comm& comm, const std::vector<WordCount>& word_counts);

// Collective: the counts of the correct words among known_keys (distinct;
// word_counts: every rank's together the collection's), those above 0.
CountTable correct_counts(const mpi::Comm& comm, const std::vector<uint64_t>& known_keys,
                          const std::vector<WordCount>& word_counts);

// keys without repeats (in no particular order).
void make_distinct(std::vector<uint64_t>& keys);

// counts[i] = table.count(keys[i]), the slots prefetched a few keys ahead
// (the keys are random: each lookup is a cache miss otherwise).
void look_up_counts(const CountTable& table, const std::vector<uint64_t>& keys, std::vector<uint64_t>& counts);

}  // namespace spellcheck::detail
