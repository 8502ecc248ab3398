#include "spellcheck/suggest/context.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>

#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/suggest/detail/context_counts.hpp"
#include "spellcheck/suggest/detail/count_table.hpp"
#include "spellcheck/suggest/split_words.hpp"

namespace spellcheck {
namespace {

using detail::CountTable;
using detail::pair_key;
using detail::word_key;

// A misspelled word of some rank, by the hash of its spelling as written.
struct MisspelledRef {
  uint64_t hash = 0;  // exact_token_hash; 0: an empty slot
  uint32_t rank = 0;
  uint32_t word = 0;
};

// Every rank's misspelled words that have candidates: open addressing, at
// most half full (probed for the tokens its Bloom filter passes).
class MisspelledTable {
 public:
  explicit MisspelledTable(const std::vector<MisspelledRef>& refs) {
    size_t n = 16;
    while (n < 2 * refs.size()) n *= 2;
    slots_.assign(n, MisspelledRef{});
    mask_ = n - 1;
    for (MisspelledRef r : refs) {
      r.hash = stored(r.hash);
      size_t i = home(r.hash);
      while (slots_[i].hash != 0 && slots_[i].hash != r.hash) i = (i + 1) & mask_;
      if (slots_[i].hash == 0) slots_[i] = r;  // (a 64-bit collision: the first word keeps it)
    }
  }
  void prefetch(uint64_t h) const { __builtin_prefetch(&slots_[home(stored(h))]); }
  const MisspelledRef* find(uint64_t h) const {
    h = stored(h);
    for (size_t i = home(h);; i = (i + 1) & mask_) {
      if (slots_[i].hash == h) return &slots_[i];
      if (slots_[i].hash == 0) return nullptr;
    }
  }

 private:
  static uint64_t stored(uint64_t h) { return h ? h : 1; }
  size_t home(uint64_t h) const { return static_cast<size_t>(mix64(h)) & mask_; }
  std::vector<MisspelledRef> slots_;
  size_t mask_ = 0;
};

// Collective: the misspelled words of every rank with candidates or a
// split (split[i]).
std::vector<MisspelledRef> everyone_misspelled(const mpi::Comm& comm, const WordList& words,
                                               const RankedResults& ranked, const std::vector<char>& split) {
  std::string mine;
  for (size_t i = 0; i < words.size(); ++i) {
    if (ranked.accepted(i) || (ranked.candidates(i) == 0 && !split[i])) continue;
    wire::append_le<uint64_t>(mine, exact_token_hash(words[i]));
    wire::append_le<uint32_t>(mine, static_cast<uint32_t>(comm.rank()));
    wire::append_le<uint32_t>(mine, static_cast<uint32_t>(i));
  }
  const std::string all = mpi::broadcast(comm, mpi::gather_bytes(comm, mine).bytes);
  std::vector<MisspelledRef> refs(all.size() / 16);
  size_t at = 0;
  for (MisspelledRef& r : refs) {
    r.hash = wire::read_le_at<uint64_t>(all, at, "misspelled words");
    r.rank = wire::read_le_at<uint32_t>(all, at, "misspelled words");
    r.word = wire::read_le_at<uint32_t>(all, at, "misspelled words");
  }
  return refs;
}

// An occurrence of a misspelled word with its neighbours' context hashes
// (0: none, at a unit's edge).
struct Found {
  uint32_t rank = 0, word = 0;
  uint64_t left = 0, right = 0, position = 0, mark = 0;
};

// A blank between two words: a merge's pair is written with one.
bool blank(uint8_t c) { return c == ' ' || c == '\t'; }

// A word's first letter a capital (context_token_hash lowers it).
bool capital(const ObservedToken& t) { return t.exact != t.context; }

// A unit of the pass and its first and last tokens (context hash and
// position; the byte before each, whether a hyphen joins the first to the
// next, the last's end, mark and capital, the pair apart it ends (key,
// position; 0: none); none if it has no tokens).
struct UnitEdge {
  uint32_t file = 0;
  uint64_t begin = 0, end = 0;
  uint64_t first = 0, first_at = 0, last = 0, last_at = 0, last_end = 0, last_mark = 0;
  uint64_t last_apart = 0, last_apart_at = 0;
  uint8_t first_before = 0, first_hyphen_after = 0, first_capital = 0, last_before = 0, last_capital = 0;
  bool has_tokens = false;
  static constexpr size_t kWire = 4 + 10 * 8 + 5;
  void see(const ObservedToken& a, const ObservedToken& b) {
    if (!has_tokens) {
      first = a.context;
      first_at = a.position;
      first_before = a.before;
      first_capital = capital(a);
      has_tokens = true;
    }
    last = b.context;
    last_at = b.position;
    last_end = b.position + b.length;
    last_mark = b.mark;
    last_capital = capital(b);
    last_before = b.before;
  }
};

// The pass: per thread, the occurrences of misspelled words, and the
// neighbour pairs with a candidate on one side or that a split spells
// (which pairs matter is known only once the occurrences are in: counted
// here, shipped after), and the pairs a merge may join written with one
// blank between. splits, merges: filters of the splits' and merges' pairs
// (none: null).
class ContextPass final : public TokenObserver {
 public:
  ContextPass(const MisspelledTable& table, const BloomFilter& misspelled, const BloomFilter& candidates,
              const BloomFilter* splits, const BloomFilter* merges, int threads)
      : table_(table),
        misspelled_(misspelled),
        candidates_(candidates),
        splits_(splits),
        merges_(merges),
        threads_(static_cast<size_t>(threads)) {}

