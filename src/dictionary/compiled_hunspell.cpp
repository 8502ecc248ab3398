#include "spellcheck/dictionary/compiled_hunspell.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string_view>
#include <tuple>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/detail/hash_directory.hpp"

namespace spellcheck {

namespace {

constexpr char kMagic[16] = {'s', 'p', 'e', 'l', 'l', 'c', 'h', 'e', 'c', 'k', '-', 'h', 's', 'p', 'l', '\n'};
constexpr uint32_t kFormat = 1;

struct Header {
  char magic[16];
  uint32_t format;
  uint32_t buckets;
  uint64_t stems, entries, forms, keys, suggestable;  // the load's figures (HunspellLoadStats)
  uint64_t path_bytes, aff_bytes, filter_words, record_bytes, form_bytes;
  uint64_t meta_bytes;
  uint64_t meta_digest;  // of the meta, seeded with the fields before it
};

uint64_t meta_digest(const Header& h, std::string_view meta) {
  return XXH3_64bits_withSeed(meta.data(), meta.size(), XXH3_64bits(&h, offsetof(Header, meta_digest)));
}

// A bucket's neighbourhoods' digest: its records, seeded with its keys'
// and record starts' (n keys, n + 1 starts).
uint64_t records_digest(const uint64_t* keys, const uint64_t* starts, size_t n, std::string_view records) {
  const uint64_t seed = XXH3_64bits_withSeed(keys, n * sizeof(uint64_t), XXH3_64bits(starts, (n + 1) * 8));
  return XXH3_64bits_withSeed(records.data(), records.size(), seed);
}

// Every rank's part, gathered on rank 0.
struct Gathered {
  std::vector<uint64_t> keys, lengths;  // per key: its record's bytes
  std::string records;
  WordList forms;
};

Gathered gather_parts(const mpi::Comm& comm, const HunspellDictionary& d, const WordList& suggestable) {
  const RootNeighbourhoods& local = d.local();
  std::string records;
  std::vector<uint64_t> lengths;
  for (const uint64_t key : local.key_list()) {
    const size_t before = records.size();
    local.serialize(key, records);
    lengths.push_back(records.size() - before);
  }
  const auto as_bytes = [](const std::vector<uint64_t>& v) {
    return std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(uint64_t));
  };
  const mpi::Gathered keys = mpi::gather_bytes(comm, as_bytes(local.key_list()));
  const mpi::Gathered lens = mpi::gather_bytes(comm, as_bytes(lengths));
  mpi::Gathered recs = mpi::gather_bytes(comm, records);
  mpi::Gathered forms = mpi::gather_bytes(comm, suggestable.bytes);
  Gathered g;
  if (comm.rank() != 0) return g;
  const auto words_of = [](const std::string& bytes, std::vector<uint64_t>& out) {
    out.resize(bytes.size() / sizeof(uint64_t));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(uint64_t));
  };
  words_of(keys.bytes, g.keys);
  words_of(lens.bytes, g.lengths);
  g.records = std::move(recs.bytes);
  g.forms.bytes = std::move(forms.bytes);
  g.forms.index();
  return g;
}

// The section's parts on rank 0, each in bucket order.
struct Parts {
  std::vector<uint64_t> keys, starts;
  std::string records, forms;
  std::vector<uint64_t> first_key, first_byte, first_form, first_form_byte;  // per bucket boundary
  std::vector<uint64_t> digests;                                             // per bucket: records, forms
};

void order_neighbourhoods(const Gathered& g, uint32_t buckets, Parts& p) {
  std::vector<uint64_t> at(g.keys.size() + 1, 0);
  std::partial_sum(g.lengths.begin(), g.lengths.end(), at.begin() + 1);
  std::vector<uint32_t> order(g.keys.size());
  std::iota(order.begin(), order.end(), 0);
  const auto bucket_key = [&](uint32_t i) { return std::make_pair(compiled_bucket(g.keys[i], buckets), g.keys[i]); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return bucket_key(a) < bucket_key(b); });
  p.first_key.assign(buckets + 1, 0);
  p.first_byte.assign(buckets + 1, 0);
  p.starts.push_back(0);
  for (const uint32_t i : order) {
    p.keys.push_back(g.keys[i]);
    p.records.append(g.records, at[i], g.lengths[i]);
    p.starts.push_back(p.records.size());
    ++p.first_key[compiled_bucket(g.keys[i], buckets) + 1];
    p.first_byte[compiled_bucket(g.keys[i], buckets) + 1] += g.lengths[i];
  }
  std::partial_sum(p.first_key.begin(), p.first_key.end(), p.first_key.begin());
  std::partial_sum(p.first_byte.begin(), p.first_byte.end(), p.first_byte.begin());
}

