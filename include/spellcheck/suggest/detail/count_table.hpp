#pragma once
// Counts by 64-bit hash: open addressing, linear probing, at most half full,
// doubling. Hash 0 is stored as 1 (keys are hashes: a collision of two
// counted keys merges their counts, as the pair counts accept).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace spellcheck::detail {

class CountTable {
 public:
  explicit CountTable(size_t expected = 1024) { reset(expected); }

  void reset(size_t expected) {
    size_t n = 16;
    shift_ = 60;
    while (n < 2 * expected) {
      n *= 2;
      --shift_;
    }
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    size_ = 0;
  }
  void prefetch(uint64_t key) const { __builtin_prefetch(&slots_[home(stored(key))]); }
  void add(uint64_t key, uint64_t n) {
    const uint64_t k = stored(key);
    size_t i = home(k);
    while (slots_[i].key != 0 && slots_[i].key != k) i = (i + 1) & mask_;
    if (slots_[i].key == 0) {
      if (2 * (size_ + 1) > slots_.size()) {
        grow();
        return add(key, n);
      }
      slots_[i].key = k;
      ++size_;
    }
    slots_[i].count += n;
  }
  uint64_t count(uint64_t key) const {
    const uint64_t k = stored(key);
    for (size_t i = home(k);; i = (i + 1) & mask_) {
      if (slots_[i].key == k) return slots_[i].count;
      if (slots_[i].key == 0) return 0;
    }
  }
  size_t size() const { return size_; }
  size_t bytes() const { return slots_.size() * sizeof(Slot); }
  // fn(key as stored, count) for every key.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (const Slot& s : slots_)
      if (s.key != 0) fn(s.key, s.count);
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint64_t count = 0;
  };
  static uint64_t stored(uint64_t key) { return key == 0 ? 1 : key; }
  // Fibonacci hashing: every bit of the key counts (an owner's keys share
  // their low bits, owner_of).
  size_t home(uint64_t k) const { return static_cast<size_t>((k * 0x9E3779B97F4A7C15ULL) >> shift_); }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    reset(old.size());
    for (const Slot& s : old)
      if (s.key != 0) add(s.key, s.count);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 60;
  size_t size_ = 0;
};

}  // namespace spellcheck::detail
