// The word table of document mode: the distinct words of what one thread
// (or one merge partition) tokenized, with their counts and first
// positions. Header-only: the token loop inlines add() (a call cost a tenth
// of the ingest time). Used by document_reader.cpp; tested on its own in
// tests/input/word_table_test.cpp against std::unordered_map.
#pragma once

#include <sys/mman.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spellcheck/common/huge_pages.hpp"
#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

// Page faults are costly (more so in some VMs): with --huge-pages on, big
// arrays ask for transparent huge pages, 512 times fewer faults.
constexpr size_t kHugePageBytes = size_t{2} << 20;

// Hints huge pages for the 2 MiB-aligned part of [p, p + bytes), before the
// memory is first touched.
inline void hint_huge_pages(void* p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (!huge_pages()) return;
  const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePageBytes - 1);
  if (e > b) ::madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// Zero-filled array: calloc when small; when big, a 2 MiB-aligned anonymous
// mapping on huge pages (the word tables are probed at random: fewer TLB
// misses too).
template <class T>
class ZeroArray {
 public:
  ZeroArray() = default;
  explicit ZeroArray(size_t n) : n_(n) {
    if (n == 0) return;
    bytes_ = n * sizeof(T);
    if (bytes_ < kHugePageBytes) {
      p_ = static_cast<T*>(std::calloc(n, sizeof(T)));
      if (!p_) throw std::bad_alloc();
      return;
    }
    bytes_ = (bytes_ + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    void* m = ::mmap(nullptr, bytes_ + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t raw = reinterpret_cast<uintptr_t>(m);
    const uintptr_t aligned = (raw + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    if (aligned > raw) ::munmap(m, aligned - raw);
    if (raw + kHugePageBytes > aligned)
      ::munmap(reinterpret_cast<void*>(aligned + bytes_), raw + kHugePageBytes - aligned);
    hint_huge_pages(reinterpret_cast<void*>(aligned), bytes_);
    p_ = reinterpret_cast<T*>(aligned);
    mapped_ = true;
  }
  ~ZeroArray() { release(); }
  ZeroArray(ZeroArray&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)),
        n_(std::exchange(o.n_, 0)),
        bytes_(std::exchange(o.bytes_, 0)),
        mapped_(std::exchange(o.mapped_, false)) {}
  ZeroArray& operator=(ZeroArray&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      bytes_ = std::exchange(o.bytes_, 0);
      mapped_ = std::exchange(o.mapped_, false);
    }
    return *this;
  }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  size_t size() const { return n_; }

 private:
  void release() {
    if (p_) {
      if (mapped_) ::munmap(p_, bytes_);
      else std::free(p_);
    }
    p_ = nullptr;
  }
  T* p_ = nullptr;
  size_t n_ = 0;
  size_t bytes_ = 0;
  bool mapped_ = false;
};

static_assert(std::endian::native == std::endian::little, "WordKey packs words little-endian");

inline uint64_t load_le64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// The table's own hash: one 64 x 64 -> 128-bit multiply, folded (wyhash's
// "mum"), for words of at most 16 bytes (all but a few in ten thousand
// tokens); word_hash (for routing) is computed once per distinct word on
// output. A factor is zero only for bytes that are no UTF-8 word (0xBD
// after 'd', 0x7E after 0xD1): no token makes the product degenerate.
inline uint64_t word_table_hash(uint64_t w0, uint64_t w1, uint64_t len) {
  const unsigned __int128 m =
      static_cast<unsigned __int128>(w0 ^ 0xA0761D6478BD642FULL) * (w1 ^ len ^ 0xE7037ED1A0B428DBULL);
  return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
}

// A word as the table keys it. Words of at most 16 bytes are their bytes as
// two little-endian integers, zero padded (tokens hold no NUL byte); longer
// ones are compared by bytes, w1 = len | low 32 hash bits << 32 as a filter.
constexpr uint64_t kInlineWordBytes = 16;
constexpr uint64_t kLongWordTag = kInlineWordBytes + 1;  // the length byte of a longer word

struct WordKey {
  uint64_t w0, w1;
  uint64_t h;     // table hash
  const char* p;  // the bytes (long words: valid while the key is used)
  uint64_t len;
  uint64_t tag() const { return len <= kInlineWordBytes ? len : kLongWordTag; }
};

inline WordKey long_key(const char* p, size_t len) {
  const uint64_t h = XXH3_64bits(p, len);
  return {0, len | (h << 32), h, p, len};
}

// The masks that keep the first n bytes of a 16-byte little-endian load
// (n <= 16): lo for bytes 0-7, hi for bytes 8-15.
struct InlineWordMasks {
  uint64_t lo[kInlineWordBytes + 1], hi[kInlineWordBytes + 1];
};
constexpr InlineWordMasks make_inline_word_masks() {
  InlineWordMasks m{};
  for (uint64_t n = 0; n <= kInlineWordBytes; ++n) {
    m.lo[n] = n >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * n)) - 1;
    m.hi[n] = n <= 8 ? 0 : n == 16 ? ~uint64_t{0} : (uint64_t{1} << (8 * (n - 8))) - 1;
  }
  return m;
}
inline constexpr InlineWordMasks kInlineWordMasks = make_inline_word_masks();