void order_forms(const WordList& forms, uint32_t buckets, Parts& p) {
  std::vector<std::tuple<uint32_t, uint64_t, std::string_view>> keyed;
  for (size_t i = 0; i < forms.size(); ++i) {
    const uint64_t h = word_hash(forms[i]);
    keyed.emplace_back(compiled_bucket(h, buckets), h, forms[i]);
  }
  std::sort(keyed.begin(), keyed.end());
  p.first_form.assign(buckets + 1, 0);
  p.first_form_byte.assign(buckets + 1, 0);
  for (const auto& [b, h, w] : keyed) {
    p.forms.append(w);
    p.forms.push_back('\n');
    ++p.first_form[b + 1];
    p.first_form_byte[b + 1] += w.size() + 1;
  }
  std::partial_sum(p.first_form.begin(), p.first_form.end(), p.first_form.begin());
  std::partial_sum(p.first_form_byte.begin(), p.first_form_byte.end(), p.first_form_byte.begin());
}

void bucket_digests(uint32_t buckets, Parts& p) {
  for (uint32_t b = 0; b < buckets; ++b) {
    const uint64_t k0 = p.first_key[b], k1 = p.first_key[b + 1];
    p.digests.push_back(records_digest(p.keys.data() + k0, p.starts.data() + k0, k1 - k0,
                                       std::string_view(p.records).substr(p.starts[k0], p.starts[k1] - p.starts[k0])));
    p.digests.push_back(
        XXH3_64bits(p.forms.data() + p.first_form_byte[b], p.first_form_byte[b + 1] - p.first_form_byte[b]));
  }
}

// A one-segment filter of every rank's keys (collective).
BloomFilter key_filter(const mpi::Comm& comm, const RootNeighbourhoods& local, double bits) {
  const uint64_t keys = mpi::allreduce_sum(comm, static_cast<uint64_t>(local.keys()));
  BloomFilter filter(1, BloomFilter::blocks_for(std::max<uint64_t>(keys, 1), bits));
  for (const uint64_t key : local.key_list()) filter.insert_unshared(key, 0);
  mpi::allreduce_bor(comm, filter.data(), filter.words());
  return filter;
}

// Reads the section's parts, each checked.
class SectionReader {
 public:
  SectionReader(const HunspellSection& s, int rank, int ranks) : s_(s) { read_meta(rank, ranks); }

  [[noreturn]] void damaged(const std::string& what) const {
    throw InputError(s_.name + ": a damaged compiled dictionary (its hunspell " + what + "); compile it again");
  }
  const Header& header() const { return h_; }
  const std::string& aff() const { return aff_; }
  const std::string& path() const { return path_; }
  BloomFilter take_filter() { return std::move(filter_); }
  BucketRange range() const { return range_; }

  // The keys, record starts and records of the range's buckets.
  void neighbourhoods(std::vector<uint64_t>& keys, std::vector<uint64_t>& starts, std::string& records) const {
    const uint64_t k0 = first_key_[range_.first], k1 = first_key_[range_.last];
    keys.resize(k1 - k0);
    starts.resize(k1 - k0 + 1);
    read(keys_at() + k0 * 8, keys.size() * 8, reinterpret_cast<char*>(keys.data()));
    read(starts_at() + k0 * 8, starts.size() * 8, reinterpret_cast<char*>(starts.data()));
    if (starts.front() != first_byte_[range_.first] || starts.back() != first_byte_[range_.last] ||
        !std::is_sorted(starts.begin(), starts.end()))
      damaged("record starts");
    records.resize(starts.back() - starts.front());
    read(records_at() + starts.front(), records.size(), records.data());
    for (uint32_t b = range_.first; b < range_.last; ++b) {
      const uint64_t i = first_key_[b] - k0, n = first_key_[b + 1] - first_key_[b];
      const std::string_view r =
          std::string_view(records).substr(starts[i] - starts.front(), starts[i + n] - starts[i]);
      if (records_digest(keys.data() + i, starts.data() + i, n, r) != digests_[2 * b])
        damaged("bucket " + std::to_string(b) + "'s digest");
    }
  }

  // The forms of the range's buckets ('\n'-terminated).
  std::string forms() const {
    const uint64_t f0 = first_form_byte_[range_.first], f1 = first_form_byte_[range_.last];
    std::string bytes(f1 - f0, '\0');
    read(forms_at() + f0, bytes.size(), bytes.data());
    for (uint32_t b = range_.first; b < range_.last; ++b)
      if (XXH3_64bits(bytes.data() + (first_form_byte_[b] - f0), first_form_byte_[b + 1] - first_form_byte_[b]) !=
          digests_[2 * b + 1])
        damaged("forms of bucket " + std::to_string(b));
    if (!bytes.empty() && bytes.back() != '\n') damaged("forms");
    return bytes;
  }