  void unit_begins(int thread, uint32_t file, uint64_t begin, uint64_t end) override {
    Thread& t = threads_[static_cast<size_t>(thread)];
    t.close(0);
    t.end_unit();
    t.prev = 0;
    t.prev_candidate = false;
    t.unit_tokens = 0;
    t.units.push_back({file, begin, end});
  }
  // After the pass: each thread's last occurrence and unit closed.
  void end_pass() {
    for (Thread& t : threads_) {
      t.close(0);
      t.end_unit();
    }
  }
  void tokens(int thread, const ObservedToken* tok, size_t n) override {
    Thread& t = threads_[static_cast<size_t>(thread)];
    if (n == 0) return;
    t.units.back().see(tok[0], tok[n - 1]);
    constexpr size_t kChunk = 128;
    uint64_t keys[kChunk];  // each token's pair with the one before (0: none)
    uint64_t pairs[kChunk];
    for (size_t from = 0; from < n; from += kChunk) {
      const size_t to = std::min(n, from + kChunk);
      uint64_t prev = t.prev;
      for (size_t i = from; i < to; ++i) {
        misspelled_.prefetch(tok[i].exact, 0);
        candidates_.prefetch(tok[i].context, 0);
        keys[i - from] = prev ? pair_key(prev, tok[i].context) : 0;
        if (splits_) splits_->prefetch(keys[i - from], 0);
        prev = tok[i].context;
      }
      size_t m = 0;
      for (size_t i = from; i < to; ++i) {
        const uint64_t c = tok[i].context, key = keys[i - from];
        t.close(c);
        const bool candidate = candidates_.maybe_contains(c, 0);
        if (key && (t.prev_candidate || candidate || (splits_ && splits_->maybe_contains(key, 0)))) pairs[m++] = key;
        if (misspelled_.maybe_contains(tok[i].exact, 0)) t.open(table_.find(tok[i].exact), tok[i]);
        t.see_apart(key, tok[i], merges_);
        t.prev = c;
        t.prev_candidate = candidate;
      }
      for (size_t j = 0; j < m; ++j) t.pairs.prefetch(pairs[j]);
      for (size_t j = 0; j < m; ++j) t.pairs.add(pairs[j], 1);
    }
  }
  // Every thread's occurrences (after end_pass).
  std::vector<Found> take_occurrences() {
    if (threads_.size() == 1) return std::exchange(threads_[0].found, {});
    std::vector<Found> all;
    for (Thread& t : threads_) {
      all.insert(all.end(), t.found.begin(), t.found.end());
      t.found = {};
    }
    return all;
  }
  // Every thread's units.
  std::vector<UnitEdge> units() const {
    std::vector<UnitEdge> all;
    for (const Thread& t : threads_) all.insert(all.end(), t.units.begin(), t.units.end());
    return all;
  }
  // The pair across a unit edge (units are cut differently on other rank
  // and thread counts: counted once, by one rank), if it has a candidate,
  // or it may be merged; a pair apart that a's last token ends, struck if
  // a hyphen joins it to b's first. (A hyphen two edges on, after a unit
  // of one token, is not looked for: a unit holds 64 KiB or more.)
  void add_edge_pair(const UnitEdge& a, const UnitEdge& b) {
    const uint64_t key = pair_key(a.last, b.first);
    if (candidates_.maybe_contains(a.last, 0) || candidates_.maybe_contains(b.first, 0) ||
        (splits_ && splits_->maybe_contains(key, 0)))
      edge_pairs_.add(key, 1);
    const bool adjacent = b.first_at == a.last_end + 1;
    if (a.last_apart && adjacent && b.first_before == '-') struck_.push_back({a.last_apart, a.last_apart_at, 0, false});
    if (merges_ && adjacent && blank(b.first_before) && a.last_before != '-' && !b.first_hyphen_after &&
        !b.first_capital && merges_->maybe_contains(key, 0))
      threads_[0].pairs_apart.push_back({key, a.last_at, a.last_mark, a.last_capital != 0});
  }
  // The pairs apart struck at unit edges.
  std::vector<PairSeen> take_struck() { return std::exchange(struck_, {}); }
  // Every thread's pairs written apart that a merge may join.
  std::vector<PairSeen> take_pairs_apart() {
    std::vector<PairSeen> all;
    for (Thread& t : threads_) {
      all.insert(all.end(), t.pairs_apart.begin(), t.pairs_apart.end());
      t.pairs_apart = {};
    }
    return all;
  }
  // fn(key, count) for each thread's pairs (summed by the owners).
  template <class Fn>
  void for_each_pair(Fn&& fn) const {
    for (const Thread& t : threads_) t.pairs.for_each(fn);
    edge_pairs_.for_each(fn);
  }
  uint64_t pair_table_bytes() const {
    uint64_t b = 0;
    for (const Thread& t : threads_) b += t.pairs.bytes();
    return b;
  }