// p[0, 16) must be readable (bytes past the word are masked off): no
// branch on the length but the one for long words (short and longer words
// alternate at random in text: a branch between them mispredicts often).
inline WordKey key_padded(const char* p, size_t len) {
  if (len > kInlineWordBytes) [[unlikely]]
    return long_key(p, len);
  const uint64_t w0 = load_le64(p) & kInlineWordMasks.lo[len];
  const uint64_t w1 = load_le64(p + 8) & kInlineWordMasks.hi[len];
  return {w0, w1, word_table_hash(w0, w1, len), p, len};
}

// Any word (reads only its bytes).
inline WordKey key_of(std::string_view w) {
  if (w.size() > kInlineWordBytes) return long_key(w.data(), w.size());
  char b[16] = {};
  std::memcpy(b, w.data(), w.size());
  WordKey k = key_padded(b, w.size());
  k.p = w.data();
  return k;
}

// Distinct words: open addressing, linear probing, 32-byte slots holding
// the counters and, for words of at most 16 bytes, the word itself, so a
// lookup touches one cache line. Longer words live in an arena. The home
// slot comes from the top hash bits (after skipping `skip` bits), so the
// slots are (nearly) in hash order and a range of top bits is a range of
// slots: the merge takes partitions without sorting.
class WordTable {
 public:
  struct Slot {
    uint64_t w0, w1;  // WordKey's; long words: w0 = offset in the arena
    uint64_t first;   // smallest position seen
    uint64_t cl;      // count (56 bits) << 8 | kUncounted | kSorted | WordKey::tag(); 0: empty slot
  };
  static_assert(sizeof(Slot) == 32);
  // The low byte of Slot::cl: the tag (at most kLongWordTag), and a flag
  // of documents' counting (add_in_document), kept in the slot so that a
  // word not counted costs no other memory access.
  static constexpr uint64_t kTagBits = 0x1F;
  static constexpr uint64_t kUncounted = 0x80;  // not counted per document (a known word)
  static constexpr uint64_t kSorted = 0x40;     // end_document's known() has passed it
  static_assert(kLongWordTag <= kTagBits);

  // marks: keep a line mark (line_marks.hpp) per word beside its slot;
  // documents: count words per document too (add_in_document).
  explicit WordTable(size_t expected = 1024, int skip = 0, bool marks = false, bool documents = false)
      : skip_(skip), with_marks_(marks), with_docs_(documents) {
    size_t n = 64;
    while (n * 7 < expected * 10) n <<= 1;
    resize(n);
  }

  // The slot holding k, or the empty slot where it belongs.
  Slot& probe(const WordKey& k) {
    const uint64_t tag = k.tag();
    size_t i = home(k.h);
    for (;;) {
      Slot& s = slots_[i];
      if (s.cl == 0) return s;
      if (s.w1 == k.w1 && (s.cl & kTagBits) == tag &&
          (tag != kLongWordTag ? s.w0 == k.w0 : std::memcmp(arena_.data() + s.w0, k.p, k.len) == 0))
        return s;
      i = (i + 1) & mask_;
    }
  }

  // Counts `count` occurrences of k, the first at pos. Inlined into the
  // token loop (a call cost a tenth of the ingest time); a new word takes
  // the out-of-line path. Returns the word's slot when pos became its first
  // position (a new word, or an earlier position), else nullptr.
  [[gnu::always_inline]] Slot* add(const WordKey& k, uint64_t pos, uint64_t count = 1) {
    Slot& s = probe(k);
    if (s.cl != 0) [[likely]]
      return bump(s, pos, count);
    return add_new(s, k, pos, count);
  }

  // A word's occurrences in the current document (--per-document), beside
  // its slot.
  struct DocCount {
    uint32_t doc;    // the document count is for (0: none yet)
    uint32_t count;  // occurrences in it, modulo count_limit_ (carried_)
  };
  static_assert(sizeof(DocCount) == 8);