 private:
  uint64_t keys_at() const { return s_.at + sizeof(Header) + h_.meta_bytes; }
  uint64_t starts_at() const { return keys_at() + h_.keys * 8; }
  uint64_t records_at() const { return starts_at() + (h_.keys + 1) * 8; }
  uint64_t forms_at() const { return records_at() + h_.record_bytes; }

  void read(uint64_t at, size_t n, char* dest) const {
    if (n > 0 && !s_.read(at, n, dest)) throw InputError(s_.name + ": a truncated compiled dictionary");
  }

  void read_meta(int rank, int ranks) {
    if (s_.bytes < sizeof h_) throw InputError(s_.name + ": a truncated compiled dictionary");
    read(s_.at, sizeof h_, reinterpret_cast<char*>(&h_));
    if (std::memcmp(h_.magic, kMagic, sizeof kMagic) != 0 || h_.format != kFormat || h_.buckets == 0 ||
        h_.buckets > kMaxCompiledBuckets || (h_.buckets & (h_.buckets - 1)) != 0 || h_.meta_bytes > s_.bytes)
      damaged("header");
    std::string meta(h_.meta_bytes, '\0');
    read(s_.at + sizeof h_, meta.size(), meta.data());
    if (meta_digest(h_, meta) != h_.meta_digest) damaged("tables' digest");
    const uint64_t boundaries = uint64_t{h_.buckets} + 1;
    if (h_.meta_bytes != h_.path_bytes + h_.aff_bytes + h_.filter_words * 8 + (4 * boundaries + 2 * h_.buckets) * 8 ||
        s_.bytes != sizeof h_ + h_.meta_bytes + (2 * h_.keys + 1) * 8 + h_.record_bytes + h_.form_bytes)
      damaged("sizes");
    constexpr uint64_t kWordsPerBlock = BloomFilter::kBlockBytes / sizeof(uint64_t);
    if (h_.filter_words == 0 || h_.filter_words % kWordsPerBlock != 0) damaged("filter");
    if (static_cast<uint64_t>(ranks) > h_.buckets)
      throw InputError(s_.name + ": compiled with " + std::to_string(h_.buckets) + " buckets, it serves at most " +
                       std::to_string(h_.buckets) + " ranks (this run has " + std::to_string(ranks) + ")");
    size_t at = 0;
    path_ = meta.substr(at, h_.path_bytes);
    at += h_.path_bytes;
    aff_ = meta.substr(at, h_.aff_bytes);
    at += h_.aff_bytes;
    filter_ = BloomFilter(1, h_.filter_words / kWordsPerBlock);
    std::memcpy(filter_.data(), meta.data() + at, h_.filter_words * 8);
    at += h_.filter_words * 8;
    for (auto* table : {&first_key_, &first_byte_, &first_form_, &first_form_byte_}) {
      table->resize(boundaries);
      std::memcpy(table->data(), meta.data() + at, boundaries * 8);
      at += boundaries * 8;
      if (table->front() != 0 || !std::is_sorted(table->begin(), table->end())) damaged("bucket tables");
    }
    if (first_key_.back() != h_.keys || first_byte_.back() != h_.record_bytes ||
        first_form_byte_.back() != h_.form_bytes)
      damaged("bucket tables");
    digests_.resize(2 * h_.buckets);
    std::memcpy(digests_.data(), meta.data() + at, digests_.size() * 8);
    range_ = owned_buckets(rank, ranks, h_.buckets);
  }

  const HunspellSection& s_;
  Header h_{};
  std::string path_, aff_;
  BloomFilter filter_;
  std::vector<uint64_t> first_key_, first_byte_, first_form_, first_form_byte_, digests_;
  BucketRange range_;
};

