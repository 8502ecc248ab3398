#include "spellcheck/suggest/ranked_lookup.hpp"

#include <omp.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/common/code_points.hpp"
#include "spellcheck/common/first_error.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/suggest/detail/ranked_messages.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/osa_distance.hpp"

namespace spellcheck {

namespace {

using wire::append_le;
using wire::read_le;

// Case-folded code points of w into out; returns the count.
size_t fold_word(std::string_view w, std::vector<char32_t>& out) {
  out.resize(w.size() + 1);
  const size_t n = decode_utf8(w, out.data());
  for (size_t i = 0; i < n; ++i) out[i] = fold_case(out[i]);
  return n;
}

// Runs work(begin, end, thread_buffers) over [0, n) in contiguous ranges,
// one per thread of whatever team OpenMP gives; parts: the buffers in
// thread order (so concatenating them keeps the order of [0, n)), kept from
// the call before where there (a caller in rounds reuses their capacity).
template <class Buffer, class Work>
void in_ranges(size_t n, std::vector<Buffer>& parts, Work&& work) {
  FirstError err;
  // A team for a few items costs more than the items (and, oversubscribed,
  // its barrier spins against the other ranks): small rounds run alone.
  constexpr size_t kWorthATeam = 64;
#pragma omp parallel if (n >= kWorthATeam)
  {
#pragma omp single
    parts.resize(static_cast<size_t>(omp_get_num_threads()));
    const size_t t = static_cast<size_t>(omp_get_thread_num());
    const size_t nt = parts.size();
    err.run([&] { work(n * t / nt, n * (t + 1) / nt, parts[t]); });
  }
  err.rethrow();
}
template <class Buffer, class Work>
std::vector<Buffer> in_ranges(size_t n, Work&& work) {
  std::vector<Buffer> parts;
  in_ranges(n, parts, work);
  return parts;
}

// Runs answer(i, state) for i in [lo, hi) in three stages a record apart,
// each fetching what the next reads (records whose work is mostly memory
// misses): fetch(i) two records ahead, prepare(i, state) one ahead (it
// reads what fetch fetched and fetches more), then answer(i, state).
template <class State, class Fetch, class Prepare, class Answer>
void in_stages(size_t lo, size_t hi, Fetch&& fetch, Prepare&& prepare, Answer&& answer) {
  State this_one, next_one;
  if (lo < hi) fetch(lo);
  if (lo + 1 < hi) fetch(lo + 1);
  if (lo < hi) prepare(lo, next_one);
  for (size_t i = lo; i < hi; ++i) {
    std::swap(this_one, next_one);
    if (i + 1 < hi) prepare(i + 1, next_one);
    if (i + 2 < hi) fetch(i + 2);
    answer(i, this_one);
  }
}

// Per-destination byte buffers, emptied for reuse, each of p strings.
void empty_buffers(std::vector<std::string>& per_destination, int p) {
  per_destination.resize(static_cast<size_t>(p));
  for (auto& s : per_destination) s.clear();
}

// Per-thread, per-destination byte buffers (buffers_of(thread's part))
// -> b in rank order (its capacity reused); the buffers are left empty,
// their capacity kept.
template <class Part, class BuffersOf>
void concat_into(std::vector<Part>& per_thread, int p, mpi::Bytes& b, BuffersOf&& buffers_of) {
  b.counts.assign(static_cast<size_t>(p), 0);
  b.data.clear();
  for (int d = 0; d < p; ++d)
    for (auto& t : per_thread) {
      std::string& s = buffers_of(t)[static_cast<size_t>(d)];
      b.counts[static_cast<size_t>(d)] += s.size();
      b.data += s;
      s.clear();
    }
}
void concat_into(std::vector<std::vector<std::string>>& per_thread, int p, mpi::Bytes& b) {
  concat_into(per_thread, p, b, [](std::vector<std::string>& t) -> std::vector<std::string>& { return t; });
}
mpi::Bytes concat(std::vector<std::vector<std::string>>& per_thread, int p) {
  mpi::Bytes b;
  concat_into(per_thread, p, b);
  return b;
}

// Priors are thousandths of a nat of counts under 2^64: far inside 32 bits.
int32_t checked_prior(int64_t prior) {
  if (prior < std::numeric_limits<int32_t>::min() || prior > std::numeric_limits<int32_t>::max())
    throw std::logic_error("channel prior out of range");
  return static_cast<int32_t>(prior);
}

constexpr uint64_t kEqualKey = 0x5D1F0A3C9E4B7261ULL;  // marks the key itself apart from deletes

// A key's bytes, one code point each, as they are hashed; only the first
// 64 are hashed (prefix_deletes' cap), so a stack array does.
size_t key_points(std::string_view key, char32_t (&k)[64]) {
  const size_t n = std::min<size_t>(key.size(), 64);
  for (size_t i = 0; i < n; ++i) k[i] = static_cast<char32_t>(key[i]);
  return n;
}

// The sound table's keys for a phonetic key: the key itself, marked apart
// (equal keys sound alike whatever the words' counts), and, when near, its
// deletes up to sound_distance (keys that far apart sound alike only for
// words with a count of sound_min_count or more, and only those are stored
// so). A typo asks for both; a word with a lower count is then never
// scanned by the typo's deletes only to be refused.
void sound_lookups(std::string_view key, int sound_distance, bool near, std::vector<uint64_t>& out) {
  char32_t k[64];
  const size_t n = key_points(key, k);
  out.clear();
  if (near && sound_distance > 0) prefix_deletes(k, n, DeleteParams{sound_distance, 64}, out);
  out.push_back(code_point_hash(k, n) ^ kEqualKey);
}

// The equal-key lookup of a short packed key (pack_sound_key): as
// sound_lookups makes it.
uint64_t equal_key_lookup(uint64_t packed) {
  char bytes[6];
  char32_t k[64];
  const size_t n = key_points(std::string_view(bytes, unpack_sound_key(packed, bytes)), k);
  return code_point_hash(k, n) ^ kEqualKey;
}

// A received record: where it starts in the exchange's data and which rank
// sent it.
struct Record {
  size_t at = 0;
  int source = 0;
};

// The records of every source's segment, in order; next(seg, at) is where
// the record at `at` of a segment ends.
template <class Next>
std::vector<Record> records_of(const mpi::Bytes& got, Next&& next) {
  std::vector<Record> out;
  size_t off = 0;
  for (size_t src = 0; src < got.counts.size(); ++src) {
    const std::string_view seg = std::string_view(got.data).substr(off, got.counts[src]);
    for (size_t at = 0; at < seg.size(); at = next(seg, at)) out.push_back(Record{off + at, static_cast<int>(src)});
    off += seg.size();
  }
  return out;
}

// Groups a list by owner rank, stably (a counting sort: owners are few):
// afterwards owner d's part of v is [at[d], at[d + 1]).
class OwnerGroups {
 public:
  template <class Owner>
  void sort(std::vector<uint64_t>& v, std::vector<size_t>& at, int p, Owner&& owner) {
    at.assign(static_cast<size_t>(p) + 1, 0);
    at[static_cast<size_t>(p)] = v.size();
    if (p == 1) return;
    owners_.resize(v.size());
    for (size_t k = 0; k < v.size(); ++k) ++at[static_cast<size_t>(owners_[k] = owner(v[k]))];
    size_t sum = 0;
    for (auto& x : at) sum += std::exchange(x, sum);  // counts -> starts (at[p] = v.size())
    cursor_.assign(at.begin(), at.end() - 1);
    scratch_.resize(v.size());
    for (size_t k = 0; k < v.size(); ++k) scratch_[cursor_[static_cast<size_t>(owners_[k])]++] = v[k];
    v.swap(scratch_);
  }