 private:
  struct alignas(64) Thread {
    std::vector<Found> found;
    std::vector<UnitEdge> units;
    std::vector<PairSeen> pairs_apart;
    CountTable pairs{1024};
    Found pending;
    bool is_open = false;
    bool prev_candidate = false, prev_capital = false, apart_open = false;
    uint8_t prev_before = 0;
    uint64_t prev = 0, prev_at = 0, prev_end = 0, prev_mark = 0, unit_tokens = 0;
    // The pair (the token before, tok) noted if written with one blank
    // between and a merge may join it (key: 0 at a unit's start); a pair
    // in a hyphenated word ("her self-reproving", "man-with out") is not,
    // nor one whose second word has a capital ("by Ron": a name, a
    // sentence's start).
    void see_apart(uint64_t key, const ObservedToken& tok, const BloomFilter* merges) {
      const bool adjacent = unit_tokens > 0 && tok.position == prev_end + 1;
      if (apart_open && adjacent && tok.before == '-') pairs_apart.pop_back();
      if (unit_tokens == 1) units.back().first_hyphen_after = adjacent && tok.before == '-';
      apart_open = key && merges && adjacent && blank(tok.before) && prev_before != '-' && !capital(tok) &&
                   merges->maybe_contains(key, 0);
      if (apart_open) [[unlikely]]
        pairs_apart.push_back({key, prev_at, prev_mark, prev_capital});
      ++unit_tokens;
      prev_at = tok.position;
      prev_end = tok.position + tok.length;
      prev_mark = tok.mark;
      prev_capital = capital(tok);
      prev_before = tok.before;
    }
    // The unit's last pair apart, for its edge.
    void end_unit() {
      if (units.empty() || !apart_open) return;
      units.back().last_apart = pairs_apart.back().pair;
      units.back().last_apart_at = pairs_apart.back().position;
      apart_open = false;
    }
    void open(const MisspelledRef* m, const ObservedToken& tok) {
      if (!m) return;
      pending = {m->rank, m->word, prev, 0, tok.position, tok.mark};
      is_open = true;
    }
    void close(uint64_t right) {
      if (!is_open) return;
      pending.right = right;
      found.push_back(pending);
      is_open = false;
    }
  };
  const MisspelledTable& table_;
  const BloomFilter& misspelled_;
  const BloomFilter& candidates_;
  const BloomFilter* splits_;
  const BloomFilter* merges_;
  std::vector<Thread> threads_;
  CountTable edge_pairs_{16};
  std::vector<PairSeen> struck_;
};

// Collective: the neighbours across unit edges. Every rank's units are
// gathered; in a file's order, a unit's first token follows the last token
// of the unit before it that has tokens. Occurrences at an edge get that
// neighbour; rank 0 counts the pairs across edges.
void join_unit_edges(const mpi::Comm& comm, ContextPass& pass, std::vector<Found>& found) {
  std::string mine;
  for (const UnitEdge& u : pass.units()) {
    if (!u.has_tokens) continue;
    wire::append_le<uint32_t>(mine, u.file);
    for (const uint64_t v : {u.begin, u.end, u.first, u.first_at, u.last, u.last_at, u.last_end, u.last_mark,
                             u.last_apart, u.last_apart_at})
      wire::append_le<uint64_t>(mine, v);
    for (const uint8_t v : {u.first_before, u.first_hyphen_after, u.first_capital, u.last_before, u.last_capital})
      mine.push_back(static_cast<char>(v));
  }
  const std::string all = mpi::broadcast(comm, mpi::gather_bytes(comm, mine).bytes);
  std::vector<UnitEdge> units(all.size() / UnitEdge::kWire);
  size_t at = 0;
  for (UnitEdge& u : units) {
    u.file = wire::read_le_at<uint32_t>(all, at, "unit edges");
    for (uint64_t* v : {&u.begin, &u.end, &u.first, &u.first_at, &u.last, &u.last_at, &u.last_end, &u.last_mark,
                        &u.last_apart, &u.last_apart_at})
      *v = wire::read_le_at<uint64_t>(all, at, "unit edges");
    for (uint8_t* v : {&u.first_before, &u.first_hyphen_after, &u.first_capital, &u.last_before, &u.last_capital})
      *v = wire::read_le_at<uint8_t>(all, at, "unit edges");
  }
  std::sort(units.begin(), units.end(), [](const UnitEdge& a, const UnitEdge& b) {
    return a.file != b.file ? a.file < b.file : a.begin < b.begin;
  });
  std::unordered_map<uint64_t, uint64_t> left_at, right_at;  // position -> the neighbour across
  for (size_t j = 1; j < units.size(); ++j) {
    const UnitEdge &a = units[j - 1], &b = units[j];
    if (a.file != b.file) continue;
    left_at[b.first_at] = a.last;
    right_at[a.last_at] = b.first;
    if (comm.rank() == 0) pass.add_edge_pair(a, b);
  }
  for (Found& f : found) {
    if (!f.left)
      if (const auto it = left_at.find(f.position); it != left_at.end()) f.left = it->second;
    if (!f.right)
      if (const auto it = right_at.find(f.position); it != right_at.end()) f.right = it->second;
  }
}

// Collective: each occurrence to the rank that ranked its word; returns
// this rank's, by word and position.
std::vector<Found> route_occurrences(const mpi::Comm& comm, const std::vector<Found>& found, size_t words) {
  constexpr size_t kRecord = 4 + 4 * 8;
  mpi::Bytes send;
  send.counts.assign(static_cast<size_t>(comm.size()), 0);
  for (const Found& f : found) send.counts[f.rank] += kRecord;
  std::vector<size_t> at(send.counts.size());
  for (size_t r = 1; r < at.size(); ++r) at[r] = at[r - 1] + send.counts[r - 1];
  send.data.resize(found.size() * kRecord);
  for (const Found& f : found) {
    char* p = send.data.data() + at[f.rank];
    at[f.rank] += kRecord;
    wire::store_le<uint32_t>(p, f.word);
    wire::store_le<uint64_t>(p + 4, f.left);
    wire::store_le<uint64_t>(p + 12, f.right);
    wire::store_le<uint64_t>(p + 20, f.position);
    wire::store_le<uint64_t>(p + 28, f.mark);
  }
  const mpi::Bytes recv = mpi::alltoallv_bytes(comm, send);
  const size_t n = recv.data.size() / kRecord;
  // By word (a counting sort: the words are this rank's indices), then
  // by position within a word.
  std::vector<size_t> first(words + 1);
  for (size_t j = 0; j < n; ++j) {
    const uint32_t w = wire::peek_le<uint32_t>(recv.data.data() + j * kRecord);
    if (w >= words) throw wire::WireError("occurrences: a word index out of range");
    ++first[w + 1];
  }
  for (size_t w = 1; w <= words; ++w) first[w] += first[w - 1];
  std::vector<Found> mine(n);
  for (size_t j = 0; j < n; ++j) {
    const char* p = recv.data.data() + j * kRecord;
    Found f;
    f.rank = static_cast<uint32_t>(comm.rank());
    f.word = wire::peek_le<uint32_t>(p);
    f.left = wire::peek_le<uint64_t>(p + 4);
    f.right = wire::peek_le<uint64_t>(p + 12);
    f.position = wire::peek_le<uint64_t>(p + 20);
    f.mark = wire::peek_le<uint64_t>(p + 28);
    mine[first[f.word]++] = f;
  }
  for (size_t w = words; w > 0; --w) first[w] = first[w - 1];
  first[0] = 0;
  for (size_t w = 0; w < words; ++w)
    std::sort(mine.begin() + static_cast<ptrdiff_t>(first[w]), mine.begin() + static_cast<ptrdiff_t>(first[w + 1]),
              [](const Found& x, const Found& y) {
                // (A compressed file's positions are clamped to its span: its marks go on.)
                return x.position != y.position ? x.position < y.position : x.mark < y.mark;
              });
  return mine;
}

// The occurrences of one word, [begin, end) of the sorted list, and its
// distinct neighbours (0: none), in Neighbours::values: occurrence o's are
// lefts[left_of[o]] and rights[right_of[o]].
struct WordSpan {
  uint32_t word = 0;
  size_t begin = 0, end = 0;
  std::span<const uint64_t> lefts, rights;
};

// Every word's span, its neighbours in flat arrays (no heap block per
// word: a million words each).
struct Neighbours {
  std::vector<WordSpan> spans;
  std::vector<uint64_t> values;
  std::vector<uint32_t> left_of, right_of;  // per occurrence