  // add(), also counting k in the current document (tables made with
  // documents only), unless end_document found it known (kUncounted).
  [[gnu::always_inline]] Slot* add_in_document(const WordKey& k, uint64_t pos) {
    Slot& s = probe(k);
    Slot* first;
    size_t i;
    if (s.cl != 0) [[likely]] {
      first = bump(s, pos, 1);
      i = static_cast<size_t>(&s - &slots_[0]);
    } else {
      first = add_new(s, k, pos, 1);  // may move the slots
      i = static_cast<size_t>(first - &slots_[0]);
    }
    if (slots_[i].cl & kUncounted) return first;
    DocCount& d = docs_[i];
    if (d.doc == doc_) {
      if (++d.count == count_limit_) [[unlikely]]
        carry(i);
    } else {
      d.doc = doc_;
      d.count = 1;
      touched_.push_back(i);
    }
    return first;
  }
  // Starts counting a new document (its words' counts start at zero).
  void start_document() {
    touched_.clear();
    carried_.clear();
    if (++doc_ != 0) [[likely]]
      return;
    // 2^32 documents later: no slot may keep a stale number.
    for (size_t i = 0; i < docs_.size(); ++i) docs_[i].doc = 0;
    doc_ = 1;
  }
  // fn(word, count) for every word of the current document, once, but
  // those known: known(words, n, out) sets out[j] for each of n words seen
  // for the first time, true for a word never to be counted again (a word
  // of the dictionary: known_words.hpp); in one batch, so that its lookups
  // overlap. Then counts a new document.
  template <class Known, class F>
  void end_document(Known&& known, F&& fn) {
    sort_out(known);
    for (const size_t i : touched_) {
      if (slots_[i].cl & kUncounted) continue;
      const std::string_view w = word_of(slots_[i]);
      uint64_t n = docs_[i].count;
      for (const std::string& c : carried_) n += c == w ? count_limit_ : 0;
      fn(w, n);
    }
    start_document();
  }
  // The slot holding k, nullptr if none.
  const Slot* find(const WordKey& k) const {
    const Slot& s = const_cast<WordTable*>(this)->probe(k);
    return s.cl != 0 ? &s : nullptr;
  }
  bool with_documents() const { return with_docs_; }
  // Tests: per-document counts wrap at `limit` (carried, as at 2^32 - 1).
  void set_count_limit(uint32_t limit) { count_limit_ = limit; }

  // The line mark of the word in slot s (tables made with marks only).
  void set_mark(const Slot* s, uint64_t mark) { marks_[static_cast<size_t>(s - &slots_[0])] = mark; }
  uint64_t mark_of(const Slot& s) const { return with_marks_ ? marks_[static_cast<size_t>(&s - &slots_[0])] : 0; }
  bool with_marks() const { return with_marks_; }

  void prefetch(uint64_t h) const {
    const size_t i = home(h);
    __builtin_prefetch(&slots_[i], 1);
    if (with_docs_) __builtin_prefetch(&docs_[i], 1);  // a second cache line a token
  }

  size_t size() const { return size_; }
  size_t word_bytes() const { return word_bytes_; }

