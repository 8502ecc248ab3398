#include "spellcheck/dictionary/root_neighbourhoods.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

namespace {

bool member_less(const Root* a, const Root* b) {
  if (a->word != b->word) return a->word < b->word;
  return a->order < b->order;
}

}  // namespace

uint64_t neighbourhood_key(const LetterCase& cases, std::string_view word) {
  thread_local std::string folded;
  cases.fold_key(word, folded);
  return XXH3_64bits(folded.data(), folded.size());
}

void RootNeighbourhoods::build(std::vector<StemEntry> entries, std::vector<KeyedEntry> pairs) {
  set_entries(std::move(entries));
  // By key first (integers, spread by their top bits: most keys have one
  // or two members), then each key's members by spelling and homonym order.
  {
    std::vector<std::pair<uint64_t, uint32_t>> by_key(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) by_key[i] = {pairs[i].key, pairs[i].entry};
    sort_by_spread_hash(by_key);
    for (size_t i = 0; i < pairs.size(); ++i) pairs[i] = KeyedEntry{by_key[i].first, by_key[i].second};
  }
  pairs.erase(
      std::unique(pairs.begin(), pairs.end(),
                  [](const KeyedEntry& a, const KeyedEntry& b) { return a.key == b.key && a.entry == b.entry; }),
      pairs.end());
  for (size_t b = 0; b < pairs.size();) {
    size_t e = b + 1;
    while (e < pairs.size() && pairs[e].key == pairs[b].key) ++e;
    if (e - b > 1)
      std::sort(
          pairs.begin() + static_cast<long>(b), pairs.begin() + static_cast<long>(e),
          [&](const KeyedEntry& x, const KeyedEntry& y) { return member_less(&roots_[x.entry], &roots_[y.entry]); });
    b = e;
  }
  link(pairs);
}

void RootNeighbourhoods::build_grouped(PackedEntries entries, const std::vector<KeyedEntry>& pairs) {
  entries_.clear();
  packed_ = std::move(entries);
  roots_.clear();
  roots_.reserve(packed_.size());
  for (const PackedEntries::Entry& e : packed_.entries)
    roots_.push_back(Root{std::string_view(packed_.words).substr(e.word_at, e.word_bytes),
                          packed_.flags.data() + e.flags_at, e.flag_count, e.order});
  link(pairs);
}

void PackedEntries::add(uint64_t order, std::string_view word, std::string_view flag_bytes) {
  const size_t count = flag_bytes.size() / sizeof(Flag);
  if (words.size() + word.size() > UINT32_MAX || flags.size() + count > UINT32_MAX)
    throw std::length_error("packed entries: over 2^32 bytes of words or flags on one rank");
  entries.push_back(Entry{order, static_cast<uint32_t>(words.size()), static_cast<uint32_t>(flags.size()),
                          static_cast<uint16_t>(word.size()), static_cast<uint16_t>(count)});
  words.append(word);
  const char* p = flag_bytes.data();
  for (size_t i = 0; i < count; ++i) flags.push_back(wire::read_le<Flag>(p));
}

void RootNeighbourhoods::set_entries(std::vector<StemEntry> entries) {
  entries_ = std::move(entries);
  packed_ = PackedEntries();
  roots_.clear();
  roots_.reserve(entries_.size());
  for (const StemEntry& e : entries_)
    roots_.push_back(Root{e.word, e.flags.data(), static_cast<uint32_t>(e.flags.size()), e.order});
}

void RootNeighbourhoods::link(const std::vector<KeyedEntry>& pairs) {
  members_.clear();
  members_.reserve(pairs.size());
  key_list_.clear();
  std::vector<uint32_t> starts;
  for (size_t b = 0; b < pairs.size();) {
    size_t e = b;
    starts.push_back(static_cast<uint32_t>(members_.size()));
    while (e < pairs.size() && pairs[e].key == pairs[b].key) members_.push_back(&roots_[pairs[e++].entry]);
    key_list_.push_back(pairs[b].key);
    b = e;
  }
  starts.push_back(static_cast<uint32_t>(members_.size()));
  index_.build(key_list_, starts);
}

RootList RootNeighbourhoods::find(uint64_t key) const {
  const HashDirectory::Range r = index_.find(key);
  return RootList(members_.data() + r.first, r.second - r.first);
}

RootList RootNeighbourhoods::spelled(RootList members, std::string_view word) {
  if (members.size() <= 8) {  // most keys: a few members, a scan beats a search
    size_t b = 0;
    while (b < members.size() && members[b]->word != word) ++b;
    size_t e = b;
    while (e < members.size() && members[e]->word == word) ++e;
    return members.subspan(b, e - b);
  }
  const auto lo = std::lower_bound(members.begin(), members.end(), word,
                                   [](const Root* r, std::string_view w) { return r->word < w; });
  auto hi = lo;
  while (hi != members.end() && (*hi)->word == word) ++hi;
  return RootList(&*members.begin() + (lo - members.begin()), static_cast<size_t>(hi - lo));
}

