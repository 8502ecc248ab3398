#pragma once
// Flat hash tables keyed by 64-bit hashes, shared by the dictionary's and
// the ranked index's tables: HashSlots (hash -> one value), HashDirectory
// (hash -> a range of an array), and sort_by_spread_hash, which orders
// (hash, value) pairs for building them.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace spellcheck {

// An open-addressing map from 64-bit hashes to one Value each (linear
// probing, three quarters full: the delete tables are asked only for keys
// the delete filter says some rank holds, so few probes run to an empty
// slot, and a fuller table is less memory to fault in; any number of slots,
// not a power of two, which left the tables half empty). Hash 0 is stored
// as 1. The value sits in the slot, so a lookup is one cache miss. A key's
// first slot is its top bits scaled to the slots (the keys are hashes, even
// in their top bits: owner_of reads the low ones), so keys inserted in
// ascending order fill the slots front to back.
//
// A compiled file's tables (compiled_ranked_index.hpp) are laid out for
// every rank count at once: one table whose keys' first slots are their
// low 32 bits scaled to its slots (ranks own ranges of those bits), filled
// in that order without wrapping; a rank holds the window of slots its
// keys can reach (assign_window).
template <class Value>
class HashSlots {
 public:
  struct Slot {
    uint64_t key = 0;
    Value value{};
  };
  // Empty, with room for n keys.
  void reset(size_t n) {
    const size_t slots = slots_for(n);
    if (slots > kMostSlots) throw std::length_error("hash directory: over 2^32 slots on one rank (use more ranks)");
    slots_.assign(slots, Slot{});
    own_layout();
  }
  static size_t slots_for(size_t n) { return std::max<size_t>(16, n + n / 3 + 1); }
  // A key's first slot in the layout for every rank count, of `slots` slots.
  static uint64_t global_home(uint64_t stored, uint64_t slots) { return ((stored & 0xFFFFFFFF) * slots) >> 32; }
  // That layout of (key as stored, value) pairs in ascending order of
  // global_home, distinct keys: slots_for(n) slots and as many more as the
  // last keys spill into, then an empty one (past every key's home).
  static std::vector<Slot> global_layout(const std::vector<std::pair<uint64_t, Value>>& sorted) {
    const uint64_t slots = slots_for(sorted.size());
    std::vector<Slot> out(slots);
    size_t next = 0;
    for (const auto& [k, v] : sorted) {
      const size_t at = std::max<size_t>(next, global_home(k, slots));
      if (at >= out.size()) out.resize(at + 1);
      out[at] = Slot{k, v};
      next = at + 1;
    }
    if (out.size() == slots || out.back().key != 0) out.emplace_back();
    return out;
  }
  // Slots [first, first + window.size()) of a global layout of `slots`
  // slots (its first slots_for(n)).
  void assign_window(std::vector<Slot> window, uint64_t slots, uint64_t first) {
    if (slots > kMostSlots || window.empty()) throw std::invalid_argument("a hash directory window of the wrong size");
    slots_ = std::move(window);
    shift_ = 0;
    scale_ = slots;
    base_ = first;
  }
  // Adds h -> v (one of at most the n keys reset made room for); a key
  // already there keeps its value.
  void insert(uint64_t h, const Value& v) {
    const uint64_t k = stored_key(h);
    for (size_t i = home(k);; i = next(i)) {
      if (slots_[i].key == 0) {
        slots_[i] = Slot{k, v};
        return;
      }
      if (slots_[i].key == k) return;
    }
  }
  // h's value, or nullptr.
  const Value* find(uint64_t h) const {
    if (slots_.empty()) return nullptr;
    const uint64_t k = stored_key(h);
    for (size_t i = home(k);; i = next(i)) {
      const Slot& s = slots_[i];
      if (s.key == k) return &s.value;
      if (s.key == 0) return nullptr;
    }
  }
  void prefetch(uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(stored_key(h))]);
  }
  // A hash as the slots keep it.
  static uint64_t stored_key(uint64_t h) { return h ? h : 1; }
  // f(key as stored, value) for every key held.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.key != 0) f(s.key, s.value);
  }
  size_t bytes() const { return slots_.size() * sizeof(Slot); }

  const std::vector<Slot>& slots() const { return slots_; }

 private:
  static constexpr size_t kMostSlots = size_t{1} << 32;  // (home's product stays in 64 bits)
  void own_layout() {
    shift_ = 32;
    scale_ = slots_.size();
    base_ = 0;
  }
  // (slots_ not empty) The key's top 32 bits scaled to the slots, or in a
  // window its low 32 bits scaled to the global layout's.
  size_t home(uint64_t k) const { return static_cast<size_t>(((((k >> shift_) & 0xFFFFFFFF) * scale_) >> 32) - base_); }
  size_t next(size_t i) const { return i + 1 == slots_.size() ? 0 : i + 1; }
  std::vector<Slot> slots_;
  unsigned shift_ = 32;
  uint64_t scale_ = 0, base_ = 0;
};

