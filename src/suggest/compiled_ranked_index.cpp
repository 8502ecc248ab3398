// The ranked index in a compiled file (`spellcheck compile`): one section,
// after the dictionary's parts (compiled_dictionary.hpp), that a run on any
// number of ranks p <= B reads its part of without building anything.
//
// compile builds the whole index on one rank with its buckets in the order
// of B = 2^bucket_bits buckets of their prefix hash, so that its arrays,
// numbered over the whole dictionary, are every rank count's arrays one
// after another: on p ranks, rank r owns the buckets Ownership gives it (a
// contiguous range [c0, c1)), and its groups and entries are those of its
// buckets. The hash tables are laid out for every rank count at once
// (HashSlots::global_layout: keys by their low 32 bits); rank r reads the
// window of slots its keys can reach, and the list postings those slots
// point to.
//
// Layout (little-endian, from the section's start):
//   header   magic "spellcheck-rank\n", format, the index parameters and
//            the frequency list's digest (a run must match them), counts,
//            each table's global slot count, the bulk's array offsets
//   meta     per bucket boundary (B + 1 each): first group, first entry;
//            per table: the first empty slot from the boundary's home slot
//            on, the list postings before that home, and through that
//            empty slot; then a digest per 64 KiB chunk of the bulk
//   bulk     the arrays (SectionArray), each 8-byte aligned
// The header and meta are checked against the header's digest, everything
// a rank reads of the bulk against its chunks' digests.
#include <xxhash.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/suggest/ranked_lookup.hpp"

namespace spellcheck {

namespace {

constexpr char kRankedMagic[16] = {'s', 'p', 'e', 'l', 'l', 'c', 'h', 'e', 'c', 'k', '-', 'r', 'a', 'n', 'k', '\n'};
constexpr uint32_t kRankedFormat = 1;
constexpr uint64_t kChunkBytes = 64 * 1024;

enum SectionArray : size_t {
  kGroupKey,       // u64 per group: its prefix hash
  kGroupStart,     // u32 per group and one more: its first entry
  kSpellStarts,    // u64 per entry and one more: where its spelling starts
  kSpellBytes,     // the spellings, '\n'-terminated
  kSoundStarts,    // as kSpellStarts, of the phonetic keys
  kSoundBytes,     //
  kFoldedStart,    // u32 per entry and one more: its first folded code point
  kFolded,         // the folded code points
  kCapital,        // u8 per entry
  kFrequency,      // u64 per entry
  kBucketSlots,    // the prefix directory's global layout (16-byte slots)
  kAllSlots,       // the table of every bucket's deletes
  kAllLists,       // its list postings, in slot order
  kFrequentSlots,  // the table of frequent buckets' deletes
  kFrequentLists,  //
  kSoundSlots,     // the sound-key deletes' directory
  kSoundPostings,  // its postings (SoundPosting), in slot order
  kDeleteFilter,   // the delete filter's words
  kArrays
};

enum SectionTable : size_t { kBucketTable, kAllTable, kFrequentTable, kSoundTable, kTables };

struct SectionHeader {
  char magic[16];
  uint32_t format;
  uint32_t bucket_bits;
  int32_t max_distance, sound_distance, rare_distance, rare_in_force;
  uint64_t prefix_length, far_min_count, sound_min_count, frequency_digest;
  uint64_t groups, entries;
  uint64_t table_slots[kTables];   // each table's slots_for(keys): what homes scale to
  uint64_t array_at[kArrays + 1];  // within the bulk; the last is its size
  uint64_t meta_bytes;
  uint64_t meta_digest;  // of the meta, seeded with the fields before it
};

uint64_t header_digest(const SectionHeader& h, std::string_view meta) {
  return XXH3_64bits_withSeed(meta.data(), meta.size(), XXH3_64bits(&h, offsetof(SectionHeader, meta_digest)));
}

// The slot that keys of bucket c (of 2^bits) start from in a layout of
// `slots` (the end for c = 2^bits).
uint64_t bucket_home(uint64_t c, unsigned bits, uint64_t slots) {
  if (c >= (uint64_t{1} << bits)) return slots;
  return ((c << (32 - bits)) * slots) >> 32;
}

// The buckets rank of ranks owns under Ownership: [c0, c1).
std::pair<uint64_t, uint64_t> owned_range(int rank, int ranks, unsigned bits) {
  const uint64_t b = uint64_t{1} << bits, p = static_cast<uint64_t>(ranks), r = static_cast<uint64_t>(rank);
  return {(r * b + p - 1) / p, ((r + 1) * b + p - 1) / p};
}

// What meta holds of one table, per bucket boundary.
struct TableBounds {
  std::vector<uint64_t> run_end, refs_before, refs_through;
};

// A table's per-boundary figures from its global layout: refs(slot) is
// how many list postings a slot points to.
template <class Slot, class Refs>
TableBounds table_bounds(const std::vector<Slot>& slots, uint64_t home_slots, unsigned bits, Refs refs) {
  const size_t n = slots.size();
  std::vector<uint64_t> before(n + 1, 0), next_empty(n + 1, n);
  for (size_t i = 0; i < n; ++i) before[i + 1] = before[i] + refs(slots[i]);
  for (size_t i = n; i-- > 0;) next_empty[i] = slots[i].key == 0 ? i : next_empty[i + 1];
  const uint64_t boundaries = (uint64_t{1} << bits) + 1;
  TableBounds t;
  for (uint64_t c = 0; c < boundaries; ++c) {
    const uint64_t home = bucket_home(c, bits, home_slots);
    t.run_end.push_back(next_empty[home]);
    t.refs_before.push_back(before[home]);
    t.refs_through.push_back(before[next_empty[home] + 1]);
  }
  return t;
}

// Pairs (key as stored, value) in the order of their keys' low 32 bits.
template <class Value>
void sort_by_low_bits(std::vector<std::pair<uint64_t, Value>>& pairs) {
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
    const auto la = static_cast<uint32_t>(a.first), lb = static_cast<uint32_t>(b.first);
    return la != lb ? la < lb : a.first < b.first;
  });
}