 private:
  std::vector<int> owners_;
  std::vector<size_t> cursor_;
  std::vector<uint64_t> scratch_;
};

// A set of 64-bit keys for one word's postings at a time: open addressing
// with a generation per slot, so starting over costs nothing. Dropping the
// repeats of a word's few hundred postings this way is linear, where
// sorting them was a tenth of the lookup (their order does not matter: the
// owners rank whatever they are sent, in any order).
class SeenKeys {
 public:
  // Starts an empty set for up to n keys, in the first slots only (at
  // least twice n): a word after one with thousands of postings then
  // probes a few cache lines, not the large set that one needed.
  void start(size_t n) {
    size_t cap = 64;
    while (cap < 2 * n) cap <<= 1;
    if (cap > keys_.size()) {
      keys_.assign(cap, 0);
      stamp_.assign(cap, 0);
      gen_ = 0;
    }
    mask_ = cap - 1;
    shift_ = 64 - __builtin_ctzll(cap);
    if (++gen_ == 0) {  // wrapped: old stamps could match again
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
  }
  // Adds k; false when it was there.
  bool insert(uint64_t k) {
    for (size_t i = (k * 0x9E3779B97F4A7C15ULL) >> shift_;; i = (i + 1) & mask_) {
      if (stamp_[i] != gen_) {
        stamp_[i] = gen_;
        keys_[i] = k;
        return true;
      }
      if (keys_[i] == k) return false;
    }
  }

 private:
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> stamp_;
  uint32_t gen_ = 0;
  size_t mask_ = 63;
  int shift_ = 58;
};

// Counts per case-folded word (the capped sum over the words that fold to
// it): the frequency list's and the collection's, looked up per entry. A
// sorted array of (hash of the code points, where they are), the code
// points compared on equal hashes: no string or node per word.
class FoldedCounts {
 public:
  void add(const char32_t* w, size_t n, uint64_t count) {
    forms_.push_back(Form{code_point_hash(w, n), static_cast<uint64_t>(points_.size()), static_cast<uint32_t>(n),
                          std::min(kMaxFrequency, count)});
    points_.insert(points_.end(), w, w + n);
  }
  // After the last add: equal words merged, sorted for count().
  void seal() {
    std::sort(forms_.begin(), forms_.end(), [&](const Form& a, const Form& b) {
      if (a.hash != b.hash) return a.hash < b.hash;
      return std::lexicographical_compare(at(a), at(a) + a.size, at(b), at(b) + b.size);
    });
    size_t kept = 0;
    for (size_t i = 0; i < forms_.size(); ++i)
      if (kept > 0 && same(forms_[kept - 1], forms_[i]))
        forms_[kept - 1].count = std::min(kMaxFrequency, forms_[kept - 1].count + forms_[i].count);
      else forms_[kept++] = forms_[i];
    forms_.resize(kept);
  }
  // The count of each word, folded (0 if none). The words, sorted by the
  // hash of their folded code points, meet the forms in the forms' order:
  // a binary search per word was a cache miss per step.
  std::vector<uint64_t> count_each(const WordList& words) const {
    std::vector<uint64_t> out(words.size(), 0);
    if (forms_.empty()) return out;
    std::vector<char32_t> cps;
    std::vector<std::pair<uint64_t, uint64_t>> keyed(words.size());
    for (size_t i = 0; i < words.size(); ++i) {
      const size_t n = fold_word(words[i], cps);
      keyed[i] = {code_point_hash(cps.data(), n), i};
    }
    sort_by_spread_hash(keyed);
    size_t f = 0;
    for (const auto& [h, i] : keyed) {
      while (f < forms_.size() && forms_[f].hash < h) ++f;
      if (f == forms_.size()) break;
      if (forms_[f].hash != h) continue;
      const size_t n = fold_word(words[i], cps);  // (again: only words with a form of their hash)
      for (size_t g = f; g < forms_.size() && forms_[g].hash == h; ++g)
        if (spells(forms_[g], cps.data(), n)) {
          out[i] = forms_[g].count;
          break;
        }
    }
    return out;
  }