  explicit Neighbours(const std::vector<Found>& occ) : left_of(occ.size()), right_of(occ.size()) {
    std::vector<std::array<size_t, 4>> at;  // per span: lefts' and rights' start and size in values
    for (size_t b = 0; b < occ.size();) {
      size_t e = b;
      while (e < occ.size() && occ[e].word == occ[b].word) ++e;
      const size_t l = values.size(), nl = add_distinct(occ, b, e, &Found::left, left_of);
      const size_t r = values.size(), nr = add_distinct(occ, b, e, &Found::right, right_of);
      spans.push_back({occ[b].word, b, e, {}, {}});
      at.push_back({l, nl, r, nr});
      b = e;
    }
    for (size_t j = 0; j < spans.size(); ++j) {
      spans[j].lefts = std::span<const uint64_t>(values).subspan(at[j][0], at[j][1]);
      spans[j].rights = std::span<const uint64_t>(values).subspan(at[j][2], at[j][3]);
    }
  }

 private:
  // The distinct values of occ[b, e).*side appended (sorted), and each
  // occurrence's index among them; returns how many.
  size_t add_distinct(const std::vector<Found>& occ, size_t b, size_t e, uint64_t Found::*side,
                      std::vector<uint32_t>& index) {
    const size_t from = values.size();
    for (size_t o = b; o < e; ++o) values.push_back(occ[o].*side);
    const auto first = values.begin() + static_cast<ptrdiff_t>(from);
    std::sort(first, values.end());
    values.erase(std::unique(first, values.end()), values.end());
    for (size_t o = b; o < e; ++o)
      index[o] = static_cast<uint32_t>(std::lower_bound(first, values.end(), occ[o].*side) - first);
    return values.size() - from;
  }
};

// The context hashes of word i's first candidates, those context weighs.
// None for a word with one candidate (and no split, `split`): context
// cannot change its ranking (its occurrences are still found: their places
// and best are output).
std::vector<uint64_t> candidate_hashes(const RankedResults& ranked, size_t i, const ContextParams& params,
                                       bool split = false) {
  if (ranked.candidates(i) + (split ? 1 : 0) < 2) return {};
  std::vector<uint64_t> h(std::min(ranked.candidates(i), params.candidates));
  for (size_t k = 0; k < h.size(); ++k) h[k] = context_token_hash(ranked.word(i, k));
  return h;
}

// The splits of each word, as given by known_splits (by word).
class SplitsOf {
 public:
  SplitsOf(const std::vector<WordSplit>& splits, size_t words) : first_(words + 1), splits_(splits) {
    for (const WordSplit& s : splits) ++first_[s.word + 1];
    for (size_t w = 1; w <= words; ++w) first_[w] += first_[w - 1];
  }
  bool any(size_t word) const { return first_[word + 1] > first_[word]; }
  std::span<const WordSplit> of(size_t word) const {
    return std::span<const WordSplit>(splits_).subspan(first_[word], first_[word + 1] - first_[word]);
  }
  std::vector<char> flags() const {
    std::vector<char> f(first_.size() - 1);
    for (size_t w = 0; w < f.size(); ++w) f[w] = any(w);
    return f;
  }