class BulkWriter {
 public:
  template <class T>
  void array(SectionArray a, const T* data, size_t n) {
    at_[a] = bytes_.size();
    bytes_.append(reinterpret_cast<const char*>(data), n * sizeof(T));
    bytes_.resize((bytes_.size() + 7) / 8 * 8, '\0');
  }
  template <class T>
  void array(SectionArray a, const std::vector<T>& v) {
    array(a, v.data(), v.size());
  }
  // The starts of a word list's words, and one past its last.
  void starts(SectionArray a, const WordList& w) {
    std::vector<uint64_t> s = w.starts;
    s.push_back(w.bytes.size());
    array(a, s);
  }
  std::string take(uint64_t (&array_at)[kArrays + 1]) {
    for (size_t a = 0; a < kArrays; ++a) array_at[a] = at_[a];
    array_at[kArrays] = bytes_.size();
    return std::move(bytes_);
  }

 private:
  std::string bytes_;
  std::array<uint64_t, kArrays> at_{};
};

// Reads the bulk's arrays, each byte checked against its chunk's digest.
class BulkReader {
 public:
  BulkReader(const CompiledSection& s, const SectionHeader& h, uint64_t bulk_at, std::vector<uint64_t> digests)
      : s_(s), h_(h), bulk_at_(bulk_at), digests_(std::move(digests)) {}

  // Elements [first, first + count) of array a.
  template <class T>
  std::vector<T> slice(SectionArray a, uint64_t first, uint64_t count) const {
    std::vector<T> out(count);
    slice_into(a, first, count, out.data());
    return out;
  }
  // The same into dest (room for count).
  template <class T>
  void slice_into(SectionArray a, uint64_t first, uint64_t count, T* dest) const {
    const uint64_t room = (h_.array_at[a + 1] - h_.array_at[a]) / sizeof(T);
    if (first > room || count > room - first) damaged("an array's part");
    read_checked(h_.array_at[a] + first * sizeof(T), count * sizeof(T), reinterpret_cast<char*>(dest));
  }

  [[noreturn]] void damaged(const std::string& what) const {
    throw InputError(s_.name + ": a damaged compiled dictionary (its ranked index: " + what + "); compile it again");
  }