 private:
  struct Form {
    uint64_t hash = 0;
    uint64_t at = 0;  // into points_
    uint32_t size = 0;
    uint64_t count = 0;
  };
  const char32_t* at(const Form& f) const { return points_.data() + f.at; }
  bool spells(const Form& f, const char32_t* w, size_t n) const { return f.size == n && std::equal(w, w + n, at(f)); }
  bool same(const Form& a, const Form& b) const { return a.hash == b.hash && spells(b, at(a), a.size); }
  std::vector<Form> forms_;
  std::vector<char32_t> points_;
};

// Tags of a bucket range's first entry: not the typo's own bucket; found
// only through the frequent table. Entry numbers stay below them (a rank
// holds fewer than 2^30 entries).
constexpr uint32_t kOtherBucket = 1U << 31, kFrequentOnly = 1U << 30;

// Buckets and sound-alike entries as the tables hold them: numbered over
// every rank's (RankedIndex::group_first_), so that the owner reads its
// entries without a directory lookup, the asker sees the owner without
// hashing, and a compiled file's numbers hold on any number of ranks.
std::vector<uint64_t> firsts(const mpi::Comm& comm, uint64_t mine) {
  const std::vector<uint64_t> all = mpi::allgather(comm, mine);
  std::vector<uint64_t> first(all.size() + 1, 0);
  for (size_t r = 0; r < all.size(); ++r) first[r + 1] = first[r] + all[r];
  return first;
}

// The delete filter: bits per key, and the salt that keeps the frequent
// table's keys apart from the other table's (a key may be in one only).
constexpr double kDeleteFilterBits = 12;
constexpr uint64_t kFrequentTableSalt = 0x5BD1E9955BD1E995ULL;

// A delete's key in the filter: as its directory stores it, salted for the
// frequent table. The filter is filled and probed through this one mapping.
uint64_t delete_filter_key(uint64_t h, bool frequent_table) {
  return DeleteTable::stored_key(h) ^ (frequent_table ? kFrequentTableSalt : 0);
}

}  // namespace

// Everything the check of an entry reads up to its offer to the ranker, per
// entry, in one cache line (computed per lookup call: the prior depends on
// the weights). Checking is bound by memory misses: an entry scattered over
// the index's arrays cost one miss per array.
struct alignas(64) EntryCheck {
  LetterCounts counts;               // letter_counts of the folded entry
  uint64_t letters = 0;              // letter_set of the folded entry
  uint64_t sound = 0;                // pack_sound_key of its phonetic key
  const char32_t* folded = nullptr;  // its folded code points
  uint32_t size = 0;                 // how many
  int32_t prior = 0;                 // channel_prior
  int32_t best_prior_on = 0;         // the highest prior of this and the later entries of its bucket
  char32_t first = 0;                // first folded code point
  bool far = false;                  // a candidate beyond rare_distance (far_min_count)
  bool sound_one_edit = false;       // sounds alike one key edit away (sound_min_count)
  bool has_capital = false;          // the spelling has a capital
};
static_assert(sizeof(EntryCheck) == 64);

namespace {

// The case-folded prefix hash of a word: its bucket, and its owner.
uint64_t bucket_hash(std::string_view w, size_t prefix_length, std::vector<char32_t>& cps) {
  const size_t n = fold_word(w, cps);
  return prefix_hash(cps.data(), n, prefix_length);
}

// Collective. A list's words, with their counts, to the owners of their
// buckets; each comes with its bucket's hash (the prefix hash of the folded
// word). routed_words: how many words came here.
Routed route_counts(const mpi::Comm& comm, FrequencyList list, size_t prefix_length, unsigned bucket_bits,
                    uint64_t* routed_words) {
  std::vector<char32_t> cps;
  std::vector<uint64_t> keys(list.words.size());
  for (size_t i = 0; i < list.words.size(); ++i) keys[i] = bucket_hash(list.words[i], prefix_length, cps);
  std::vector<std::vector<uint64_t>> counts_column;
  counts_column.push_back(std::move(list.counts));
  Routed got = route_by_owner(comm, std::move(list.words), std::move(keys), std::move(counts_column), bucket_bits);
  if (routed_words) *routed_words = got.words.size();
  return got;
}

// Collective. A list's counts per entry here, keyed by the folded word:
// the capped sum over the words that fold to the entry's folded spelling.
// For the entries before they are in buckets (the index is built from
// these counts).
std::vector<uint64_t> counts_per_entry(const mpi::Comm& comm, FrequencyList list, const WordList& entries_here,
                                       size_t prefix_length, unsigned bucket_bits, uint64_t* routed_words) {
  std::vector<char32_t> cps;
  const Routed got = route_counts(comm, std::move(list), prefix_length, bucket_bits, routed_words);
  FoldedCounts count_of;
  for (size_t i = 0; i < got.words.size(); ++i) {
    const size_t n = fold_word(got.words[i], cps);
    count_of.add(cps.data(), n, got.values[0][i]);
  }
  count_of.seal();
  return count_of.count_each(entries_here);
}

}  // namespace

void RankedIndex::build(const mpi::Comm& comm, WordList entries, FrequencyList frequencies, const RankedParams& params,
                        FrequencyList collection) {
  params_ = params;
  build_tables(comm, std::move(entries), std::move(frequencies));
  add_collection(comm, std::move(collection));
}

void RankedIndex::add_collection(const mpi::Comm& comm, FrequencyList collection) {
  // The collection's counts, per entry in the buckets' order, as
  // counts_per_entry makes them, but each word finds its entries in its
  // bucket: the collection holds a third as many words as the index has
  // entries, and no table of its words is built. (A collective whether or
  // not any rank has them.)
  if (mpi::allreduce_sum(comm, static_cast<uint64_t>(collection.words.size())) == 0) return;
  const Routed got = route_counts(comm, std::move(collection), params_.deletes.prefix_length, bucket_bits_, nullptr);
  std::vector<uint64_t> per_entry(buckets_.size(), 0);
  std::vector<char32_t> cps;
  constexpr size_t kAhead = 8;  // directory slots are memory misses: fetched a few words ahead
  for (size_t i = 0; i < got.words.size(); ++i) {
    if (i + kAhead < got.words.size()) buckets_.prefetch(got.hashes[i + kAhead]);
    const size_t n = fold_word(got.words[i], cps);
    const uint64_t count = std::min(kMaxFrequency, got.values[0][i]);
    const auto [first, last] = buckets_.bucket_range(got.hashes[i]);
    for (uint32_t x = first; x != last; ++x)
      if (buckets_.folded_size(x) == n &&
          std::equal(cps.begin(), cps.begin() + static_cast<std::ptrdiff_t>(n), buckets_.folded(x)))
        per_entry[x] = std::min(kMaxFrequency, per_entry[x] + count);
  }
  buckets_.add_collection_counts(std::move(per_entry));
}

void RankedIndex::build_delete_filter(const mpi::Comm& comm) {
  const uint64_t total =
      mpi::allreduce_sum(comm, static_cast<uint64_t>(deletes_all_.deletes() + deletes_frequent_.deletes()));
  delete_filter_ = BloomFilter(1, BloomFilter::blocks_for(total, kDeleteFilterBits));
  deletes_all_.for_each_key([&](uint64_t k) { delete_filter_.insert_unshared(delete_filter_key(k, false), 0); });
  deletes_frequent_.for_each_key([&](uint64_t k) { delete_filter_.insert_unshared(delete_filter_key(k, true), 0); });
  mpi::allreduce_bor(comm, delete_filter_.data(), delete_filter_.words());
}

void RankedIndex::set_count_tiers() {
  far_min_count_ = std::max<uint64_t>(1, params_.far_min_count);
  sound_min_count_ = std::max<uint64_t>(1, params_.sound_min_count);
}

void RankedIndex::build_tables(const mpi::Comm& comm, WordList entries, FrequencyList frequencies) {
  const int p = comm.size();
  const uint32_t me = static_cast<uint32_t>(comm.rank());
  std::vector<char32_t> cps;
  const size_t prefix_length = params_.deletes.prefix_length;
  // Entries to the owners of their buckets (which drop repeated lines:
  // PrefixBuckets::build).
  std::vector<uint64_t> hashes(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) hashes[i] = bucket_hash(entries[i], prefix_length, cps);
  Routed mine = route_by_owner(comm, std::move(entries), std::move(hashes), {}, bucket_bits_);

  // Frequencies to the same owners.
  uint64_t frequency_words_here = 0;
  std::vector<uint64_t> entry_counts =
      counts_per_entry(comm, std::move(frequencies), mine.words, prefix_length, bucket_bits_, &frequency_words_here);
  // The check requests tag an entry index with its two top bits
  // (kOtherBucket, kFrequentOnly).
  if (mine.words.size() >= kFrequentOnly)
    throw std::length_error("ranked index: more than 2^30 dictionary entries on one rank (use more ranks)");
  buckets_.build(std::move(mine.words), std::move(entry_counts), params_.deletes, bucket_bits_);
  group_first_ = firsts(comm, buckets_.buckets());
  entry_first_ = firsts(comm, buckets_.size());
  // Words without a frequency are candidates within rare_distance only
  // (when a frequency list was given at all): the distance-2 neighbourhood
  // of a word in a large dictionary is mostly such words, they almost never
  // rank, and leaving them out of the distance-2 table makes lookups several
  // times cheaper.
  const bool any_frequency = mpi::allreduce_sum(comm, frequency_words_here) > 0;
  rare_distance_ =
      any_frequency ? std::min(params_.rare_distance, params_.deletes.max_distance) : params_.deletes.max_distance;
  // Prefix deletes to their owners, spelled and hashed by threads over
  // ranges of buckets: every bucket's up to rare_distance, and those of
  // buckets with a frequent entry up to max_distance.
  auto build_deletes = [&](DeleteTable& table, int distance, uint64_t min_count) {
    const DeleteParams dp{distance, params_.deletes.prefix_length};
    auto out = in_ranges<std::vector<std::string>>(
        buckets_.buckets(), [&](size_t lo, size_t hi, std::vector<std::string>& mine) {
          mine.assign(static_cast<size_t>(p), std::string());
          buckets_.for_each_delete(dp, lo, hi, min_count, [&](size_t bucket, uint64_t del) {
            std::string& s = mine[static_cast<size_t>(owner(del, p))];
            append_le(s, del);
            append_le(s, group_first_[me] + bucket);
          });
        });
    const mpi::Bytes got = mpi::alltoallv_bytes(comm, concat(out, p));
    out.clear();
    std::vector<std::pair<uint64_t, uint64_t>> pairs(got.data.size() / 16);
    const char* q = got.data.data();
    for (auto& pr : pairs) {
      pr.first = read_le<uint64_t>(q);
      pr.second = read_le<uint64_t>(q);
    }
    table.build(std::move(pairs));
  };
  set_count_tiers();
  build_deletes(deletes_all_, rare_distance_, 0);
  if (rare_distance_ < params_.deletes.max_distance)
    build_deletes(deletes_frequent_, params_.deletes.max_distance, far_min_count_);

  // Sound-key deletes to their owners, pointing at (this rank, entry).
  {
    std::vector<std::vector<std::string>> out(1, std::vector<std::string>(static_cast<size_t>(p)));
    if (params_.sound_distance >= 0) {
      std::vector<uint64_t> dels;
      for (uint32_t e = 0; e < buckets_.size(); ++e) {
        // Only words with a frequency sound alike: a rare word three edits
        // away never ranked among the top on the tuning lists, and leaving
        // them out makes the table eight times smaller.
        if (buckets_.frequency(e) == 0) continue;
        const std::string_view k = buckets_.sound_key(e);
        sound_lookups(k, params_.sound_distance, buckets_.frequency(e) >= sound_min_count_, dels);
        const uint64_t packed =
            pack_sound_key(buckets_.sound_key(e), buckets_.folded_size(e) ? buckets_.folded(e)[0] : 0);
        for (const uint64_t h : dels) {
          std::string& s = out[0][static_cast<size_t>(owner(h, p))];
          append_le(s, h);
          append_le(s, entry_first_[me] + e);
          append_le(s, packed);
        }
      }
    }
    const mpi::Bytes got = mpi::alltoallv_bytes(comm, concat(out, p));
    std::vector<std::pair<uint64_t, SoundPosting>> pairs(got.data.size() / 24);
    const char* q = got.data.data();
    for (auto& pr : pairs) {
      pr.first = read_le<uint64_t>(q);
      pr.second.entry = read_le<uint64_t>(q);
      pr.second.key = read_le<uint64_t>(q);  // (the order a delete's postings go in: SoundPosting)
    }
    sounds_.build(std::move(pairs));
  }
  build_delete_filter(comm);
}

std::vector<EntryCheck> RankedIndex::entry_checks(const ChannelWeights& weights) const {
  std::vector<EntryCheck> entry_checks(buckets_.size());
  for (uint32_t x = 0; x < buckets_.size(); ++x) {
    EntryCheck& b = entry_checks[x];
    b.folded = buckets_.folded(x);
    b.size = static_cast<uint32_t>(buckets_.folded_size(x));  // a WordList entry is under 4 GiB
    b.counts = letter_counts(b.folded, b.size);
    b.letters = letter_set(b.folded, b.size);
    b.prior = checked_prior(channel_prior(buckets_.frequency(x), buckets_.collection_count(x), weights));
    b.first = b.size ? b.folded[0] : 0;
    b.far = buckets_.frequency(x) >= far_min_count_;
    b.sound_one_edit = buckets_.frequency(x) >= sound_min_count_;
    b.has_capital = buckets_.has_capital(x);
    b.sound = pack_sound_key(buckets_.sound_key(x), b.first);
  }
  for (size_t g = 0; g < buckets_.buckets(); ++g) {
    const auto [first, last] = buckets_.group(g);
    int32_t best = std::numeric_limits<int32_t>::min();
    for (uint32_t x = last; x-- > first;) entry_checks[x].best_prior_on = best = std::max(best, entry_checks[x].prior);
  }
  return entry_checks;
}

// The words in the order of their first letters, case aside (a sort key of
// their first 8 bytes, ASCII letters lowered). Words next to each other
// then share deletes, buckets and entries, and the lines of the tables they
// read are still in cache: document mode's words come in hash order.
namespace {
std::vector<uint32_t> locality_order(const WordList& words) {
  std::vector<std::pair<uint64_t, uint32_t>> keyed(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    uint64_t key = 0;
    for (size_t k = 0; k < 8; ++k) {
      const auto c = static_cast<unsigned char>(k < w.size() ? w[k] : 0);
      key = (key << 8) | (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    keyed[i] = {key, static_cast<uint32_t>(i)};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<uint32_t> order(words.size());
  for (size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  return order;
}
}  // namespace

RankedResults RankedIndex::suggest(const mpi::Comm& comm, const WordList& given, const ChannelWeights& weights,
                                   RankedCounts& counts) const {
  if (given.size() > std::numeric_limits<uint32_t>::max()) throw std::length_error("over 2^32 words on one rank");
  const std::vector<uint32_t> order = locality_order(given);
  WordList words;
  words.bytes.reserve(given.bytes.size());
  words.starts.reserve(given.size());
  for (const uint32_t i : order) words.push_back(given[i]);
  RankedResults result = suggest_in_order(comm, words, weights, counts);
  result.reorder(order);
  return result;
}

RankedResults RankedIndex::suggest_in_order(const mpi::Comm& comm, const WordList& words, const ChannelWeights& weights,
                                            RankedCounts& counts) const {
  const std::vector<EntryCheck> checks = entry_checks(weights);
  if (params_.sound_distance < 0 || params_.sound_gate == kNoSoundGate) {
    if (params_.sound_distance >= 0) counts.sound_words += words.size();
    return lookup(comm, words, weights, checks, counts, Pass::both);
  }
  // A word with a candidate this good within the distance is not looked
  // up by sound: a sound-alike (3 edits or more) rarely outranks it, and
  // the sound-key lookups are about a third of the work.
  RankedResults result = lookup(comm, words, weights, checks, counts, Pass::buckets);
  WordList unsure;
  std::vector<size_t> where;
  for (size_t i = 0; i < words.size(); ++i)
    if (!result.accepted(i) && (result.candidates(i) == 0 || result.score(i, 0) < params_.sound_gate)) {
      unsure.push_back(words[i]);
      where.push_back(i);
    }
  counts.sound_words += unsure.size();
  const RankedResults sounds = lookup(comm, unsure, weights, checks, counts, Pass::sounds);
  RankingMerger merger;
  for (size_t j = 0; j < where.size(); ++j) {
    merger.start();
    merger.add(result, where[j]);
    merger.add(sounds, j);
    merger.finish(result, where[j], params_.top);
  }
  return result;
}

// One lookup call: rounds of at most words_per_round words, each the
// protocol's four steps (ranked_lookup.hpp), the first three ending in an
// exchange. What a round exchanges is kept from round to round (their
// capacity: allocated afresh, their pages were faulted in and zeroed every
// round).
class RankedIndex::Lookup {
 public:
  Lookup(const RankedIndex& index, const mpi::Comm& comm, const WordList& words, const ChannelWeights& weights,
         const std::vector<EntryCheck>& entry_checks, RankedCounts& counts, Pass pass);
  RankedResults run();

 private:
  class RequestWriter;
  class BucketForwarder;
  class RecordChecker;
  // Step 3's output of one thread.
  struct CheckedPart {
    std::vector<std::string> bytes;  // per asker
    uint64_t checked = 0, passed = 0, asked = 0;
  };

  void ask_delete_owners();         // 1. the round's words -> asked_
  void forward_to_bucket_owners();  // 2. asked_ -> forwarded_
  void check_at_bucket_owners();    // 3. forwarded_ -> found_
  void merge_replies();             // 4. found_ -> result_
  // Step 3's forwards grouped by the request they came from.
  void group_forwards();

  const RankedIndex& index_;
  const mpi::Comm& comm_;
  const WordList& words_;
  const ChannelWeights& weights_;
  const std::vector<EntryCheck>& entry_checks_;
  RankedCounts& counts_;
  const Pass pass_;
  const int p_;
  RankedResults result_;
  size_t round_begin_ = 0, round_size_ = 0;  // the round's words

  std::vector<std::vector<std::string>> request_parts_, forward_parts_;  // per thread, per destination
  std::vector<CheckedPart> checked_parts_;
  mpi::Bytes sent_, asked_, forwarded_, found_;
  std::vector<Record> requests_;                              // step 2: the requests in asked_
  std::vector<Record> forwards_;                              // step 3: the forwards in forwarded_
  std::vector<std::pair<uint64_t, uint32_t>> forward_order_;  // step 3: (request key, forward)
  std::vector<size_t> request_starts_;                        // step 3: per request, its first in forward_order_
  std::vector<std::pair<uint32_t, const char*>> replies_;     // step 4: (word, its reply)
  std::vector<const char*> replies_by_word_;                  // step 4: the replies grouped by word
  std::vector<size_t> reply_starts_;                          // step 4: per word, its first in replies_by_word_
  RankingMerger merger_;
};

RankedIndex::Lookup::Lookup(const RankedIndex& index, const mpi::Comm& comm, const WordList& words,
                            const ChannelWeights& weights, const std::vector<EntryCheck>& entry_checks,
                            RankedCounts& counts, Pass pass)
    : index_(index),
      comm_(comm),
      words_(words),
      weights_(weights),
      entry_checks_(entry_checks),
      counts_(counts),
      pass_(pass),
      p_(comm.size()),
      result_(words.size()) {
  // Room for every word's top, at most `top` candidates each, spelled in
  // about the word's bytes (past the estimate the arrays grow as usual).
  // The bucket pass's results later take the merged rankings of the words
  // looked up by sound too (suggest_in_order): room for twice as many, so
  // they are never moved.
  const size_t n = words.size();
  const size_t tops = (pass == Pass::buckets ? 2 : 1) * index.params_.top;
  result_.reserve(n * tops, (words.bytes.size() + 4 * n) * tops);
}

RankedResults RankedIndex::Lookup::run() {
  const size_t n = words_.size();
  const size_t per_round = std::max<size_t>(1, index_.params_.words_per_round);
  const uint64_t rounds = mpi::allreduce_max(comm_, (n + per_round - 1) / per_round);
  for (uint64_t round = 0; round < rounds; ++round) {
    round_begin_ = std::min(n, round * per_round);
    round_size_ = std::min(n, round_begin_ + per_round) - round_begin_;
    ++counts_.rounds;
    if (pass_ != Pass::sounds) counts_.words += round_size_;
    ask_delete_owners();
    forward_to_bucket_owners();
    check_at_bucket_owners();
    merge_replies();
  }
  return std::move(result_);
}

RankedResults RankedIndex::lookup(const mpi::Comm& comm, const WordList& words, const ChannelWeights& weights,
                                  const std::vector<EntryCheck>& entry_checks, RankedCounts& counts, Pass pass) const {
  return Lookup(*this, comm, words, weights, entry_checks, counts, pass).run();
}

// Step 1 for one thread's words: each word, with its deletes that some rank
// holds, to the owners of those deletes. A word's deletes are those of its
// prefix: without sound keys to look up, a run of words (in locality order)
// with the same prefix and typo distance shares one request, so its
// lookups are made once.
class RankedIndex::Lookup::RequestWriter {
 public:
  explicit RequestWriter(const Lookup& lookup)
      : lookup_(lookup),
        index_(lookup.index_),
        params_(lookup.index_.params_),
        sound_keys_(params_.sound_distance >= 0 && lookup.pass_ != Pass::buckets) {}

  void write(size_t lo, size_t hi, std::vector<std::string>& out) {
    empty_buffers(out, lookup_.p_);
    const auto owner = [&index = index_, p = lookup_.p_](uint64_t h) { return index.owner(h, p); };
    for (size_t i = lo, run_end = lo; i < hi; i = run_end) {
      for (auto& d : deletes_) d.clear();
      const size_t len = fold_word(word(i), q_);
      const int typo_d = typo_distance(params_, len);
      run_end = sound_keys_ ? i + 1 : end_of_run(i, hi, len, typo_d);
      if (lookup_.pass_ != Pass::sounds) bucket_deletes(len, typo_d);
      const uint64_t sound_key = sound_keys_ ? sound_deletes(len) : 0;
      for (size_t k = 0; k < 3; ++k) {
        groups_.sort(deletes_[k], at_[k], lookup_.p_, owner);
        deletes_asked += deletes_[k].size();
      }
      encode(i, run_end, sound_key, out);
    }
  }

  uint64_t deletes_asked = 0, deletes_filtered = 0;

 private:
  std::string_view word(size_t i) const { return lookup_.words_[lookup_.round_begin_ + i]; }

  // Past the words from i on that share word i's deletes (its folded
  // prefix and typo distance; q_ holds word i folded, len code points).
  size_t end_of_run(size_t i, size_t hi, size_t len, int typo_d) {
    const size_t key = std::min({len, params_.deletes.prefix_length, size_t{64}});  // prefix_deletes' length
    size_t end = i + 1;
    for (; end < hi; ++end) {
      const size_t next_len = fold_word(word(end), next_q_);
      if (std::min({next_len, params_.deletes.prefix_length, size_t{64}}) != key ||
          typo_distance(params_, next_len) != typo_d ||
          !std::equal(q_.begin(), q_.begin() + static_cast<std::ptrdiff_t>(key), next_q_.begin()))
        break;
    }
    return end;
  }

  // The prefix deletes of q_ for both tables, up to the typo's distance (a
  // short typo's may be less than the tables'): the tables hold every
  // entry's deletes up to theirs, so an entry within the typo's distance
  // still shares one. Only the deletes some rank holds travel (about a
  // third of a typo's): their filter blocks are fetched together, then
  // tested.
  void bucket_deletes(size_t len, int typo_d) {
    const size_t prefix = params_.deletes.prefix_length;
    prefix_deletes(q_.data(), len, DeleteParams{std::min(index_.rare_distance_, typo_d), prefix}, deletes_[0]);
    if (index_.rare_distance_ < params_.deletes.max_distance && typo_d > index_.rare_distance_)
      prefix_deletes(q_.data(), len, DeleteParams{typo_d, prefix}, deletes_[1]);
    const BloomFilter& filter = index_.delete_filter_;
    for (size_t k = 0; k < 2; ++k)
      for (const uint64_t h : deletes_[k]) filter.prefetch(delete_filter_key(h, k == 1), 0);
    for (size_t k = 0; k < 2; ++k) {
      const size_t before = deletes_[k].size();
      std::erase_if(deletes_[k], [&](uint64_t h) { return !filter.maybe_contains(delete_filter_key(h, k == 1), 0); });
      deletes_filtered += before - deletes_[k].size();
    }
  }

  // The lookups of q_'s phonetic key into deletes_[2]; returns the packed key.
  uint64_t sound_deletes(size_t len) {
    const std::string key = phonetic_key(q_.data(), len);
    sound_lookups(key, params_.sound_distance, true, deletes_[2]);
    return pack_sound_key(key, len ? q_[0] : 0);
  }

  // Words [i, run_end) with their deletes, to each owner of some.
  void encode(size_t i, size_t run_end, uint64_t sound_key, std::vector<std::string>& out) const {
    for (size_t d = 0; d < static_cast<size_t>(lookup_.p_); ++d) {
      const auto owned = [&](size_t k) {
        return std::span<const uint64_t>(deletes_[k].data() + at_[k][d], at_[k][d + 1] - at_[k][d]);
      };
      const ranked_messages::DeleteLists lists{owned(0), owned(1), owned(2)};
      if (lists.every_bucket.empty() && lists.frequent.empty() && lists.sound.empty()) continue;
      ranked_messages::encode_delete_request(out[d], lookup_.words_, lookup_.round_begin_, i, run_end, lists,
                                             sound_key);
    }
  }

  const Lookup& lookup_;
  const RankedIndex& index_;
  const RankedParams& params_;
  const bool sound_keys_;  // the requests carry their word's sound-key deletes
  std::vector<char32_t> q_, next_q_;
  std::array<std::vector<uint64_t>, 3> deletes_;  // every bucket's table, frequent buckets', sound keys'
  std::array<std::vector<size_t>, 3> at_;         // each list's part per owner (OwnerGroups)
  OwnerGroups groups_;
};

void RankedIndex::Lookup::ask_delete_owners() {
  std::atomic<uint64_t> asked_deletes{0}, filtered_deletes{0};
  in_ranges(round_size_, request_parts_, [&](size_t lo, size_t hi, std::vector<std::string>& out) {
    RequestWriter writer(*this);
    writer.write(lo, hi, out);
    asked_deletes.fetch_add(writer.deletes_asked, std::memory_order_relaxed);
    filtered_deletes.fetch_add(writer.deletes_filtered, std::memory_order_relaxed);
  });
  concat_into(request_parts_, p_, sent_);
  mpi::alltoallv_bytes(comm_, sent_, asked_);
  counts_.delete_lookups += asked_deletes.load();
  counts_.deletes_filtered += filtered_deletes.load();
}

// Step 2 for one thread's requests, at the owners of their deletes: each
// request's buckets and sound-alike entries, distinct, to their owners,
// with its words and who asked. A bucket found only through the frequent
// table goes apart: its owner checks only its frequent entries (the table
// of every bucket's deletes up to rare_distance would have found a rarer
// one within it). Directory slots and postings are memory misses, so
// requests go through three stages a request apart, each fetching what the
// next reads: a request's directory slots are fetched two requests ahead;
// one request ahead, they are read and its postings fetched; then it is
// answered.
class RankedIndex::Lookup::BucketForwarder {
 public:
  explicit BucketForwarder(const Lookup& lookup) : lookup_(lookup), index_(lookup.index_) {}

  void forward(size_t lo, size_t hi, std::vector<std::string>& out) {
    empty_buffers(out, lookup_.p_);
    in_stages<Located>(
        lo, hi, [&](size_t r) { prefetch(r); }, [&](size_t r, Located& l) { locate(r, l); },
        [&](size_t r, Located& l) { answer(r, l, out); });
  }

  uint64_t postings = 0;

 private:
  // Where a request's postings are.
  struct Located {
    std::vector<std::pair<const uint64_t*, const uint64_t*>> buckets;  // per delete, both tables
    std::vector<std::pair<const SoundPosting*, const SoundPosting*>> sounds;
    size_t bucket_postings = 0, sound_postings = 0;
  };

  ranked_messages::DeleteRequest request(size_t r) const {
    return ranked_messages::DeleteRequest::parse(lookup_.asked_.data.data() + lookup_.requests_[r].at);
  }

  void prefetch(size_t r) const {
    const auto q = request(r);
    uint64_t k = 0;
    for (; k < q.na; ++k) index_.deletes_all_.prefetch(q.delete_at(k));
    for (; k < q.na + q.nf; ++k) index_.deletes_frequent_.prefetch(q.delete_at(k));
    for (; k < q.deletes_count(); ++k) index_.sounds_.prefetch(q.delete_at(k));
  }

  // The first and last lines of a list (most are a line or two long).
  static void prefetch_list(const auto* first, const auto* last) {
    if (first == last) return;
    __builtin_prefetch(first);
    __builtin_prefetch(last - 1);
  }

  void locate(size_t r, Located& l) const {
    const auto q = request(r);
    l.buckets.clear();
    l.sounds.clear();
    l.bucket_postings = l.sound_postings = 0;
    for (uint32_t k = 0; k < q.na + q.nf; ++k) {
      const auto found =
          k < q.na ? index_.deletes_all_.find(q.delete_at(k)) : index_.deletes_frequent_.find(q.delete_at(k));
      prefetch_list(found.first, found.second);
      l.bucket_postings += static_cast<size_t>(found.second - found.first);
      l.buckets.push_back(found);
    }
    if (q.ns > 0) locate_sounds(q, l);
  }

  // Of the sound deletes' lists, only the runs that can sound alike; the
  // key's own list (equal keys) whole.
  void locate_sounds(const ranked_messages::DeleteRequest& q, Located& l) const {
    const uint64_t typo = q.sound_key;
    const uint64_t equal = (typo & 0xFF) == kLongSoundKey ? 0 : equal_key_lookup(typo);
    for (uint64_t k = q.na + q.nf; k < q.deletes_count(); ++k) {
      const uint64_t h = q.delete_at(k);
      const auto [first, last] = index_.sounds_.find(h);
      const size_t before = l.sounds.size();
      if (h == equal) {
        if (first != last) l.sounds.emplace_back(first, last);
      } else {
        sound_alike_runs(first, last, typo, l.sounds);
      }
      for (size_t r = before; r < l.sounds.size(); ++r) {
        prefetch_list(l.sounds[r].first, l.sounds[r].second);
        l.sound_postings += static_cast<size_t>(l.sounds[r].second - l.sounds[r].first);
      }
    }
  }

  void answer(size_t r, const Located& l, std::vector<std::string>& out) {
    const auto q = request(r);
    distinct_refs(q, l);
    // Each owner is sent its own numbers of the buckets and entries.
    for (size_t k = 0; k < 3; ++k) {
      const std::vector<uint64_t>& first = k < 2 ? index_.group_first_ : index_.entry_first_;
      groups_.sort(refs_[k], at_[k], lookup_.p_, [&](uint64_t ref) { return holder(first, ref); });
      for (size_t d = 0; d < static_cast<size_t>(lookup_.p_); ++d)
        for (size_t x = at_[k][d]; x < at_[k][d + 1]; ++x) refs_[k][x] -= first[d];
    }
    for (size_t d = 0; d < static_cast<size_t>(lookup_.p_); ++d) {
      const auto owned = [&](size_t k) {
        return std::span<const uint64_t>(refs_[k].data() + at_[k][d], at_[k][d + 1] - at_[k][d]);
      };
      const ranked_messages::ForwardLists lists{owned(0), owned(1), owned(2)};
      if (lists.buckets.empty() && lists.frequent_only.empty() && lists.sound_entries.empty()) continue;
      ranked_messages::encode_bucket_forward(out[d], static_cast<uint32_t>(lookup_.requests_[r].source),
                                             q.words_bytes(), lists);
    }
  }

  // Distinct buckets into refs_, those through the table of every bucket
  // first; distinct sound-alike entries whose key is near enough.
  void distinct_refs(const ranked_messages::DeleteRequest& q, const Located& l) {
    for (auto& x : refs_) x.clear();
    postings += l.bucket_postings;
    seen_.start(l.bucket_postings);
    for (uint32_t k = 0; k < q.na + q.nf; ++k)
      for (const uint64_t* x = l.buckets[k].first; x != l.buckets[k].second; ++x)
        if (seen_.insert(*x)) refs_[k < q.na ? 0 : 1].push_back(*x);
    if (q.ns == 0) return;
    seen_.start(l.sound_postings);
    for (const auto& [first, last] : l.sounds)
      for (const SoundPosting* x = first; x != last; ++x)
        if (packed_sounds_alike(q.sound_key, x->key, index_.params_.sound_distance)) {
          ++postings;
          if (seen_.insert(x->entry)) refs_[2].push_back(x->entry);
        }
  }

  const Lookup& lookup_;
  const RankedIndex& index_;
  std::array<std::vector<uint64_t>, 3> refs_;  // buckets, frequent-only buckets, sound-alike entries
  std::array<std::vector<size_t>, 3> at_;
  SeenKeys seen_;
  OwnerGroups groups_;
};

void RankedIndex::Lookup::forward_to_bucket_owners() {
  requests_ = records_of(asked_, [](std::string_view s, size_t at) {
    return static_cast<size_t>(ranked_messages::DeleteRequest::parse(s.data() + at).end - s.data());
  });
  std::atomic<uint64_t> posted{0};
  in_ranges(requests_.size(), forward_parts_, [&](size_t lo, size_t hi, std::vector<std::string>& out) {
    BucketForwarder forwarder(*this);
    forwarder.forward(lo, hi, out);
    posted.fetch_add(forwarder.postings, std::memory_order_relaxed);
  });
  concat_into(forward_parts_, p_, sent_);
  mpi::alltoallv_bytes(comm_, sent_, forwarded_);
  counts_.postings += posted.load();
}

void RankedIndex::Lookup::group_forwards() {
  forwards_ = records_of(forwarded_, [](std::string_view s, size_t at) {
    return static_cast<size_t>(ranked_messages::BucketForward::parse(s.data() + at).end - s.data());
  });
  // Grouped by (asker, first word): the asker's word number follows its
  // rank, and every forward of a request carries the same words.
  forward_order_.resize(forwards_.size());
  for (size_t k = 0; k < forwards_.size(); ++k)
    forward_order_[k] = {ranked_messages::BucketForward::request_key(forwarded_.data.data() + forwards_[k].at),
                         static_cast<uint32_t>(k)};
  std::sort(forward_order_.begin(), forward_order_.end());
  request_starts_.clear();
  for (size_t k = 0; k < forward_order_.size(); ++k)
    if (k == 0 || forward_order_[k].first != forward_order_[k - 1].first) request_starts_.push_back(k);
  request_starts_.push_back(forward_order_.size());
}

// Step 3 for one thread's requests, at the owners of their buckets and
// entries: a request's forwards (one per owner of some of its deletes)
// taken together, so that each entry is checked once per word, with the
// true distance; the ones that pass are ranked here where they are, and
// only each word's top goes back (the final top is among the union of
// every owner's top). Memory misses, not the distance, are most of the
// cost here, so requests go through three stages a request apart, each
// fetching what the next reads: a request's bucket heads (where its
// entries start, its prefix hash) are fetched two requests ahead; one
// request ahead, the heads are read and its entries' checks fetched; then
// its entries' code points are fetched and it is checked.
class RankedIndex::Lookup::RecordChecker {
 public:
  explicit RecordChecker(const Lookup& lookup)
      : lookup_(lookup),
        index_(lookup.index_),
        params_(lookup.index_.params_),
        checks_(lookup.entry_checks_),
        ranker_(lookup.weights_, params_.replacements) {}

  void check(size_t lo, size_t hi, CheckedPart& out) {
    empty_buffers(out.bytes, lookup_.p_);
    out.checked = out.passed = out.asked = 0;
    in_stages<Gathered>(
        lo, hi, [&](size_t request) { prefetch_buckets(request); },
        [&](size_t request, Gathered& g) { gather(request, g); }, [&](size_t, Gathered& g) { check_words(g, out); });
  }

 private:
  // A request's forwards gathered: its words (every forward carries them)
  // and the distinct buckets over all forwards, those found through the
  // table of every bucket in any forward first (a bucket is frequent-only
  // when no forward found it otherwise), and its distinct sound-alike
  // entries.
  struct Gathered {
    uint32_t asker = 0;
    const char* words = nullptr;  // a WordRun
    std::vector<HashDirectory::Range> ranges;
    std::vector<uint32_t> sound_entries;
  };
  // The typo being checked, as the bounds and the distance read it.
  struct Typo {
    size_t size = 0;  // code points (folded, in q_)
    uint64_t letters = 0;
    LetterCounts tally;
    uint64_t sound = 0;  // packed phonetic key
    char32_t first = 0;
    int distance = 0;  // typo_distance
  };

  ranked_messages::BucketForward forward(size_t k) const {
    const auto& f = lookup_.forwards_[lookup_.forward_order_[k].second];
    return ranked_messages::BucketForward::parse(lookup_.forwarded_.data.data() + f.at);
  }

  void prefetch_buckets(size_t request) const {
    for (size_t k = lookup_.request_starts_[request]; k < lookup_.request_starts_[request + 1]; ++k) {
      const auto f = forward(k);
      for (uint32_t j = 0; j < f.nb + f.nf; ++j) index_.buckets_.prefetch_group(f.ref_at(j));
    }
  }

  void gather(size_t request, Gathered& g) {
    g.ranges.clear();
    g.sound_entries.clear();
    forwards_.clear();
    size_t total = 0;
    for (size_t k = lookup_.request_starts_[request]; k < lookup_.request_starts_[request + 1]; ++k) {
      forwards_.push_back(forward(k));
      total += forwards_.back().nb + forwards_.back().nf + forwards_.back().ne;
    }
    g.asker = forwards_.back().asker;
    g.words = forwards_.back().words;
    // The request's words share their prefix, so their own bucket.
    ranked_messages::WordRun run(g.words);
    uint32_t number = 0;
    const size_t n = fold_word(run.next(number), first_q_);
    const uint64_t own_bucket = prefix_hash(first_q_.data(), n, params_.deletes.prefix_length);
    seen_.start(total);
    for (const auto& f : forwards_)
      for (uint32_t j = 0; j < f.nb; ++j) add_bucket(f.ref_at(j), false, own_bucket, g);
    for (const auto& f : forwards_)
      for (uint32_t j = f.nb; j < f.nb + f.nf; ++j) add_bucket(f.ref_at(j), true, own_bucket, g);
    seen_.start(total);
    for (const auto& f : forwards_)
      for (uint32_t j = f.nb + f.nf; j < f.nb + f.nf + f.ne; ++j) {
        const uint32_t x = f.ref_at(j);
        if (!seen_.insert(x)) continue;
        __builtin_prefetch(&checks_[x]);
        g.sound_entries.push_back(x);
      }
  }

  void add_bucket(uint32_t b, bool frequent_only, uint64_t own_bucket, Gathered& g) {
    if (!seen_.insert(b)) return;
    HashDirectory::Range r = index_.buckets_.group(b);
    __builtin_prefetch(&checks_[r.first]);
    // Only the typo's own bucket can hold an entry at distance 0.
    if (index_.buckets_.group_key(b) != own_bucket) r.first |= kOtherBucket;
    if (frequent_only) r.first |= kFrequentOnly;
    g.ranges.push_back(r);
  }

  void check_words(const Gathered& g, CheckedPart& out) {
    // The code points the distances read (their addresses are in the
    // lines fetched a request ago: these misses overlap each other).
    for (const auto& [tagged, last] : g.ranges)
      __builtin_prefetch(checks_[tagged & ~(kOtherBucket | kFrequentOnly)].folded);
    for (const uint32_t x : g.sound_entries) __builtin_prefetch(checks_[x].folded);
    ranked_messages::WordRun run(g.words);
    for (uint32_t taken = 0; taken < run.size(); ++taken) {
      uint32_t number = 0;
      const std::string_view w = run.next(number);
      check_word(w, g, out);
      if (ranker_.ranked_accepted() || ranker_.ranked_size() > 0) reply(number, out.bytes[g.asker]);
    }
  }

  // Ranks word w's entries among the request's: those within the typo's
  // distance through its buckets, then the sound-alikes beyond it. Entries
  // with a bound of their score (prior, least distance from length and
  // letters, 1 outside the own bucket, the edit a different first letter
  // needs): once the top is full, one whose bound misses its worst score
  // is never checked. Entries at distance 0 first: a word in capitals is
  // then accepted at once.
  void check_word(std::string_view w, const Gathered& g, CheckedPart& out) {
    typo_.size = fold_word(w, q_);
    out.asked += g.ranges.size() + g.sound_entries.size();
    pattern_.assign(q_.data(), typo_.size);
    typo_.letters = letter_set(q_.data(), typo_.size);
    typo_.tally = letter_counts(q_.data(), typo_.size);
    ranker_.start(w, params_.top, true, params_.case_accepts);  // (each entry once per word: the seen sets)
    typo_.first = typo_.size ? q_[0] : 0;
    typo_.sound = pack_sound_key(ranker_.typo_sound(), typo_.first);
    typo_.distance = typo_distance(params_, typo_.size);
    const int max_d = params_.deletes.max_distance;
    for (const auto& [tagged, last] : g.ranges) {
      const int floor = tagged & kOtherBucket ? 1 : 0;
      const bool frequent_only = tagged & kFrequentOnly;
      // (Not while an entry at distance 0 may still accept the word.)
      const bool may_stop = floor > 0 || !ranker_.accepts_by_case();
      for (uint32_t x = tagged & ~(kOtherBucket | kFrequentOnly); x != last; ++x) {
        const bool far = checks_[x].far;
        if (frequent_only && !far) break;  // a bucket's entries go by count: the rest are rare too
        // No entry from here on in the bucket can enter the top: their
        // best prior at the least distance they can have misses it.
        if (may_stop && !ranker_.worth(ranker_.bound(checks_[x].best_prior_on, floor))) break;
        check_entry(x, floor, std::min(typo_.distance, far ? max_d : index_.rare_distance_), false, out);
      }
    }
    const int reach = sound_alike_reach(typo_.size);
    for (const uint32_t x : g.sound_entries) check_entry(x, typo_.distance + 1, reach, true, out);
  }

  // Offers entry x to the ranker if it is within `limit` edits (and at
  // least `floor`) and, for a sound-alike, its key is near enough.
  [[gnu::always_inline]] void check_entry(uint32_t x, int floor, int limit, bool sound, CheckedPart& out) {
    const EntryCheck& b = checks_[x];
    const size_t en = b.size, qn = typo_.size;
    const int least =
        std::max({static_cast<int>(en > qn ? en - qn : qn - en), letter_set_bound(typo_.letters, b.letters),
                  letter_count_bound(typo_.tally, b.counts), floor});
    if (least > limit) return;
    const bool other_first = en > 0 && qn > 0 && b.first != typo_.first;
    // Distance 0 accepts a word in capitals whatever the others score.
    const bool must = least == 0 && ranker_.accepts_by_case();
    if (!must && !ranker_.worth(ranker_.bound(b.prior, least, other_first))) return;
    ++out.checked;
    const int d = pattern_.distance(b.folded, en, limit);
    if (d > limit) return;
    if (sound && !sounds_near(x, d)) return;
    ++out.passed;
    // (At distance 0 a word in capitals is accepted, as above.)
    if (!(d == 0 && ranker_.accepts_by_case()) && !ranker_.worth(ranker_.bound(b.prior, d, other_first))) return;
    const int sound_d = packed_key_distance(typo_.sound, b.sound);
    // (offer takes the prior: the counts are not read, so not fetched.)
    ranker_.offer(FoundEntry{{},
                             0,
                             0,
                             static_cast<uint8_t>(d),
                             sound_d < 0 ? index_.buckets_.sound_key(x) : std::string_view(),
                             b.folded,
                             en,
                             b.has_capital,
                             static_cast<int8_t>(sound_d),
                             &index_.buckets_.spellings(),
                             x},
                  b.prior);
  }

  // A sound-alike at distance d is one beyond the typo's distance (within
  // it, it came through its bucket already) whose key is near enough.
  bool sounds_near(uint32_t x, int d) const {
    if (d <= typo_.distance) return false;
    const EntryCheck& b = checks_[x];
    const int key_limit = b.sound_one_edit ? params_.sound_distance : 0;
    const int kd = key_limit <= 1 ? packed_key_distance(typo_.sound, b.sound) : -1;
    if (kd >= 0) return !(kd > 0 && (kd > key_limit || b.first != typo_.first));
    return sounds_alike(ranker_.typo_sound(), typo_.first, index_.buckets_.sound_key(x), b.first, key_limit);
  }

  void reply(uint32_t number, std::string& s) {
    ranked_messages::encode_reply_head(s, number, ranker_.ranked_accepted(),
                                       static_cast<uint32_t>(ranker_.ranked_size()));
    ranker_.each_ranked([&](std::string_view spelled, int64_t score, uint8_t distance) {
      ranked_messages::encode_reply_candidate(s, spelled, score, distance);
    });
  }

  const Lookup& lookup_;
  const RankedIndex& index_;
  const RankedParams& params_;
  const std::vector<EntryCheck>& checks_;
  SuggestionRanker ranker_;
  OsaPattern pattern_;
  std::vector<char32_t> q_, first_q_;
  Typo typo_;
  SeenKeys seen_;
  std::vector<ranked_messages::BucketForward> forwards_;  // gather()'s
};

void RankedIndex::Lookup::check_at_bucket_owners() {
  group_forwards();
  in_ranges(request_starts_.size() - 1, checked_parts_, [&](size_t lo, size_t hi, CheckedPart& out) {
    RecordChecker checker(*this);
    checker.check(lo, hi, out);
  });
  concat_into(checked_parts_, p_, sent_, [](CheckedPart& part) -> std::vector<std::string>& { return part.bytes; });
  for (const auto& part : checked_parts_) {
    counts_.entries_checked += part.checked;
    counts_.found += part.passed;
    counts_.buckets_asked += part.asked;
  }
  mpi::alltoallv_bytes(comm_, sent_, found_);
}

// Step 4: each word's replies from the owners that answered, merged,
// grouped by word (a counting sort: a round's words are 0..m-1). A word
// with one reply takes it as it is: an owner's top is best first already.
void RankedIndex::Lookup::merge_replies() {
  const size_t m = round_size_, b = round_begin_;
  replies_.clear();
  const char* const end = found_.data.data() + found_.data.size();
  for (const char* c = found_.data.data(); c < end;) {
    const auto reply = ranked_messages::OwnerReply::parse(c);
    if (reply.number >= m) throw std::logic_error("ranked lookup: a reply for a word not asked");
    replies_.emplace_back(reply.number, c);
    c = reply.end;
  }
  reply_starts_.assign(m + 1, 0);
  for (const auto& [word, at] : replies_) ++reply_starts_[word + 1];
  for (size_t w = 0; w < m; ++w) reply_starts_[w + 1] += reply_starts_[w];
  replies_by_word_.resize(replies_.size());
  for (const auto& [word, at] : replies_) replies_by_word_[reply_starts_[word]++] = at;  // (now each word's end)
  for (size_t word = 0, first = 0; word < m; first = reply_starts_[word++]) {
    const size_t last = reply_starts_[word];
    if (first == last) continue;
    const auto one = ranked_messages::OwnerReply::head(replies_by_word_[first]);
    if (last - first == 1 && !one.accepted) {
      result_.start(b + word);
      one.each_candidate([&](std::string_view spelled, int64_t score, uint8_t distance) {
        result_.add(b + word, spelled, score, distance);
      });
      continue;
    }
    merger_.start();
    for (size_t r = first; r < last; ++r) {
      const auto reply = ranked_messages::OwnerReply::head(replies_by_word_[r]);
      if (reply.accepted) merger_.accept();
      reply.each_candidate(
          [&](std::string_view spelled, int64_t score, uint8_t distance) { merger_.add(spelled, score, distance); });
    }
    merger_.finish(result_, b + word, index_.params_.top);
  }
}

}  // namespace spellcheck