 private:
  std::vector<size_t> first_;
  const std::vector<WordSplit>& splits_;
};

// The keys this rank's words need counted (distinct): their candidates'
// pairs with the neighbours and the words of those, and their splits'
// pairs.
std::vector<uint64_t> wanted_keys(const std::vector<WordSpan>& spans, const RankedResults& ranked,
                                  const SplitsOf& splits, const ContextParams& params) {
  std::vector<uint64_t> keys;
  for (const WordSpan& s : spans) {
    for (const WordSplit& split : splits.of(s.word)) keys.push_back(split.pair);
    const std::vector<uint64_t> candidates = candidate_hashes(ranked, s.word, params, splits.any(s.word));
    if (candidates.empty()) continue;
    for (const uint64_t l : s.lefts)
      if (l) keys.push_back(word_key(l));
    for (const uint64_t r : s.rights)
      if (r) keys.push_back(word_key(r));
    for (const uint64_t c : candidates) {
      keys.push_back(word_key(c));
      for (const uint64_t l : s.lefts)
        if (l) keys.push_back(pair_key(l, c));
      for (const uint64_t r : s.rights)
        if (r) keys.push_back(pair_key(c, r));
    }
  }
  detail::make_distinct(keys);
  return keys;
}

// Collective: a filter of the context hashes of every rank's weighed
// candidates.
BloomFilter candidate_filter(const mpi::Comm& comm, const RankedResults& ranked, const SplitsOf& splits,
                             const ContextParams& params) {
  std::vector<uint64_t> hashes;
  for (size_t i = 0; i < ranked.size(); ++i)
    if (!ranked.accepted(i))
      for (const uint64_t c : candidate_hashes(ranked, i, params, splits.any(i))) hashes.push_back(c);
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  return detail::shared_filter(comm, hashes.size(), [&](auto insert) {
    for (const uint64_t h : hashes) insert(h);
  });
}

// Collective: a filter of every rank's cuts' pairs (splits or merges);
// none (null) if no rank has one.
template <class Cut>
std::unique_ptr<BloomFilter> pair_filter(const mpi::Comm& comm, const std::vector<Cut>& cuts) {
  if (mpi::allreduce_sum(comm, uint64_t{cuts.size()}) == 0) return nullptr;
  return std::make_unique<BloomFilter>(detail::shared_filter(comm, cuts.size(), [&](auto insert) {
    for (const Cut& c : cuts) insert(c.pair);
  }));
}

// Each word's candidates reordered in context, with buffers kept from word
// to word.
class WordRanker {
 public:
  WordRanker(const RankedResults& ranked, const Neighbours& n, const CountTable& count, uint64_t tokens,
             const ContextParams& params)
      : ranked_(ranked), n_(n), count_(count), tokens_(tokens), params_(params) {}