 private:
  void read_checked(uint64_t at, size_t n, char* dest) const {
    if (n == 0) return;
    const uint64_t bulk = h_.array_at[kArrays];
    if (!s_.read(bulk_at_ + at, n, dest)) throw InputError(s_.name + ": a truncated compiled dictionary");
    std::string edge;
    for (uint64_t k = at / kChunkBytes; k <= (at + n - 1) / kChunkBytes; ++k) {
      const uint64_t lo = k * kChunkBytes, hi = std::min(bulk, lo + kChunkBytes);
      uint64_t digest = 0;
      if (lo >= at && hi <= at + n) {
        digest = XXH3_64bits(dest + (lo - at), hi - lo);
      } else {  // a chunk the part begins or ends in: read whole
        edge.resize(hi - lo);
        if (!s_.read(bulk_at_ + lo, edge.size(), edge.data()))
          throw InputError(s_.name + ": a truncated compiled dictionary");
        digest = XXH3_64bits(edge.data(), edge.size());
        const uint64_t from = std::max(lo, at), to = std::min(hi, at + n);
        std::memcpy(dest + (from - at), edge.data() + (from - lo), to - from);
      }
      if (k >= digests_.size() || digest != digests_[k]) damaged("chunk " + std::to_string(k) + "'s digest differs");
    }
  }

  const CompiledSection& s_;
  const SectionHeader& h_;
  uint64_t bulk_at_;
  std::vector<uint64_t> digests_;
};

// A word list from its part of the starts (count + 1 of them) and bytes.
WordList word_list_part(const BulkReader& r, SectionArray starts_array, SectionArray bytes_array, uint64_t first,
                        uint64_t count) {
  std::vector<uint64_t> starts = r.slice<uint64_t>(starts_array, first, count + 1);
  for (size_t i = 0; i < count; ++i)
    if (starts[i] >= starts[i + 1]) r.damaged("a word's bounds");
  WordList w;
  const uint64_t base = starts[0];
  w.bytes.resize(starts[count] - base);
  r.slice_into(bytes_array, base, w.bytes.size(), w.bytes.data());
  for (size_t i = 0; i < count; ++i) {
    if (w.bytes[starts[i + 1] - base - 1] != '\n') r.damaged("a word's end");
    starts[i] -= base;
  }
  starts.pop_back();
  w.starts = std::move(starts);
  return w;
}

// The global layouts of the tables, their list postings in slot order.
struct Layouts {
  std::vector<HashDirectory::Slots::Slot> buckets, sounds;
  std::vector<DeleteTable::Slots::Slot> all, frequent;
  std::vector<uint64_t> all_lists, frequent_lists;
  std::vector<SoundPosting> sound_postings;
};

std::vector<HashDirectory::Slots::Slot> bucket_layout(const HashDirectory& d, uint64_t& home_slots) {
  std::vector<std::pair<uint64_t, HashDirectory::Bounds>> pairs;
  d.slots().for_each([&](uint64_t k, HashDirectory::Bounds v) { pairs.emplace_back(k, v); });
  sort_by_low_bits(pairs);
  home_slots = HashDirectory::Slots::slots_for(pairs.size());
  return HashDirectory::Slots::global_layout(pairs);
}

std::vector<DeleteTable::Slots::Slot> delete_layout(const DeleteTable& t, uint64_t& home_slots,
                                                    std::vector<uint64_t>& lists) {
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  t.slots().for_each([&](uint64_t k, uint64_t v) { pairs.emplace_back(k, v); });
  sort_by_low_bits(pairs);
  for (auto& [k, v] : pairs) {
    if ((v & DeleteTable::kList) == 0) continue;
    const uint64_t n = (v & ~DeleteTable::kList) >> 32;
    const uint64_t* first = t.lists().data() + static_cast<uint32_t>(v);
    v = DeleteTable::kList | (n << 32) | lists.size();
    lists.insert(lists.end(), first, first + n);
  }
  if (lists.size() > UINT32_MAX) throw std::length_error("compile: over 2^32 list postings in the ranked index");
  home_slots = DeleteTable::Slots::slots_for(pairs.size());
  return DeleteTable::Slots::global_layout(pairs);
}

std::vector<HashDirectory::Slots::Slot> sound_layout(const SoundTable& t, uint64_t& home_slots,
                                                     std::vector<SoundPosting>& postings) {
  using Run = std::pair<const SoundPosting*, const SoundPosting*>;
  std::vector<std::pair<uint64_t, Run>> runs;
  t.for_each([&](uint64_t k, const SoundPosting* first, const SoundPosting* last) {
    runs.emplace_back(k, Run{first, last});
  });
  sort_by_low_bits(runs);
  std::vector<std::pair<uint64_t, HashDirectory::Bounds>> pairs;
  for (const auto& [k, run] : runs) {
    HashDirectory::Bounds v;
    v.begin = static_cast<uint32_t>(postings.size());
    postings.insert(postings.end(), run.first, run.second);
    v.end = static_cast<uint32_t>(postings.size());
    pairs.emplace_back(k, v);
  }
  if (postings.size() > UINT32_MAX) throw std::length_error("compile: over 2^32 sound postings in the ranked index");
  home_slots = HashDirectory::Slots::slots_for(pairs.size());
  return HashDirectory::Slots::global_layout(pairs);
}

