#pragma once
// The candidate phase: OpenMP workers generate the edit-1 strings of each
// misspelled word this rank owns (only where the trigram and affix filters
// allow), hash each once, ask the Bloom filter first,
// look own-shard candidates up directly and batch the others for their owners
// through the LookupService.
#include <cstdint>
#include <vector>

#include "spellcheck/comm/lookup_service.hpp"
#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/comm_thread.hpp"
#include "spellcheck/common/progress.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/affix_filter.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/shard.hpp"
#include "spellcheck/dictionary/trigram_filter.hpp"
#include "spellcheck/suggest/candidates.hpp"

namespace spellcheck {

struct SuggestCounts {
  uint64_t generated = 0;        // distinct edit strings
  uint64_t pruned = 0;           // dropped by the trigram or affix filter, never hashed
  uint64_t filter_rejected = 0;  // hashed, then rejected by the Bloom filter
  uint64_t local_lookups = 0;
  uint64_t local_hits = 0;
  uint64_t remote_lookups = 0;  // sent to other ranks
  uint64_t remote_hits = 0;
};

struct Suggestions {
  std::vector<Slot> hits;  // every confirmed candidate, local and remote, in no order
  SuggestCounts counts;
  ServiceStats service;
};

// Collective (the lookup service terminates with all ranks). Runs the lookup
// service on the calling thread, which must be the one that initialised MPI
// (unless MPI_THREAD_MULTIPLE), beside the OpenMP team's generators (one per
// thread OpenMP offers; comm_thread: resolved, not automatic). If any
// thread throws, the service still terminates with the other ranks, then the
// first exception is rethrown on this rank (the others return normally).
Suggestions suggest(const mpi::Comm& comm, const Shard& shard, const BloomFilter& filter, const TrigramFilter* trigrams,
                    const AffixFilter* affixes, const WordList& misspelled, size_t batch_bytes, Progress& progress,
                    CommThread comm_thread = CommThread::shared);

}  // namespace spellcheck
