#pragma once
// The filters every rank probes before it asks an owner, built collectively
// from the shards: the Bloom filter of the dictionary's keys, the OR of the
// shards' trigram filters, the affix filter. The filters themselves are the
// modules bloom_filter, trigram_filter and affix_filter.
#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/dictionary/affix_filter.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/trigram_filter.hpp"

namespace spellcheck {

class Shard;
enum class FilterExchange;  // a setting of the run (options.hpp)

// Collective: the filter every rank probes before any lookup. allgather:
// each rank fills a segment for its own shard (sized for the largest shard)
// and all segments are allgathered, so the probe also knows the owner;
// allreduce: one filter sized for the whole dictionary, OR-reduced.
BloomFilter build_filter(const mpi::Comm& comm, const Shard& shard, double bits_per_entry, FilterExchange how);

// Collective: the OR over ranks of every shard's trigram filter.
TrigramFilter build_trigram_filter(const mpi::Comm& comm, const Shard& shard);

// Collective: the prefixes and suffixes of every shard's keys, OR-reduced.
AffixFilter build_affix_filter(const mpi::Comm& comm, const Shard& shard);

}  // namespace spellcheck