// Per bucket boundary (2^bits + 1): the first group of the bucket, and its
// first entry.
void bucket_firsts(const PrefixBuckets& b, unsigned bits, std::vector<uint64_t>& group_first,
                   std::vector<uint64_t>& entry_first) {
  const uint64_t boundaries = (uint64_t{1} << bits) + 1;
  size_t g = 0;
  for (uint64_t c = 0; c < boundaries; ++c) {
    const uint64_t low = c << (32 - bits);  // bucket c's first low 32 bits
    while (g < b.buckets() && (c + 1 == boundaries || static_cast<uint32_t>(b.group_key(g)) < low)) ++g;
    group_first.push_back(g);
    entry_first.push_back(g < b.buckets() ? b.group(g).first : b.size());
  }
}

std::string bulk_of(const PrefixBuckets& b, const Layouts& l, const BloomFilter& delete_filter,
                    uint64_t (&array_at)[kArrays + 1]) {
  BulkWriter w;
  w.array(kGroupKey, b.group_keys());
  w.array(kGroupStart, b.group_starts());
  w.starts(kSpellStarts, b.spellings());
  w.array(kSpellBytes, b.spellings().bytes.data(), b.spellings().bytes.size());
  w.starts(kSoundStarts, b.sound_keys());
  w.array(kSoundBytes, b.sound_keys().bytes.data(), b.sound_keys().bytes.size());
  w.array(kFoldedStart, b.folded_starts());
  w.array(kFolded, b.folded_points());
  w.array(kCapital, b.capitals());
  w.array(kFrequency, b.frequencies());
  w.array(kBucketSlots, l.buckets);
  w.array(kAllSlots, l.all);
  w.array(kAllLists, l.all_lists);
  w.array(kFrequentSlots, l.frequent);
  w.array(kFrequentLists, l.frequent_lists);
  w.array(kSoundSlots, l.sounds);
  w.array(kSoundPostings, l.sound_postings);
  w.array(kDeleteFilter, delete_filter.data(), delete_filter.words());
  return w.take(array_at);
}

// The meta: bucket boundaries, the tables' bounds, the chunks' digests.
std::string meta_of(const PrefixBuckets& b, const Layouts& l, const SectionHeader& h, std::string_view bulk) {
  const unsigned bits = h.bucket_bits;
  std::vector<uint64_t> group_first, entry_first;
  bucket_firsts(b, bits, group_first, entry_first);
  const auto no_refs = [](const auto&) { return uint64_t{0}; };
  const auto list_refs = [](const DeleteTable::Slots::Slot& s) {
    return (s.value & DeleteTable::kList) ? (s.value & ~DeleteTable::kList) >> 32 : 0;
  };
  const auto posting_refs = [](const HashDirectory::Slots::Slot& s) { return uint64_t{s.value.end - s.value.begin}; };
  const TableBounds bounds[kTables] = {table_bounds(l.buckets, h.table_slots[kBucketTable], bits, no_refs),
                                       table_bounds(l.all, h.table_slots[kAllTable], bits, list_refs),
                                       table_bounds(l.frequent, h.table_slots[kFrequentTable], bits, list_refs),
                                       table_bounds(l.sounds, h.table_slots[kSoundTable], bits, posting_refs)};
  std::string meta;
  wire::append_vector_le(meta, group_first);
  wire::append_vector_le(meta, entry_first);
  for (const TableBounds& t : bounds)
    for (const auto* v : {&t.run_end, &t.refs_before, &t.refs_through}) wire::append_vector_le(meta, *v);
  for (uint64_t at = 0; at < bulk.size(); at += kChunkBytes)
    wire::append_le<uint64_t>(meta, XXH3_64bits(bulk.data() + at, std::min<uint64_t>(kChunkBytes, bulk.size() - at)));
  return meta;
}