  // Word s.word's candidates by their scores plus the evidence summed over
  // its occurrences, into out; each occurrence's best appended to best (if any).
  void rank(const std::vector<Found>& occ, const WordSpan& s, RankedResults& out,
            std::vector<ContextOccurrence>* best) {
    weigh(s);
    const size_t i = s.word, k_n = c_.size();
    const auto each = [&](size_t o, size_t k) {
      return left_[n_.left_of[o] * k_n + k] + right_[n_.right_of[o] * k_n + k];
    };
    total_.assign(k_n, 0);
    for (size_t k = 0; k < k_n; ++k) {
      total_[k] = ranked_.score(i, k);
      for (size_t o = s.begin; o < s.end; ++o) total_[k] += each(o, k);
    }
    order_.resize(k_n);
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      return total_[a] != total_[b] ? total_[a] > total_[b] : ranked_.word(i, a) < ranked_.word(i, b);
    });
    out.start(i);
    for (const uint32_t k : order_) out.add(i, ranked_.word(i, k), total_[k], ranked_.distance(i, k));
    for (size_t k = k_n; k < ranked_.candidates(i); ++k)
      out.add(i, ranked_.word(i, k), ranked_.score(i, k), ranked_.distance(i, k));
    if (!best) return;
    for (size_t o = s.begin; o < s.end; ++o) {
      int64_t first = INT64_MIN, second = INT64_MIN;
      uint32_t at = 0;
      // The word's score in context, its own neighbours counted once more
      // (better than its own alone: results/context.md); in the new
      // order, so ties go to the word's better candidate.
      for (uint32_t r = 0; r < k_n; ++r) {
        const int64_t v = total_[order_[r]] + each(o, order_[r]);
        if (v > first) {
          second = first;
          first = v;
          at = r;
        } else if (v > second) {
          second = v;
        }
      }
      best->push_back(
          {occ[o].position, occ[o].mark, s.word, at, second == INT64_MIN ? ContextOccurrence::kAlone : first - second});
    }
  }

