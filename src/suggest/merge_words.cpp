#include "spellcheck/suggest/merge_words.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/input/token_observer.hpp"
#include "spellcheck/suggest/detail/word_cuts.hpp"

namespace spellcheck {
namespace {

using detail::CountTable;
using detail::known_key;
using detail::pair_key;
using detail::word_key;

// A cut into two parts of two letters or more.
bool join_cut(std::string_view w, size_t at) {
  return detail::cuttable(w, at) && !detail::one_letter(w.substr(0, at)) && !detail::one_letter(w.substr(at));
}

bool may_join(std::string_view w, const MergeParams& params) {
  if (w.size() < 4 || w.size() > params.max_bytes || detail::inner_capital(w)) return false;
  for (size_t at = 2; at + 2 <= w.size(); ++at)
    if (join_cut(w, at)) return true;
  return false;
}

// fn(join, at, left, right) for each cut of the joins (parts' context
// hashes).
template <class Fn>
void for_each_join_cut(const JoinWords& joins, Fn&& fn) {
  for (size_t j = 0; j < joins.words.size(); ++j) {
    const std::string_view w = joins.words[j];
    for (size_t at = 2; at + 2 <= w.size(); ++at)
      if (join_cut(w, at)) fn(j, at, context_token_hash(w.substr(0, at)), context_token_hash(w.substr(at)));
  }
}

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c; }
char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c & ~0x20) : c; }

// Records to the owners of their pairs' keys.
class ToOwners {
 public:
  explicit ToOwners(const mpi::Comm& comm) : comm_(comm), to_(static_cast<size_t>(comm.size())) {}
  std::string& of(uint64_t pair) { return to_[static_cast<size_t>(owner_of(pair, comm_.size()))]; }
  std::string exchange() { return detail::send_to_owners(comm_, to_); }

 private:
  const mpi::Comm& comm_;
  std::vector<std::string> to_;
};

// A pair's joins, at its owner: the join (first letter lowered), where it
// is cut, its count summed over its spellings ("Without", "without"),
// whether one is written lower-case (else a name: "Satan" for "sat an").
struct Join {
  std::string together;
  uint32_t at = 0;
  uint64_t count = 0;
  bool lower = false;
  std::vector<PairSeen> seen;
};

std::unordered_map<uint64_t, Join> joins_at_owner(const mpi::Comm& comm, const JoinWords& joins,
                                                  const std::vector<MergeCut>& cuts) {
  ToOwners to(comm);
  for (const MergeCut& c : cuts) {
    std::string& b = to.of(c.pair);
    wire::append_le<uint64_t>(b, c.pair);
    wire::append_le<uint64_t>(b, joins.counts[c.join]);
    wire::append_le<uint32_t>(b, c.at);
    const std::string_view w = joins.words[c.join];
    wire::append_le<uint32_t>(b, static_cast<uint32_t>(w.size()));
    b.append(w);
  }
  const std::string got = to.exchange();
  std::unordered_map<uint64_t, Join> owned;
  for (size_t at = 0; at < got.size();) {
    const uint64_t pair = wire::read_le_at<uint64_t>(got, at, "merge cuts");
    const uint64_t count = wire::read_le_at<uint64_t>(got, at, "merge cuts");
    const uint32_t cut = wire::read_le_at<uint32_t>(got, at, "merge cuts");
    const uint32_t size = wire::read_le_at<uint32_t>(got, at, "merge cuts");
    if (size > got.size() - at || cut >= size) throw wire::WireError("merge cuts: a join past the end");
    std::string together = got.substr(at, size);
    at += size;
    const bool lower = ascii_lower(together[0]) == together[0];
    together[0] = ascii_lower(together[0]);
    Join& j = owned[pair];
    j.lower = j.lower || lower;
    // (Spellings of one pair differ in their first letter's case only;
    // the least kept whatever the order, should a hash collide.)
    if (j.together.empty() || together < j.together) {
      j.together = std::move(together);
      j.at = cut;
    }
    j.count += count;
  }
  return owned;
}