SectionHeader header_of(const RankedParams& params, unsigned bits, int rare_in_force, uint64_t frequency_digest) {
  SectionHeader h{};
  std::memcpy(h.magic, kRankedMagic, sizeof kRankedMagic);
  h.format = kRankedFormat;
  h.bucket_bits = bits;
  h.max_distance = params.deletes.max_distance;
  h.sound_distance = params.sound_distance;
  h.rare_distance = params.rare_distance;
  h.rare_in_force = rare_in_force;
  h.prefix_length = params.deletes.prefix_length;
  h.far_min_count = params.far_min_count;
  h.sound_min_count = params.sound_min_count;
  h.frequency_digest = frequency_digest;
  return h;
}

// The section's header and meta, checked; the meta as words.
SectionHeader read_header(const CompiledSection& s, std::vector<uint64_t>& meta_words) {
  SectionHeader h{};
  const auto truncated = [&] { return InputError(s.name + ": a truncated compiled dictionary"); };
  if (s.bytes < sizeof h || !s.read(s.at, sizeof h, reinterpret_cast<char*>(&h))) throw truncated();
  const auto damaged = [&](const char* what) {
    return InputError(s.name + ": a damaged compiled dictionary (its ranked index's " + what + "); compile it again");
  };
  if (std::memcmp(h.magic, kRankedMagic, sizeof kRankedMagic) != 0 || h.format != kRankedFormat || h.bucket_bits > 24 ||
      h.meta_bytes > s.bytes - sizeof h)
    throw damaged("header");
  std::string meta(h.meta_bytes, '\0');
  if (!s.read(s.at + sizeof h, meta.size(), meta.data())) throw truncated();
  if (header_digest(h, meta) != h.meta_digest) throw damaged("digest");
  const uint64_t boundaries = (uint64_t{1} << h.bucket_bits) + 1;
  const uint64_t bulk_bytes = h.array_at[kArrays];
  const uint64_t chunks = (bulk_bytes + kChunkBytes - 1) / kChunkBytes;
  if (h.meta_bytes != ((2 + 3 * kTables) * boundaries + chunks) * sizeof(uint64_t) ||
      s.bytes != sizeof h + h.meta_bytes + bulk_bytes)
    throw damaged("size");
  for (size_t a = 0; a < kArrays; ++a)
    if (h.array_at[a] > h.array_at[a + 1]) throw damaged("array offsets");
  meta_words.resize(meta.size() / sizeof(uint64_t));
  std::memcpy(meta_words.data(), meta.data(), meta.size());
  return h;
}

// "" when the section was built with these parameters and frequency list,
// else which differs.
std::string parameters_differ(const SectionHeader& h, const RankedParams& params, uint64_t frequency_digest) {
  const auto differs = [](const char* what, auto file, auto run) {
    return std::string(what) + " " + std::to_string(file) + " there, " + std::to_string(run) + " here";
  };
  if (h.max_distance != params.deletes.max_distance)
    return differs("--max-distance", h.max_distance, params.deletes.max_distance);
  if (h.prefix_length != params.deletes.prefix_length)
    return differs("--prefix-length", h.prefix_length, params.deletes.prefix_length);
  if (h.sound_distance != params.sound_distance)
    return differs("--sound-distance", h.sound_distance, params.sound_distance);
  if (h.rare_distance != params.rare_distance) return differs("--rare-distance", h.rare_distance, params.rare_distance);
  if (h.far_min_count != params.far_min_count) return differs("--far-min-count", h.far_min_count, params.far_min_count);
  if (h.sound_min_count != params.sound_min_count)
    return differs("--sound-min-count", h.sound_min_count, params.sound_min_count);
  if (h.frequency_digest != frequency_digest) return "compiled with another frequency list";
  return "";
}