// The members of the keys rank of ranks owns (the end buckets' others are
// its neighbours'): their entries, each once however many keys it is
// under, and the (key, entry) pairs, key by key in the file's order (each
// key's members in member order, as serialize wrote them). An entry is
// named by its homonym order (twice its .dic line's number, from 2): a
// flat table indexed by the order finds an entry seen before (orders are
// dense: the table is a few hundred KB).
void members_of_owned_keys(const SectionReader& r, const std::vector<uint64_t>& keys,
                           const std::vector<uint64_t>& starts, std::string_view records, int rank, int ranks,
                           CompiledHunspellPart& part) {
  // (A bound the .dic's lines keep, so that a forged order cannot ask for
  // a huge table.)
  const uint64_t most_orders = 8 * (r.header().stems + r.header().entries) + (uint64_t{1} << 21);
  std::vector<uint32_t> entry_of;
  // (About a member a key, and fewer entries: reserved, not grown.)
  part.entries.entries.reserve(keys.size());
  part.entries.words.reserve(records.size() / 4);
  part.entries.flags.reserve(records.size() / 8);
  part.pairs.reserve(keys.size() + keys.size() / 2);
  try {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (owner_of(keys[i], ranks) != rank) continue;
      size_t at = starts[i] - starts.front();
      const size_t end = starts[i + 1] - starts.front();
      const std::string_view record = records.substr(0, end);
      const auto n = wire::read_le_at<uint32_t>(record, at, "record");
      for (uint32_t m = 0; m < n; ++m) {
        const auto order = wire::read_le_at<uint64_t>(record, at, "record");
        if (order == 0 || order >= most_orders) r.damaged("records");
        const size_t word_bytes = wire::read_le_at<uint16_t>(record, at, "record");
        const std::string_view word = wire::read_bytes_at(record, at, word_bytes, "record");
        const size_t flag_bytes = 2 * size_t{wire::read_le_at<uint16_t>(record, at, "record")};
        const std::string_view flags = wire::read_bytes_at(record, at, flag_bytes, "record");
        if (order >= entry_of.size()) entry_of.resize(std::min(most_orders, 2 * order + 1024), UINT32_MAX);
        uint32_t& entry = entry_of[order];
        if (entry == UINT32_MAX) {
          part.entries.add(order, word, flags);
          entry = static_cast<uint32_t>(part.entries.size() - 1);
        }
        part.pairs.push_back(KeyedEntry{keys[i], entry});
      }
      if (at != end) r.damaged("records");
    }
  } catch (const wire::WireError&) {
    r.damaged("records");
  }
}

}  // namespace

std::string compiled_hunspell_section(const mpi::Comm& comm, const HunspellDictionary& d, const WordList& suggestable,
                                      const HunspellLoadStats& stats, uint32_t buckets, double filter_bits,
                                      WordList* all_forms) {
  const BloomFilter filter = key_filter(comm, d.local(), filter_bits);
  Gathered g = gather_parts(comm, d, suggestable);
  if (comm.rank() != 0) return "";
  Parts p;
  order_neighbourhoods(g, buckets, p);
  order_forms(g.forms, buckets, p);
  bucket_digests(buckets, p);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format = kFormat;
  h.buckets = buckets;
  h.stems = stats.stems;
  h.entries = stats.entries;
  h.forms = stats.forms;
  h.keys = p.keys.size();
  h.suggestable = g.forms.size();
  h.path_bytes = d.path().size();
  h.aff_bytes = d.affix_text().size();
  h.filter_words = filter.words();
  h.record_bytes = p.records.size();
  h.form_bytes = p.forms.size();
  std::string meta = d.path() + d.affix_text();
  meta.append(reinterpret_cast<const char*>(filter.data()), filter.words() * 8);
  for (const auto* table : {&p.first_key, &p.first_byte, &p.first_form, &p.first_form_byte})
    wire::append_vector_le(meta, *table);
  wire::append_vector_le(meta, p.digests);
  h.meta_bytes = meta.size();
  h.meta_digest = meta_digest(h, meta);
  std::string out;
  wire::append_struct(out, h);
  out += meta;
  wire::append_vector_le(out, p.keys);
  wire::append_vector_le(out, p.starts);
  out += p.records;
  out += p.forms;
  if (all_forms) *all_forms = std::move(g.forms);
  return out;
}

CompiledHunspellPart read_compiled_hunspell(const HunspellSection& s, int rank, int ranks) {
  SectionReader r(s, rank, ranks);
  std::vector<uint64_t> keys, starts;
  std::string records;
  r.neighbourhoods(keys, starts, records);
  CompiledHunspellPart part;
  part.aff = r.aff();
  part.dic_path = r.path();
  part.filter = r.take_filter();
  members_of_owned_keys(r, keys, starts, records, rank, ranks, part);
  const Header& h = r.header();
  part.stats.stems = h.stems;
  part.stats.entries = h.entries;
  part.stats.forms = h.forms;
  part.stats.keys = h.keys;
  part.stats.suggestable = h.suggestable;
  part.stats.entries_local = part.entries.size();
  return part;
}

WordList read_compiled_hunspell_forms(const HunspellSection& s, int rank, int ranks) {
  const SectionReader r(s, rank, ranks);
  WordList all;
  all.bytes = r.forms();
  all.index();
  WordList mine;
  for (size_t i = 0; i < all.size(); ++i)
    if (owner_of(word_hash(all[i]), ranks) == rank) mine.push_back(all[i]);
  return mine;
}

}  // namespace spellcheck