  // fn(word, slot) for every word.
  template <class F>
  void for_each(F&& fn) const {
    for (size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].cl != 0) fn(word_of(slots_[i]), slots_[i]);
  }

  // fn(key, slot) for the words whose top `bits` hash bits are k (skip ==
  // 0): their home slots are [k, k+1) * n / 2^bits; displaced ones follow in
  // the same run of full slots.
  template <class F>
  void for_each_in_part(size_t k, int bits, F&& fn) const {
    const size_t n = slots_.size();
    const size_t begin = (k * n) >> bits, end = ((k + 1) * n) >> bits;  // n may be < 2^bits
    for (size_t j = begin;; ++j) {
      const Slot& s = slots_[j & mask_];
      if (j >= end && (s.cl == 0 || j >= begin + n)) break;
      if (s.cl == 0) continue;
      const WordKey key = key_of_slot(s);
      if ((key.h >> (64 - bits)) == k) fn(key, s);
    }
  }

  std::string_view word_of(const Slot& s) const {
    const uint64_t tag = s.cl & kTagBits;
    if (tag == kLongWordTag) return std::string_view(arena_).substr(s.w0, static_cast<uint32_t>(s.w1));
    return std::string_view(reinterpret_cast<const char*>(&s.w0), tag);  // w0, w1: 16 bytes in a row
  }

  static uint64_t count_of(const Slot& s) { return s.cl >> 8; }

 private:
  size_t home(uint64_t h) const { return static_cast<size_t>((h << skip_) >> shift_); }

  Slot* bump(Slot& s, uint64_t pos, uint64_t count) {
    total_ += count;
    s.cl += count << 8;
    if (pos >= s.first) [[likely]]
      return nullptr;
    s.first = pos;
    return &s;
  }

  [[gnu::noinline]] Slot* add_new(Slot& s, const WordKey& k, uint64_t pos, uint64_t count) {
    insert(s, k, pos, count);
    if (size_ * 10 > slots_.size() * 7) return grow(k);
    return &s;
  }

  void insert(Slot& s, const WordKey& k, uint64_t pos, uint64_t count) {
    if (k.len > UINT32_MAX) throw std::length_error("document reader: word too long");
    if (with_docs_) docs_[static_cast<size_t>(&s - &slots_[0])] = {0, 0};
    s.w1 = k.w1;
    s.first = pos;
    s.cl = count << 8 | k.tag();
    total_ += count;
    if (k.len <= kInlineWordBytes) {
      s.w0 = k.w0;
    } else {
      s.w0 = arena_.size();
      arena_.append(k.p, k.len);
    }
    ++size_;
    word_bytes_ += k.len;
  }

  [[gnu::noinline]] void carry(size_t i) {
    docs_[i].count = 0;
    carried_.emplace_back(word_of(slots_[i]));
  }

  // end_document's known() on the current document's new words.
  template <class Known>
  void sort_out(Known&& known) {
    fresh_.clear();
    fresh_words_.clear();
    for (const size_t i : touched_)
      if (!(slots_[i].cl & kSorted)) {
        fresh_.push_back(i);
        fresh_words_.push_back(word_of(slots_[i]));
      }
    if (fresh_.empty()) return;
    fresh_known_.assign(fresh_.size(), 0);
    known(fresh_words_.data(), fresh_words_.size(), fresh_known_.data());
    for (size_t j = 0; j < fresh_.size(); ++j) {
      slots_[fresh_[j]].cl |= kSorted;
      if (fresh_known_[j]) slots_[fresh_[j]].cl |= kUncounted;
    }
  }

  // The key of a stored word (its hash recomputed).
  WordKey key_of_slot(const Slot& s) const {
    const uint64_t tag = s.cl & kTagBits;
    if (tag == kLongWordTag) return long_key(arena_.data() + s.w0, static_cast<uint32_t>(s.w1));
    return {s.w0, s.w1, word_table_hash(s.w0, s.w1, tag), reinterpret_cast<const char*>(&s.w0), tag};
  }

  void resize(size_t n) {
    slots_ = ZeroArray<Slot>(n);
    if (with_marks_) marks_ = ZeroArray<uint64_t>(n);
    if (with_docs_) docs_ = ZeroArray<DocCount>(n);
    mask_ = n - 1;
    shift_ = 64 - std::countr_zero(n);
  }

  // Frequent words are moved first, so that they keep their home slots
  // (reinserting in slot order would scatter them down the probe runs).
  // Returns the new slot of `added` (the word just inserted).
  Slot* grow(const WordKey& added) {
    ZeroArray<Slot> old = std::move(slots_);
    ZeroArray<uint64_t> old_marks = std::move(marks_);
    ZeroArray<DocCount> old_docs = std::move(docs_);
    resize(old.size() * 2);
    touched_.clear();  // the current document's words, at their new slots
    const uint64_t mean = size_ ? (total_ / size_) << 8 : 0;
    for (const uint64_t min_cl : {mean * 16, mean, uint64_t{0}}) {
      for (size_t k = 0; k < old.size(); ++k) {
        Slot& s = old[k];
        if (s.cl == 0 || s.cl < min_cl) continue;
        size_t i = home(key_of_slot(s).h);
        while (slots_[i].cl != 0) i = (i + 1) & mask_;
        slots_[i] = s;
        if (with_marks_) marks_[i] = old_marks[k];
        if (with_docs_) {
          docs_[i] = old_docs[k];
          if (docs_[i].doc == doc_) touched_.push_back(i);
        }
        s.cl = 0;
      }
    }
    return &probe(added);
  }

  ZeroArray<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  int skip_ = 0;
  bool with_marks_ = false;
  ZeroArray<uint64_t> marks_;  // with_marks_: marks_[i] belongs to slots_[i]
  bool with_docs_ = false;
  ZeroArray<DocCount> docs_;     // with_docs_: docs_[i] belongs to slots_[i]
  uint32_t doc_ = 1;             // the current document
  std::vector<size_t> touched_;  // slots of its words
  // A count that reached count_limit_ starts again from 0, its word noted
  // here (so DocCount stays 8 bytes): a tests' knob (set_count_limit).
  uint32_t count_limit_ = UINT32_MAX;
  std::vector<std::string> carried_;
  std::vector<size_t> fresh_;  // sort_out's: slots, words and verdicts
  std::vector<std::string_view> fresh_words_;
  std::vector<uint8_t> fresh_known_;
  size_t size_ = 0;
  size_t word_bytes_ = 0;
  uint64_t total_ = 0;  // occurrences counted
  std::string arena_;
};

}  // namespace spellcheck