// A map from 64-bit hashes to ranges [begin, end) of an array.
class HashDirectory {
 public:
  using Range = std::pair<uint32_t, uint32_t>;
  // keys[g] maps to [starts[g], starts[g + 1]).
  void build(const std::vector<uint64_t>& distinct_keys, const std::vector<uint32_t>& starts);
  // The range of h, or an empty one.
  Range find(uint64_t h) const {
    const Bounds* b = slots_.find(h);
    return b ? Range{b->begin - base_, b->end - base_} : Range{0, 0};
  }
  void prefetch(uint64_t h) const { slots_.prefetch(h); }
  size_t bytes() const { return slots_.bytes(); }

  struct Bounds {
    uint32_t begin = 0, end = 0;
  };
  using Slots = HashSlots<Bounds>;
  // A window of a global layout (HashSlots::assign_window) whose ranges
  // are into an array of which this rank holds [base, ...).
  void assign_window(std::vector<Slots::Slot> window, uint64_t slots, uint64_t first, uint32_t base) {
    slots_.assign_window(std::move(window), slots, first);
    base_ = base;
  }
  const Slots& slots() const { return slots_; }

 private:
  Slots slots_;
  uint32_t base_ = 0;
};

// Sorts (hash, value) pairs as std::sort does (by hash, then value), for
// hashes spread evenly over 64 bits: millions of them go first by their
// top bits into runs of a few dozen (a counting sort, two passes), and each
// run is sorted alone (by the rank's OpenMP threads). Comparison sorts of
// the delete tables were most of an index build.
template <class Value>
void sort_by_spread_hash(std::vector<std::pair<uint64_t, Value>>& pairs) {
  using Pair = std::pair<uint64_t, Value>;
  const size_t n = pairs.size();
  constexpr size_t kFewest = size_t{1} << 16;  // below this, one sort
  if (n < kFewest) {
    std::sort(pairs.begin(), pairs.end());
    return;
  }
  const int bits = std::clamp(static_cast<int>(std::bit_width(n / 32)), 8, 22);  // runs of about 32
  const int shift = 64 - bits;
  std::vector<size_t> end(size_t{1} << bits, 0);
  for (const Pair& x : pairs) ++end[x.first >> shift];
  size_t sum = 0;
  for (size_t& e : end) e = sum += e;  // counts -> ends
  std::vector<Pair> out(n);
  for (size_t i = n; i-- > 0;) out[--end[pairs[i].first >> shift]] = pairs[i];  // end[b] becomes b's start
  pairs.swap(out);
  const auto runs = static_cast<std::ptrdiff_t>(end.size());
#pragma omp parallel for schedule(dynamic, 256)
  for (std::ptrdiff_t b = 0; b < runs; ++b) {
    const size_t first = end[static_cast<size_t>(b)];
    const size_t last = b + 1 < runs ? end[static_cast<size_t>(b) + 1] : n;
    std::sort(pairs.begin() + static_cast<std::ptrdiff_t>(first), pairs.begin() + static_cast<std::ptrdiff_t>(last));
  }
}

}  // namespace spellcheck