 private:
  // The evidence of each distinct neighbour for each weighed candidate.
  void weigh(const WordSpan& s) {
    c_ = candidate_hashes(ranked_, s.word, params_);
    const size_t k_n = c_.size();
    if (k_n == 0) return;
    // Every count this word needs, looked up in one prefetched batch: the
    // candidates' words, then each neighbour's word and its pairs.
    keys_.clear();
    for (size_t k = 0; k < k_n; ++k) keys_.push_back(word_key(c_[k]));
    for (const uint64_t l : s.lefts) {
      if (!l) continue;
      keys_.push_back(word_key(l));
      for (size_t k = 0; k < k_n; ++k) keys_.push_back(pair_key(l, c_[k]));
    }
    for (const uint64_t r : s.rights) {
      if (!r) continue;
      keys_.push_back(word_key(r));
      for (size_t k = 0; k < k_n; ++k) keys_.push_back(pair_key(c_[k], r));
    }
    detail::look_up_counts(count_, keys_, counts_);
    const uint64_t* next = counts_.data();
    c_count_.assign(next, next + k_n);
    next += k_n;
    left_.assign(s.lefts.size() * k_n, 0);
    right_.assign(s.rights.size() * k_n, 0);
    for (size_t j = 0; j < s.lefts.size(); ++j) {
      if (!s.lefts[j]) continue;
      const uint64_t given = *next++;
      for (size_t k = 0; k < k_n; ++k) left_[j * k_n + k] = side(*next++, given, c_count_[k]);
    }
    for (size_t j = 0; j < s.rights.size(); ++j) {
      if (!s.rights[j]) continue;
      const uint64_t word = *next++;
      for (size_t k = 0; k < k_n; ++k) right_[j * k_n + k] = side(*next++, c_count_[k], word);
    }
  }
  int64_t side(uint64_t pair, uint64_t given, uint64_t word) const {
    return std::llround(1000.0 * params_.weight * context_side(pair, given, word, tokens_, params_.backoff));
  }

  const RankedResults& ranked_;
  const Neighbours& n_;
  const CountTable& count_;
  uint64_t tokens_;
  const ContextParams& params_;
  std::vector<uint64_t> c_, c_count_, keys_, counts_;
  std::vector<int64_t> left_, right_, total_;
  std::vector<uint32_t> order_;
};

}  // namespace

double context_side(uint64_t pair, uint64_t given, uint64_t word, uint64_t tokens, double backoff) {
  if (pair == 0 || given == 0 || tokens == 0) return std::log(backoff);
  return std::log(static_cast<double>(pair) / static_cast<double>(given)) -
         std::log((static_cast<double>(word) + 0.5) / static_cast<double>(tokens));
}

void add_context_word_counts(const WordList& words, const std::vector<uint64_t>& counts, bool correct,
                             std::vector<WordCount>& out) {
  for (size_t i = 0; i < words.size(); ++i) out.push_back({word_key(context_token_hash(words[i])), counts[i], correct});
}

