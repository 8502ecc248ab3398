#include "spellcheck/suggest/delete_index.hpp"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/osa_distance.hpp"

namespace spellcheck {

namespace {

// Drops the repeats of a spelling (and their frequencies), keeping the first
// of each in the entries' order. Repeats are found by a hash of each
// spelling (a sort of the spellings themselves was a tenth of the index's
// build); equal hashes compare their spellings.
void drop_repeats(WordList& entries, std::vector<uint64_t>& frequency) {
  const size_t n = entries.size();
  std::vector<std::pair<uint64_t, uint64_t>> keyed(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string_view w = entries[i];
    keyed[i] = {XXH3_64bits(w.data(), w.size()), i};
  }
  sort_by_spread_hash(keyed);  // equal hashes together, lowest index first
  std::vector<uint8_t> repeat(n, 0);
  size_t repeats = 0;
  for (size_t k = 1; k < n; ++k)
    for (size_t j = k; j-- > 0 && keyed[j].first == keyed[k].first;)
      if (!repeat[keyed[j].second] && entries[keyed[j].second] == entries[keyed[k].second]) {
        repeat[keyed[k].second] = 1;
        ++repeats;
        break;
      }
  if (repeats == 0) return;
  WordList distinct;
  distinct.bytes.reserve(entries.bytes.size());
  distinct.starts.reserve(n - repeats);
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i)
    if (!repeat[i]) {
      distinct.push_back(entries[i]);
      frequency[kept++] = frequency[i];
    }
  frequency.resize(kept);
  entries = std::move(distinct);
}

// Most hashed strings are short Latin-1 words (prefixes of at most 8 code
// points and their deletes): those are hashed as their bytes, one per code
// point, packed in a word, with a seed of their own (a 4-byte code point is
// never the same input). Deleting a letter is then a shift of the word's
// upper bytes, where the general form copies the code points out.
constexpr uint64_t kPackedSeed = 0x9FB21C651E98DF25ULL;
bool pack_latin1(const char32_t* w, size_t n, uint64_t& packed) {
  if (n > 8) return false;
  uint64_t x = 0;
  char32_t any = 0;
  for (size_t i = 0; i < n; ++i) {
    any |= w[i];
    x |= static_cast<uint64_t>(w[i] & 0xFF) << (8 * i);
  }
  packed = x;
  return any < 256;
}
uint64_t packed_hash(uint64_t packed, size_t n) {
  unsigned char bytes[8];
  for (size_t i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(packed >> (8 * i));
  if (n > 8) __builtin_unreachable();  // (XXH3's paths for longer input are never taken)
  return XXH3_64bits_withSeed(bytes, n, kPackedSeed);
}
// The packed word without its byte i (of n).
uint64_t without_byte(uint64_t packed, size_t i) {
  const uint64_t below = (uint64_t{1} << (8 * i)) - 1;
  return (packed & below) | ((packed >> 8) & ~below);
}

}  // namespace

uint64_t code_point_hash(const char32_t* w, size_t n) {
  uint64_t packed = 0;
  if (pack_latin1(w, n, packed)) return packed_hash(packed, n);
  return XXH3_64bits(w, n * sizeof(char32_t));
}

void prefix_deletes(const char32_t* w, size_t n, const DeleteParams& p, std::vector<uint64_t>& out) {
  out.clear();
  n = std::min({n, p.prefix_length, size_t{64}});  // the options cap prefix_length at 64
  uint64_t packed = 0;
  if (pack_latin1(w, n, packed)) {
    // The same strings as below, by their packed form. Strings of
    // different lengths differ, and the rules above leave the single
    // deletes distinct; two pairs of positions give one string only when a
    // letter repeats (without one, the letters kept differ), so only then
    // are the pairs' strings made distinct, before hashing.
    uint64_t letters[4] = {0, 0, 0, 0};
    bool repeats = false;
    for (size_t i = 0; i < n; ++i) {
      const auto c = static_cast<unsigned>(w[i]);
      repeats = repeats || ((letters[c >> 6] >> (c & 63)) & 1);
      letters[c >> 6] |= uint64_t{1} << (c & 63);
    }
    uint64_t pairs[28];  // n <= 8
    size_t paired = 0;
    out.push_back(packed_hash(packed, n));
    if (p.max_distance >= 1)
      for (size_t i = 0; i < n; ++i) {
        if (i > 0 && w[i] == w[i - 1]) continue;
        const uint64_t one = without_byte(packed, i);
        out.push_back(packed_hash(one, n - 1));
        if (p.max_distance >= 2)
          for (size_t j = i + 1; j < n; ++j) {
            if (j > i + 1 && w[j] == w[j - 1]) continue;
            pairs[paired++] = without_byte(one, j - 1);
          }
      }
    if (repeats) {
      std::sort(pairs, pairs + paired);
      paired = static_cast<size_t>(std::unique(pairs, pairs + paired) - pairs);
    }
    for (size_t k = 0; k < paired; ++k) out.push_back(packed_hash(pairs[k], n - 2));
    return;
  }
  out.push_back(code_point_hash(w, n));
  if (p.max_distance >= 1) {
    // Deleting either of two equal neighbours gives one string: only the
    // first of a run is deleted alone, and a pair's second position skips
    // a letter equal to the one before it unless that one is the first.
    char32_t kept[64];
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && w[i] == w[i - 1]) continue;
      size_t k = 0;
      for (size_t j = 0; j < n; ++j)
        if (j != i) kept[k++] = w[j];
      out.push_back(code_point_hash(kept, k));
    }
    if (p.max_distance >= 2)
      for (size_t i = 0; i < n; ++i) {
        if (i > 0 && w[i] == w[i - 1]) continue;
        for (size_t j = i + 1; j < n; ++j) {
          if (j > i + 1 && w[j] == w[j - 1]) continue;
          size_t k = 0;
          for (size_t x = 0; x < n; ++x)
            if (x != i && x != j) kept[k++] = w[x];
          out.push_back(code_point_hash(kept, k));
        }
      }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

void DeleteTable::build(std::vector<std::pair<uint64_t, uint64_t>> pairs) {
  // Keys as the slots keep them first: hashes 0 and 1 are then one delete
  // with the postings of both.
  for (auto& pr : pairs) {
    if (pr.second & kList) throw std::invalid_argument("delete table: a posting of 2^63 or more");
    pr.first = HashSlots<uint64_t>::stored_key(pr.first);
  }
  sort_by_spread_hash(pairs);
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  // [i, group_end(i)): the postings of the delete at i.
  auto group_end = [&](size_t i) {
    size_t j = i + 1;
    while (j < pairs.size() && pairs[j].first == pairs[i].first) ++j;
    return j;
  };
  deletes_ = 0;
  size_t listed = 0;  // postings of deletes with more than one
  for (size_t i = 0, j = 0; i < pairs.size(); i = j) {
    j = group_end(i);
    ++deletes_;
    if (j - i > 1) listed += j - i;
  }
  if (listed > std::numeric_limits<uint32_t>::max())
    throw std::length_error("delete table: more than 2^32 postings in lists on one rank (use more ranks)");
  postings_ = pairs.size();
  slots_.reset(deletes_);
  lists_.clear();
  lists_base_ = 0;
  lists_.reserve(listed);
  for (size_t i = 0, j = 0; i < pairs.size(); i = j) {
    j = group_end(i);
    if (j - i == 1) {
      slots_.insert(pairs[i].first, pairs[i].second);
      continue;
    }
    slots_.insert(pairs[i].first, kList | (static_cast<uint64_t>(j - i) << 32) | lists_.size());
    for (size_t k = i; k < j; ++k) lists_.push_back(pairs[k].second);
  }
}

void PrefixBuckets::build(WordList entries, std::vector<uint64_t> frequency, const DeleteParams& p,
                          unsigned bucket_bits) {
  frequency.resize(entries.size(), 0);
  // Each spelling once (a dictionary may repeat lines, on one rank or
  // across ranks): the lookup checks an entry once per word, so no two of
  // its offers spell the same word (SuggestionRanker, distinct_entries).
  drop_repeats(entries, frequency);
  const size_t n = entries.size();
  // Folded code points and bucket hash of every entry, in input order.
  std::vector<char32_t> folded(entries.bytes.size());  // at most one code point per byte
  std::vector<uint64_t> start(n + 1, 0), prefix(n);
  std::vector<uint8_t> capital(n, 0);
  for (size_t e = 0; e < n; ++e) {
    const size_t k = decode_utf8(entries[e], folded.data() + start[e]);
    for (size_t i = 0; i < k; ++i) {
      const char32_t c = folded[start[e] + i];
      folded[start[e] + i] = fold_case(c);
      capital[e] |= folded[start[e] + i] != c;  // is_upper(c)
    }
    start[e + 1] = start[e] + k;
    prefix[e] = prefix_hash(folded.data() + start[e], k, p.prefix_length);
  }
  // Stored in bucket order, so that checking a bucket reads its entries
  // one after another rather than from all over the shard; the most
  // frequent first, so that a best-first search stops early in a bucket.
  // Buckets go in the order of their prefix's letters (a key of its first
  // 8 code points, low bytes), so that the buckets of words next to each
  // other in that order (the lookup asks in it) lie near each other too.
  std::vector<uint64_t> near(n);
  for (size_t e = 0; e < n; ++e) {
    const size_t k = std::min<size_t>({start[e + 1] - start[e], p.prefix_length, 8});
    uint64_t key = 0;
    for (size_t i = 0; i < 8; ++i) key = (key << 8) | (i < k ? folded[start[e] + i] & 0xFF : 0);
    near[e] = key;
  }
  std::vector<uint32_t> by_bucket(n);
  auto sort_entries = [&](bool by_letters) {
    // The keys side by side with the entry (a sort through the entry's
    // number read three arrays at random per comparison).
    struct Keyed {
      uint64_t bucket, near, prefix, frequency;
      uint32_t entry;
    };
    std::vector<Keyed> keyed(n);
    for (size_t e = 0; e < n; ++e) {
      const uint64_t bucket = bucket_bits == 0 ? 0 : static_cast<uint32_t>(prefix[e]) >> (32 - bucket_bits);
      keyed[e] = Keyed{bucket, by_letters ? near[e] : 0, prefix[e], frequency[e], static_cast<uint32_t>(e)};
    }
    std::sort(keyed.begin(), keyed.end(), [&](const Keyed& a, const Keyed& b) {
      if (a.bucket != b.bucket) return a.bucket < b.bucket;
      if (a.near != b.near) return a.near < b.near;
      if (a.prefix != b.prefix) return a.prefix < b.prefix;
      if (a.frequency != b.frequency) return a.frequency > b.frequency;
      return entries[a.entry] < entries[b.entry];
    });
    for (size_t i = 0; i < n; ++i) by_bucket[i] = keyed[i].entry;
  };
  sort_entries(true);
  // Two prefixes whose hashes collide form one bucket; in letter order they
  // could lie apart, so then the buckets go in hash order.
  std::vector<uint64_t> bucket_keys;
  for (size_t i = 0; i < n; ++i)
    if (i == 0 || prefix[by_bucket[i]] != prefix[by_bucket[i - 1]]) bucket_keys.push_back(prefix[by_bucket[i]]);
  std::sort(bucket_keys.begin(), bucket_keys.end());
  if (std::adjacent_find(bucket_keys.begin(), bucket_keys.end()) != bucket_keys.end()) sort_entries(false);
  entries_.clear();
  if (start[n] > std::numeric_limits<uint32_t>::max())
    throw std::length_error("ranked index: over 2^32 code points of entries on one rank (use more ranks)");
  folded_.clear();
  folded_.reserve(start[n]);
  folded_start_.assign(n + 1, 0);
  capital_.assign(n, 0);
  frequency_.resize(n);
  std::vector<uint64_t> prefix_of(n);  // per entry, in the stored order
  for (size_t i = 0; i < n; ++i) {
    const uint32_t e = by_bucket[i];
    entries_.push_back(entries[e]);
    capital_[i] = capital[e];
    folded_.insert(folded_.end(), folded.begin() + static_cast<std::ptrdiff_t>(start[e]),
                   folded.begin() + static_cast<std::ptrdiff_t>(start[e + 1]));
    folded_start_[i + 1] = static_cast<uint32_t>(folded_.size());
    frequency_[i] = frequency[e];
    prefix_of[i] = prefix[e];
  }
  sound_keys_.clear();
  for (size_t i = 0; i < n; ++i)
    sound_keys_.push_back(phonetic_key(this->folded(static_cast<uint32_t>(i)), folded_size(static_cast<uint32_t>(i))));
  group_start_.clear();
  group_key_.clear();
  for (size_t i = 0; i < n; ++i)
    if (i == 0 || prefix_of[i] != prefix_of[i - 1]) {
      group_start_.push_back(static_cast<uint32_t>(i));
      group_key_.push_back(prefix_of[i]);
    }
  group_start_.push_back(static_cast<uint32_t>(n));
  directory_.build(group_key_, group_start_);
}

void PrefixBuckets::assign(Arrays a, HashDirectory directory) {
  entries_ = std::move(a.entries);
  sound_keys_ = std::move(a.sound_keys);
  folded_ = std::move(a.folded);
  folded_start_ = std::move(a.folded_start);
  capital_ = std::move(a.capital);
  frequency_ = std::move(a.frequency);
  group_start_ = std::move(a.group_start);
  group_key_ = std::move(a.group_key);
  directory_ = std::move(directory);
  collection_.clear();
}

size_t PrefixBuckets::bytes() const {
  return entries_.bytes.size() + entries_.starts.size() * sizeof(entries_.starts[0]) + sound_keys_.bytes.size() +
         sound_keys_.starts.size() * sizeof(sound_keys_.starts[0]) + folded_.size() * sizeof(char32_t) +
         folded_start_.size() * sizeof(uint32_t) + capital_.size() +
         (frequency_.size() + collection_.size()) * sizeof(uint64_t) + group_start_.size() * sizeof(uint32_t) +
         group_key_.size() * sizeof(uint64_t) + directory_.bytes();
}

uint64_t pack_sound_key(std::string_view key, char32_t first_letter) {
  if (key.size() > 6) return kLongSoundKey;
  uint64_t v = key.size();
  for (size_t i = 0; i < key.size(); ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(key[i])) << (8 * (i + 1));
  return v | (static_cast<uint64_t>(first_letter & 0xFF) << 56);
}

size_t unpack_sound_key(uint64_t packed, char (&out)[6]) {
  const size_t n = packed & 0xFF;
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>((packed >> (8 * (i + 1))) & 0xFF);
  return n;
}

bool packed_sounds_alike(uint64_t a, uint64_t b, int max) {
  if ((a & 0xFF) == kLongSoundKey || (b & 0xFF) == kLongSoundKey) return true;
  if (((a ^ b) << 8) == 0) return true;      // the same key (the length and key bytes): distance 0
  if ((a >> 56) != (b >> 56)) return false;  // other first letters: the same key only
  char x[6], y[6];
  const size_t n = unpack_sound_key(a, x), m = unpack_sound_key(b, y);
  return key_distance(x, n, y, m, max) <= max;
}

void sound_alike_runs(const SoundPosting* first, const SoundPosting* last, uint64_t typo,
                      std::vector<std::pair<const SoundPosting*, const SoundPosting*>>& runs) {
  // Short lists are scanned whole: the searches would cost more.
  constexpr std::ptrdiff_t kScanned = 16;
  if ((typo & 0xFF) == kLongSoundKey || last - first <= kScanned) {
    if (first != last) runs.emplace_back(first, last);
    return;
  }
  auto from = [&](const SoundPosting* lo, uint64_t key) {
    return std::partition_point(lo, last, [&](const SoundPosting& x) { return x.key < key; });
  };
  const uint64_t letter = typo >> 56;
  const SoundPosting* none_end = from(first, uint64_t{1} << 56);
  if (first != none_end) runs.emplace_back(first, none_end);
  if (letter == 0) return;  // (its run was the first)
  const SoundPosting* run = from(none_end, letter << 56);
  const SoundPosting* run_end = letter == 0xFF ? last : from(run, (letter + 1) << 56);
  if (run != run_end) runs.emplace_back(run, run_end);
}

int packed_key_distance(uint64_t a, uint64_t b) {
  if ((a & 0xFF) == kLongSoundKey || (b & 0xFF) == kLongSoundKey) return -1;
  if (((a ^ b) << 8) == 0) return 0;
  char x[6], y[6];
  const size_t n = unpack_sound_key(a, x), m = unpack_sound_key(b, y);
  return osa_distance_within_one(x, n, y, m);
}

bool sounds_alike(std::string_view key_a, char32_t first_a, std::string_view key_b, char32_t first_b, int max) {
  if (key_a == key_b) return true;
  if (first_a != first_b) return false;  // other first letters: the same key only
  return key_distance(key_a.data(), key_a.size(), key_b.data(), key_b.size(), max) <= max;
}

int key_distance(const char* a, size_t n, const char* b, size_t m, int max) {
  if (max <= 1) return std::min(osa_distance_within_one(a, n, b, m), max + 1);
  thread_local std::vector<char32_t> x, y;  // no allocation per call once grown
  x.assign(a, a + n);
  y.assign(b, b + m);
  return osa_distance(x.data(), n, y.data(), m, max);
}

}  // namespace spellcheck