// The meta's per-boundary tables, and what a rank reads through them.
class SectionMeta {
 public:
  SectionMeta(const SectionHeader& h, const std::vector<uint64_t>& words)
      : h_(h), words_(words), boundaries_((uint64_t{1} << h.bucket_bits) + 1) {}
  uint64_t group_first(uint64_t c) const { return table(0)[c]; }
  uint64_t entry_first(uint64_t c) const { return table(1)[c]; }
  std::vector<uint64_t> chunk_digests() const {
    return {words_.begin() + static_cast<std::ptrdiff_t>((2 + 3 * kTables) * boundaries_), words_.end()};
  }
  bool consistent() const {
    for (uint64_t c = 0; c + 1 < boundaries_; ++c)
      if (group_first(c) > group_first(c + 1) || entry_first(c) > entry_first(c + 1)) return false;
    return group_first(boundaries_ - 1) == h_.groups && entry_first(boundaries_ - 1) == h_.entries;
  }
  // Table t's slots that keys of buckets [c0, c1) reach, and the list
  // postings those slots point to.
  struct Window {
    uint64_t first = 0, slots = 0, refs_first = 0, refs = 0;
  };
  bool window(SectionTable t, uint64_t c0, uint64_t c1, Window& w) const {
    const uint64_t* run_end = table(2 + 3 * t);
    const uint64_t* before = table(3 + 3 * t);
    const uint64_t* through = table(4 + 3 * t);
    w.first = bucket_home(c0, h_.bucket_bits, h_.table_slots[t]);
    if (run_end[c1] < w.first || before[c0] > through[c1]) return false;
    w.slots = run_end[c1] + 1 - w.first;
    w.refs_first = before[c0];
    w.refs = through[c1] - before[c0];
    return true;
  }

 private:
  const uint64_t* table(size_t k) const { return words_.data() + k * boundaries_; }
  const SectionHeader& h_;
  const std::vector<uint64_t>& words_;
  uint64_t boundaries_;
};

// Entries [e0, e1) and groups [g0, g1) of the buckets.
PrefixBuckets::Arrays read_bucket_arrays(const BulkReader& r, uint64_t g0, uint64_t g1, uint64_t e0, uint64_t e1) {
  PrefixBuckets::Arrays a;
  a.group_key = r.slice<uint64_t>(kGroupKey, g0, g1 - g0);
  a.group_start = r.slice<uint32_t>(kGroupStart, g0, g1 - g0 + 1);
  if (a.group_start.front() != e0 || a.group_start.back() != e1) r.damaged("its groups");
  for (size_t g = 0; g + 1 < a.group_start.size(); ++g)
    if (a.group_start[g] >= a.group_start[g + 1]) r.damaged("its groups");
  for (uint32_t& x : a.group_start) x -= static_cast<uint32_t>(e0);
  a.entries = word_list_part(r, kSpellStarts, kSpellBytes, e0, e1 - e0);
  a.sound_keys = word_list_part(r, kSoundStarts, kSoundBytes, e0, e1 - e0);
  a.folded_start = r.slice<uint32_t>(kFoldedStart, e0, e1 - e0 + 1);
  for (size_t e = 0; e + 1 < a.folded_start.size(); ++e)
    if (a.folded_start[e] > a.folded_start[e + 1]) r.damaged("its code points");
  const uint32_t f0 = a.folded_start.front();
  a.folded = r.slice<char32_t>(kFolded, f0, a.folded_start.back() - f0);
  for (uint32_t& x : a.folded_start) x -= f0;
  a.capital = r.slice<uint8_t>(kCapital, e0, e1 - e0);
  a.frequency = r.slice<uint64_t>(kFrequency, e0, e1 - e0);
  return a;
}

BloomFilter read_delete_filter(const BulkReader& r, const SectionHeader& h) {
  constexpr uint64_t kWordsPerBlock = BloomFilter::kBlockBytes / sizeof(uint64_t);
  const uint64_t words = (h.array_at[kDeleteFilter + 1] - h.array_at[kDeleteFilter]) / sizeof(uint64_t);
  if (words == 0 || words % kWordsPerBlock != 0) r.damaged("its delete filter");
  BloomFilter filter(1, words / kWordsPerBlock);
  r.slice_into(kDeleteFilter, 0, words, filter.data());
  return filter;
}

}  // namespace