namespace {

// Collective: the counts of this rank's wanted keys, from the pass's pairs
// and the first reading's word counts, those a filter of every rank's
// wanted keys passes summed at their owners.
CountTable wanted_counts(const mpi::Comm& comm, const std::vector<uint64_t>& keys, const ContextPass& seen,
                         const std::vector<WordCount>& word_counts, ContextFigures& figures) {
  CountTable owned;
  {
    const BloomFilter wanted = detail::shared_filter(comm, keys.size(), [&](auto insert) {
      for (const uint64_t k : keys) insert(k);
    });
    figures.filter_bytes += wanted.bytes();
    owned = detail::counts_at_owners(comm, wanted, [&](auto send) {
      seen.for_each_pair(send);
      for (const WordCount& w : word_counts) send(w.key, w.count);
    });
  }
  figures.counted_keys = owned.size();
  figures.table_bytes = std::max<uint64_t>(figures.table_bytes, owned.bytes());
  return detail::ask_counts(comm, keys, owned);
}

}  // namespace

InContext rank_in_context(const mpi::Comm& comm, const WordList& words, RankedResults& ranked,
                          const std::vector<WordCount>& word_counts, const JoinWords& joins, int threads,
                          const ObservedPass& pass, const ContextParams& params, ContextFigures& figures) {
  InContext result;
  const std::vector<WordSplit> splits = known_splits(comm, words, ranked, word_counts, params.split);
  const SplitsOf splits_of(splits, words.size());
  figures.split_cuts = splits.size();
  const std::vector<MergeCut> merge_cuts = spellcheck::merge_cuts(comm, joins, word_counts, params.merge);
  figures.merge_cuts = merge_cuts.size();
  const std::vector<MisspelledRef> refs = everyone_misspelled(comm, words, ranked, splits_of.flags());
  const MisspelledTable table(refs);
  // (Every rank holds all the refs: the filter needs no reduction, but
  // the same size everywhere, which refs.size() is.)
  BloomFilter misspelled(1, BloomFilter::blocks_for(std::max<size_t>(refs.size(), 1), 10.0));
  for (const MisspelledRef& r : refs) misspelled.insert_unshared(r.hash, 0);
  const BloomFilter candidates = candidate_filter(comm, ranked, splits_of, params);
  const std::unique_ptr<BloomFilter> split_pairs = pair_filter(comm, splits);
  const std::unique_ptr<BloomFilter> merge_pairs = pair_filter(comm, merge_cuts);
  figures.filter_bytes = misspelled.bytes() + candidates.bytes() + (split_pairs ? split_pairs->bytes() : 0) +
                         (merge_pairs ? merge_pairs->bytes() : 0);
  ContextPass seen(table, misspelled, candidates, split_pairs.get(), merge_pairs.get(), threads);
  result.line_units = pass(seen, params.places);
  seen.end_pass();
  std::vector<Found> found = seen.take_occurrences();
  join_unit_edges(comm, seen, found);
  {
    const std::vector<PairSeen> apart = seen.take_pairs_apart();
    figures.pairs_apart = apart.size();
    result.merges = decide_merges(comm, joins, merge_cuts, apart, seen.take_struck(), params.merge);
    figures.merges = result.merges.size();
  }
  figures.occurrences = found.size();
  figures.table_bytes = seen.pair_table_bytes();
  const std::vector<Found> occ = route_occurrences(comm, found, words.size());
  found = {};
  const Neighbours neighbours(occ);
  const std::vector<uint64_t> keys = wanted_keys(neighbours.spans, ranked, splits_of, params);
  figures.wanted_keys = keys.size();
  const CountTable counts = wanted_counts(comm, keys, seen, word_counts, figures);
  uint64_t tokens = 0;
  for (const WordCount& w : word_counts) tokens += w.count;
  tokens = mpi::allreduce_sum(comm, tokens);
  std::vector<uint64_t> occurrences(words.size());
  for (const WordSpan& s : neighbours.spans) occurrences[s.word] = s.end - s.begin;
  // (Replaced, not kept beside: two copies of the rankings at most.)
  if (!splits.empty())
    ranked = with_splits(words, ranked, splits, counts, occurrences, tokens, params.split, figures.split_words);
  RankedResults out(ranked.size());
  std::vector<char> done(ranked.size());
  WordRanker ranker(ranked, neighbours, counts, tokens, params);
  for (const WordSpan& s : neighbours.spans) {
    if (ranked.candidates(s.word) == 0) continue;  // (a split the collection does not have)
    ranker.rank(occ, s, out, params.places ? &result.occurrences : nullptr);
    done[s.word] = 1;
  }
  for (size_t i = 0; i < ranked.size(); ++i)
    if (!done[i]) out.copy_word(ranked, i);
  ranked = std::move(out);
  return result;
}

}  // namespace spellcheck