uint64_t RootNeighbourhoods::bytes() const {
  uint64_t b = roots_.size() * sizeof(Root) + members_.size() * sizeof(std::uintptr_t) + index_.bytes() +
               entries_.size() * sizeof(StemEntry) + key_list_.size() * sizeof(uint64_t) + packed_.words.capacity() +
               packed_.flags.capacity() * sizeof(Flag) + packed_.entries.capacity() * sizeof(PackedEntries::Entry);
  for (const StemEntry& e : entries_) b += e.word.capacity() + e.flags.capacity() * sizeof(Flag);
  return b;
}

void RootNeighbourhoods::serialize(uint64_t key, std::string& out) const {
  const RootList m = find(key);
  wire::append_le<uint32_t>(out, static_cast<uint32_t>(m.size()));
  for (const Root* r : m) {
    append_stem_entry(out, r->order, r->word, r->flags, r->flag_count);
  }
}

void FetchedNeighbourhoods::add(const std::vector<uint64_t>& keys, std::string_view bytes) {
  auto block = std::make_unique<Block>();
  std::vector<std::pair<uint64_t, uint32_t>> counts;
  size_t at = 0;
  for (uint64_t key : keys) {
    const uint32_t n = wire::read_le_at<uint32_t>(bytes, at, "neighbourhood reply");
    counts.emplace_back(key, n);
    for (uint32_t k = 0; k < n; ++k) {
      StemEntry e = read_stem_entry(bytes, at, "neighbourhood reply");
      block->entries.push_back(std::move(e));
    }
  }
  block->roots.reserve(block->entries.size());
  for (const StemEntry& e : block->entries)
    block->roots.push_back(Root{e.word, e.flags.data(), static_cast<uint32_t>(e.flags.size()), e.order});
  size_t r = 0;
  for (const auto& [key, n] : counts) {
    std::vector<const Root*>& list = index_[key];
    list.clear();
    for (uint32_t k = 0; k < n; ++k) list.push_back(&block->roots[r++]);
  }
  blocks_.push_back(std::move(block));
}

const std::vector<const Root*>* FetchedNeighbourhoods::find(uint64_t key) const {
  const auto it = index_.find(key);
  return it == index_.end() ? nullptr : &it->second;
}

void FetchedNeighbourhoods::clear() {
  blocks_.clear();
  index_.clear();
}

NeighbourhoodSource::NeighbourhoodSource(const LetterCase& cases, const RootNeighbourhoods& local,
                                         const FetchedNeighbourhoods* fetched, const BloomFilter& filter, int rank,
                                         int ranks)
    : cases_(cases), local_(local), fetched_(fetched), filter_(filter), rank_(rank), ranks_(ranks) {}

void NeighbourhoodSource::reset() {
  prepared_.clear();
  empty_.clear();
  missing_.clear();
  merged_.clear();
}

bool NeighbourhoodSource::prepare(std::string_view s) {
  const uint64_t key = neighbourhood_key(cases_, s);
  for (const auto& [k, list] : prepared_)
    if (k == key) return true;
  if (std::find(empty_.begin(), empty_.end(), key) != empty_.end()) return false;
  RootList list;
  const int owner = owner_of(key, ranks_);
  if (!filter_.maybe_contains(key, filter_segment(filter_, owner))) {  // first: most keys asked exist nowhere
  } else if (owner == rank_) {
    list = local_.find(key);
  } else {
    const std::vector<const Root*>* got = fetched_ ? fetched_->find(key) : nullptr;
    if (got) list = RootList(got->data(), got->size());
    else if (std::find(missing_.begin(), missing_.end(), key) == missing_.end()) missing_.push_back(key);
  }
  if (list.empty()) {
    empty_.push_back(key);
    return false;
  }
  prepared_.emplace_back(key, list);
  return true;
}

bool NeighbourhoodSource::may_be_spelled(std::string_view head, std::string_view tail) {
  const size_t n = head.size() + tail.size();
  for (const auto& [key, list] : prepared_)
    for (const Root* r : list)
      if (r->word.size() == n && r->word.compare(0, head.size(), head) == 0 &&
          r->word.compare(head.size(), tail.size(), tail) == 0)
        return true;
  return false;
}

RootList NeighbourhoodSource::homonyms(std::string_view word) {
  RootList found;
  std::vector<const Root*>* merged = nullptr;
  for (const auto& [key, list] : prepared_) {
    const RootList here = RootNeighbourhoods::spelled(list, word);
    if (here.empty()) continue;
    if (found.empty() && !merged) {
      found = here;
      continue;
    }
    if (!merged) {  // a second key has entries of this spelling: merge by order
      merged_.push_back(std::make_unique<std::vector<const Root*>>(found.begin(), found.end()));
      merged = merged_.back().get();
    }
    for (const Root* r : here)
      if (std::none_of(merged->begin(), merged->end(), [&](const Root* m) { return m->order == r->order; }))
        merged->push_back(r);
  }
  if (!merged) return found;
  std::sort(merged->begin(), merged->end(), [](const Root* a, const Root* b) { return a->order < b->order; });
  return RootList(merged->data(), merged->size());
}

}  // namespace spellcheck