// The pairs seen, and those struck, at their owners (a record's last
// byte: 0, 1 capital, 2 struck).
void seen_at_owner(const mpi::Comm& comm, const std::vector<PairSeen>& seen, const std::vector<PairSeen>& struck,
                   std::unordered_map<uint64_t, Join>& owned) {
  ToOwners to(comm);
  const auto send = [&](const PairSeen& s, char kind) {
    std::string& b = to.of(s.pair);
    wire::append_le<uint64_t>(b, s.pair);
    wire::append_le<uint64_t>(b, s.position);
    wire::append_le<uint64_t>(b, s.mark);
    b.push_back(kind);
  };
  for (const PairSeen& s : seen) send(s, s.capital ? '\1' : '\0');
  for (const PairSeen& s : struck) send(s, '\2');
  const std::string got = to.exchange();
  if (got.size() % 25 != 0) throw wire::WireError("merge pairs: a record cut short");
  std::vector<std::pair<uint64_t, uint64_t>> gone;  // (pair, position)
  for (size_t at = 0; at < got.size(); at += 25) {
    PairSeen s;
    s.pair = wire::peek_le<uint64_t>(got.data() + at);
    s.position = wire::peek_le<uint64_t>(got.data() + at + 8);
    s.mark = wire::peek_le<uint64_t>(got.data() + at + 16);
    s.capital = got[at + 24] == 1;
    if (got[at + 24] == 2) gone.emplace_back(s.pair, s.position);
    else if (const auto it = owned.find(s.pair); it != owned.end()) it->second.seen.push_back(s);
  }
  for (const std::pair<uint64_t, uint64_t>& g : gone)
    if (const auto it = owned.find(g.first); it != owned.end())
      std::erase_if(it->second.seen, [&](const PairSeen& s) { return s.position == g.second; });
}

// The pair's merges (one per first-letter case written), if the
// collection writes the join often enough as one.
void add_merges(const Join& j, const MergeParams& params, std::vector<Merge>& out) {
  const uint64_t n = j.seen.size();
  if (n == 0 || !j.lower || j.count < params.together_ratio * n) return;
  const int64_t score = std::llround(1000.0 * std::log(static_cast<double>(j.count) / static_cast<double>(n)));
  for (const bool capital : {false, true}) {
    Merge m;
    m.together = j.together;
    if (capital) m.together[0] = ascii_upper(m.together[0]);
    m.apart = m.together;
    m.apart.insert(j.at, 1, ' ');
    m.score = score;
    for (const PairSeen& s : j.seen)
      if (s.capital == capital) m.places.emplace_back(s.position, s.mark);
    if (m.places.empty()) continue;
    std::sort(m.places.begin(), m.places.end());
    out.push_back(std::move(m));
  }
}

}  // namespace

void JoinWords::add(std::string_view word, uint64_t count, const MergeParams& params) {
  if (!may_join(word, params)) return;
  words.push_back(word);
  counts.push_back(count);
}

void JoinWords::add(const WordList& from, const std::vector<uint64_t>& from_counts, const MergeParams& params) {
  for (size_t i = 0; i < from.size(); ++i) add(from[i], from_counts[i], params);
}

std::vector<MergeCut> merge_cuts(const mpi::Comm& comm, const JoinWords& joins,
                                 const std::vector<WordCount>& word_counts, const MergeParams& params) {
  if (!params.enabled) return {};
  const BloomFilter correct = detail::correct_filter(comm, word_counts);
  const auto maybe_correct = [&](uint64_t hash) { return correct.maybe_contains(known_key(word_key(hash)), 0); };
  std::vector<uint64_t> parts;
  for_each_join_cut(joins, [&](size_t, size_t, uint64_t l, uint64_t r) {
    if (!maybe_correct(l) || !maybe_correct(r)) return;
    parts.push_back(known_key(word_key(l)));
    parts.push_back(known_key(word_key(r)));
  });
  detail::make_distinct(parts);
  const CountTable known = detail::correct_counts(comm, parts, word_counts);
  const auto is_correct = [&](uint64_t hash) { return known.count(known_key(word_key(hash))) > 0; };
  std::vector<MergeCut> cuts;
  for_each_join_cut(joins, [&](size_t j, size_t at, uint64_t l, uint64_t r) {
    if (maybe_correct(l) && maybe_correct(r) && is_correct(l) && is_correct(r))
      cuts.push_back({pair_key(l, r), static_cast<uint32_t>(j), static_cast<uint32_t>(at)});
  });
  return cuts;
}

std::vector<Merge> decide_merges(const mpi::Comm& comm, const JoinWords& joins, const std::vector<MergeCut>& cuts,
                                 const std::vector<PairSeen>& seen, const std::vector<PairSeen>& struck,
                                 const MergeParams& params) {
  std::unordered_map<uint64_t, Join> owned = joins_at_owner(comm, joins, cuts);
  seen_at_owner(comm, seen, struck, owned);
  std::vector<Merge> merges;
  for (const auto& [pair, join] : owned) add_merges(join, params, merges);
  std::sort(merges.begin(), merges.end(), [](const Merge& a, const Merge& b) { return a.apart < b.apart; });
  return merges;
}

}  // namespace spellcheck