std::string RankedIndex::compiled_section(WordList entries, FrequencyList frequencies, const RankedParams& params,
                                          unsigned bucket_bits, uint64_t frequency_digest) {
  const mpi::Comm self(MPI_COMM_SELF);
  RankedIndex x;
  x.params_ = params;
  x.bucket_bits_ = bucket_bits;
  x.build_tables(self, std::move(entries), std::move(frequencies));
  const PrefixBuckets& b = x.buckets_;
  if (b.size() > UINT32_MAX - 1 || b.folded_points().size() > UINT32_MAX)
    throw std::length_error("compile: over 2^32 entries or code points in the ranked index");
  SectionHeader h = header_of(params, bucket_bits, x.rare_distance_, frequency_digest);
  h.groups = b.buckets();
  h.entries = b.size();
  Layouts l;
  l.buckets = bucket_layout(b.directory(), h.table_slots[kBucketTable]);
  l.all = delete_layout(x.deletes_all_, h.table_slots[kAllTable], l.all_lists);
  l.frequent = delete_layout(x.deletes_frequent_, h.table_slots[kFrequentTable], l.frequent_lists);
  l.sounds = sound_layout(x.sounds_, h.table_slots[kSoundTable], l.sound_postings);
  const std::string bulk = bulk_of(b, l, x.delete_filter_, h.array_at);
  const std::string meta = meta_of(b, l, h, bulk);
  h.meta_bytes = meta.size();
  h.meta_digest = header_digest(h, meta);
  std::string out;
  out.reserve(sizeof h + meta.size() + bulk.size());
  wire::append_struct(out, h);
  out += meta;
  out += bulk;
  return out;
}

std::string RankedIndex::read_compiled(const CompiledSection& s, int rank, int ranks, const RankedParams& params,
                                       uint64_t frequency_digest) {
  std::vector<uint64_t> meta_words;
  const SectionHeader h = read_header(s, meta_words);
  if (std::string why = parameters_differ(h, params, frequency_digest); !why.empty()) return why;
  const SectionMeta meta(h, meta_words);
  const BulkReader r(s, h, s.at + sizeof h + h.meta_bytes, meta.chunk_digests());
  const uint64_t buckets = uint64_t{1} << h.bucket_bits;
  if (static_cast<uint64_t>(ranks) > buckets)
    throw InputError(s.name + ": compiled with " + std::to_string(buckets) + " buckets, it serves at most " +
                     std::to_string(buckets) + " ranks");
  if (!meta.consistent()) r.damaged("its bucket table");
  const uint64_t c0 = owned_range(rank, ranks, h.bucket_bits).first,
                 c1 = owned_range(rank, ranks, h.bucket_bits).second;
  const uint64_t e0 = meta.entry_first(c0);
  SectionMeta::Window w[kTables];
  for (size_t t = 0; t < kTables; ++t)
    if (!meta.window(static_cast<SectionTable>(t), c0, c1, w[t])) r.damaged("a table's bounds");

  HashDirectory directory;
  directory.assign_window(
      r.slice<HashDirectory::Slots::Slot>(kBucketSlots, w[kBucketTable].first, w[kBucketTable].slots),
      h.table_slots[kBucketTable], w[kBucketTable].first, static_cast<uint32_t>(e0));
  buckets_.assign(read_bucket_arrays(r, meta.group_first(c0), meta.group_first(c1), e0, meta.entry_first(c1)),
                  std::move(directory));
  const auto read_deletes = [&](DeleteTable& table, SectionTable t, SectionArray slots, SectionArray lists) {
    table.assign_window(r.slice<DeleteTable::Slots::Slot>(slots, w[t].first, w[t].slots), h.table_slots[t], w[t].first,
                        r.slice<uint64_t>(lists, w[t].refs_first, w[t].refs), static_cast<uint32_t>(w[t].refs_first));
  };
  read_deletes(deletes_all_, kAllTable, kAllSlots, kAllLists);
  read_deletes(deletes_frequent_, kFrequentTable, kFrequentSlots, kFrequentLists);
  const SectionMeta::Window& sw = w[kSoundTable];
  sounds_.assign_window(
      r.slice<HashDirectory::Slots::Slot>(kSoundSlots, sw.first, sw.slots), h.table_slots[kSoundTable], sw.first,
      r.slice<SoundPosting>(kSoundPostings, sw.refs_first, sw.refs), static_cast<uint32_t>(sw.refs_first));
  delete_filter_ = read_delete_filter(r, h);

  params_ = params;
  rare_distance_ = h.rare_in_force;
  bucket_bits_ = h.bucket_bits;
  set_count_tiers();
  group_first_.assign(static_cast<size_t>(ranks) + 1, meta.group_first(buckets));
  entry_first_.assign(static_cast<size_t>(ranks) + 1, meta.entry_first(buckets));
  for (int q = 0; q < ranks; ++q) {
    const uint64_t c = owned_range(q, ranks, h.bucket_bits).first;
    group_first_[static_cast<size_t>(q)] = meta.group_first(c);
    entry_first_[static_cast<size_t>(q)] = meta.entry_first(c);
  }
  return "";
}

}  // namespace spellcheck
