#include "spellcheck/suggest.hpp"

#include <omp.h>

#include "spellcheck/candidates.hpp"

namespace spellcheck {

namespace {
// How far ahead the probe loop prefetches filter blocks: enough misses in
// flight to hide memory latency, few enough to stay in the fill buffers.
constexpr size_t kPrefetchDistance = 12;
// Own-shard lookups wait in a batch of this many, so that their cache misses
// overlap (Shard::contains_each) instead of stalling the loop one by one.
constexpr size_t kLocalBatch = 64;

struct LocalProbe {
  uint64_t hash;
  Slot slot;
};
}  // namespace

Suggestions suggest(const mpi::Comm& comm, const Shard& shard, const BloomFilter& filter,
                    const TrigramFilter* trigrams, const AffixFilter* affixes, const WordList& misspelled,
                    size_t batch_bytes, Progress& progress) {
  const int p = comm.size();
  const int me = comm.rank();
  const int threads = omp_get_max_threads();
  LookupService service(comm, shard, static_cast<size_t>(4 * threads + 16));
  std::vector<std::vector<Slot>> local_hits(static_cast<size_t>(threads));
  std::vector<SuggestCounts> counts(static_cast<size_t>(threads));

#pragma omp parallel num_threads(threads)
  {
    const size_t tid = static_cast<size_t>(omp_get_thread_num());
    std::vector<Slot>& hits = local_hits[tid];
    SuggestCounts c;
    Candidates cands;
    std::vector<int> owner;
    std::string spelled;  // the rare candidate that passes the filter, spelled out
    std::vector<LocalProbe> local;
    local.reserve(kLocalBatch);
    auto flush_local = [&] {
      shard.contains_each(
          local.size(), [&](size_t i) { return local[i].hash; },
          [&](size_t i) {
            const std::string_view w = misspelled[local[i].slot.word];
            if (spelled.size() < w.size() + 1) spelled.resize(w.size() + 1);
            return spell_edit(w, local[i].slot.edit, spelled.data());
          },
          [&](size_t i) {
            hits.push_back(local[i].slot);
            ++c.local_hits;
          });
      local.clear();
    };
    std::vector<RequestBatch> outbox(static_cast<size_t>(p));
    for (int r = 0; r < p; ++r)
      if (r != me) outbox[static_cast<size_t>(r)] = service.fresh_batch(r);

#pragma omp for schedule(dynamic, 16) nowait
    for (size_t wi = 0; wi < misspelled.size(); ++wi) {
      cands.generate(misspelled[wi], trigrams, affixes);
      if (spelled.size() < cands.word().size() + 1) spelled.resize(cands.word().size() + 1);
      const size_t n = cands.size();
      c.generated += cands.generated();
      c.pruned += cands.pruned();
      if (owner.size() < n) owner.resize(n);
      for (size_t i = 0; i < n; ++i) owner[i] = p == 1 ? 0 : owner_of(cands.hash(i), p);
      for (size_t i = 0; i < n && i < kPrefetchDistance; ++i)
        filter.prefetch(cands.hash(i), filter_segment(filter, owner[i]));
      for (size_t i = 0; i < n; ++i) {
        if (i + kPrefetchDistance < n)
          filter.prefetch(cands.hash(i + kPrefetchDistance), filter_segment(filter, owner[i + kPrefetchDistance]));
        const uint64_t h = cands.hash(i);
        const int o = owner[i];
        if (!filter.maybe_contains(h, filter_segment(filter, o))) {
          ++c.filter_rejected;
          continue;
        }
        const Slot slot{static_cast<uint32_t>(wi), cands.edit(i)};
        if (o == me) {
          ++c.local_lookups;
          local.push_back(LocalProbe{h, slot});
          if (local.size() == kLocalBatch) flush_local();
          continue;
        }
        const std::string_view cand = cands.spell(i, spelled.data());
        ++c.remote_lookups;
        RequestBatch& b = outbox[static_cast<size_t>(o)];
        b.add(h, cand, slot);
        if (b.bytes.size() >= batch_bytes) {
          service.submit(std::move(b));
          b = service.fresh_batch(o);
        }
      }
      progress.advance(1);
    }
    flush_local();
    for (auto& b : outbox)
      if (b.records() > 0) service.submit(std::move(b));
    counts[tid] = c;
  }

  Suggestions out;
  out.hits = service.finish();
  out.service = service.stats();
  out.counts.remote_hits = out.hits.size();
  for (size_t t = 0; t < local_hits.size(); ++t) {
    out.hits.insert(out.hits.end(), local_hits[t].begin(), local_hits[t].end());
    const SuggestCounts& c = counts[t];
    out.counts.generated += c.generated;
    out.counts.pruned += c.pruned;
    out.counts.filter_rejected += c.filter_rejected;
    out.counts.local_lookups += c.local_lookups;
    out.counts.local_hits += c.local_hits;
    out.counts.remote_lookups += c.remote_lookups;
  }
  return out;
}

}  // namespace spellcheck
