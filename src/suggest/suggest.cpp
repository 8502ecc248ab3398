#include "spellcheck/suggest/suggest.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include "spellcheck/common/fault.hpp"
#include "spellcheck/suggest/candidates.hpp"
#include "spellcheck/suggest/detail/candidate_lookups.hpp"

namespace spellcheck {

namespace {
// How far ahead the probe loop prefetches filter blocks: enough misses in
// flight to hide memory latency, few enough to stay in the fill buffers.
constexpr size_t kPrefetchDistance = 12;
// Own-shard lookups wait in a batch of this many, so that their cache misses
// overlap (Shard::contains_each) instead of stalling the loop one by one.
constexpr size_t kLocalBatch = 64;

// Words a thread takes at a time from the shared counter (what
// schedule(dynamic, 16) did when every thread of the team generated).
constexpr size_t kChunk = 16;
// The service thread, when it generates too, polls after every chunk, and
// after a word once it sent this many batches since its last poll or while
// the workers' queue is filling.
constexpr size_t kSendsBetweenPolls = 8;

struct LocalProbe {
  uint64_t hash;
  Slot slot;
};

// What every generator reads: the shard, the filters, the words and the
// size of a batch.
struct GeneratorInputs {
  const Shard& shard;
  const BloomFilter& filter;
  const TrigramFilter* trigrams;
  const AffixFilter* affixes;
  const WordList& misspelled;
  size_t batch_bytes;
};

// One thread's generator: the candidates of the words it is given, probed
// in the filter, own ones looked up in batches, others batched for their
// owners and handed to the service.
class Generator {
 public:
  Generator(LookupService& service, bool on_service_thread, const GeneratorInputs& in, int p, int me)
      : service_(service),
        on_service_thread_(on_service_thread),
        shard_(in.shard),
        filter_(in.filter),
        trigrams_(in.trigrams),
        affixes_(in.affixes),
        misspelled_(in.misspelled),
        // A batch is one message: it goes out once it reaches the limit
        // (plus one record of at most 8 + 2 + 60,001 bytes).
        batch_bytes_(std::min(in.batch_bytes, mpi::max_message_bytes())),
        p_(p),
        me_(me),
        outbox_(static_cast<size_t>(p)) {
    local_.reserve(kLocalBatch);
    for (int r = 0; r < p; ++r)
      if (r != me) outbox_[static_cast<size_t>(r)] = service.fresh_batch(r);
  }

  void word(size_t wi) {
    // Locals, not members, in the loop: the counters stay in registers (the
    // byte stores of the batches may alias any member).
    const BloomFilter& filter = filter_;
    const int p = p_, me = me_;
    SuggestCounts c = counts;
    cands_.generate(misspelled_[wi], trigrams_, affixes_);
    if (spelled_.size() < cands_.word().size() + 1) spelled_.resize(cands_.word().size() + 1);
    const size_t n = cands_.size();
    c.generated += cands_.generated();
    c.pruned += cands_.pruned();
    if (owner_.size() < n) owner_.resize(n);
    int* const owner = owner_.data();
    for (size_t i = 0; i < n; ++i) owner[i] = p == 1 ? 0 : owner_of(cands_.hash(i), p);
    for (size_t i = 0; i < n && i < kPrefetchDistance; ++i)
      filter.prefetch(cands_.hash(i), filter_segment(filter, owner[i]));
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchDistance < n)
        filter.prefetch(cands_.hash(i + kPrefetchDistance), filter_segment(filter, owner[i + kPrefetchDistance]));
      const uint64_t h = cands_.hash(i);
      const int o = owner[i];
      if (!filter.maybe_contains(h, filter_segment(filter, o))) {
        ++c.filter_rejected;
        continue;
      }
      const Slot slot{static_cast<uint32_t>(wi), cands_.edit(i)};
      if (o == me) {
        ++c.local_lookups;
        local_.push_back(LocalProbe{h, slot});
        if (local_.size() == kLocalBatch) flush_local(c);
        continue;
      }
      const std::string_view cand = cands_.spell(i, spelled_.data());
      ++c.remote_lookups;
      RequestBatch& b = outbox_[static_cast<size_t>(o)];
      add_lookup(b, h, cand, slot);
      if (b.bytes.size() >= batch_bytes_) {
        ship(std::move(b));
        b = service_.fresh_batch(o);
      }
    }
    counts = c;
  }

  // After the last word: the rest of the lookups.
  void finish() {
    flush_local(counts);
    for (auto& b : outbox_)
      if (b.records() > 0) ship(std::move(b));
  }

  // This thread's confirmed own-shard candidates and counts (its own, not
  // a slot of a shared vector: no false sharing between threads).
  std::vector<Slot> hits;
  SuggestCounts counts;
  // Batches sent since the service thread last polled (its own only).
  size_t sent = 0;

 private:
  void ship(RequestBatch&& b) {
    if (on_service_thread_) {
      service_.send(std::move(b));
      ++sent;
    } else {
      service_.submit(std::move(b));
    }
  }

  void flush_local(SuggestCounts& c) {
    shard_.contains_each(
        local_.size(), [&](size_t i) { return local_[i].hash; },
        [&](size_t i) {
          const std::string_view w = misspelled_[local_[i].slot.word];
          if (spelled_.size() < w.size() + 1) spelled_.resize(w.size() + 1);
          return spell_edit(w, local_[i].slot.edit, spelled_.data());
        },
        [&](size_t i) {
          hits.push_back(local_[i].slot);
          ++c.local_hits;
        });
    local_.clear();
  }

  LookupService& service_;
  const bool on_service_thread_;
  const Shard& shard_;
  const BloomFilter& filter_;
  const TrigramFilter* trigrams_;
  const AffixFilter* affixes_;
  const WordList& misspelled_;
  const size_t batch_bytes_;
  const int p_, me_;
  Candidates cands_;
  std::vector<int> owner_;
  std::string spelled_;  // the rare candidate that passes the filter, spelled out
  std::vector<LocalProbe> local_;
  std::vector<RequestBatch> outbox_;
};

// The first exception of any thread of the team, rethrown after the region.
class FirstFailure {
 public:
  void record(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!first_) first_ = std::move(e);
    failed_.store(true, std::memory_order_relaxed);
  }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mu_;
  std::exception_ptr first_;
  std::atomic<bool> failed_{false};
};
}  // namespace

namespace {

// One candidate phase's threads: the service thread (the caller, the one
// that initialised MPI and the master of the OpenMP team) and the
// generators, which take chunks of words from a shared counter.
class CandidatePhase {
 public:
  CandidatePhase(const mpi::Comm& comm, LookupService& service, const GeneratorInputs& in, Progress& progress,
                 size_t threads)
      : comm_(comm), service_(service), in_(in), progress_(progress), hits_(threads), counts_(threads) {}

  // A thread of the team: tid 0 serves, and generates too unless the
  // service thread is dedicated (or it is alone); the others generate.
  // Nothing may escape, and the service thread must serve until every
  // other thread is through, whatever happens.
  void run_thread(size_t tid, int team, bool dedicated) {
    if (tid != 0) {
      generate(tid, false);
      workers_done_.fetch_add(1, std::memory_order_release);
      return;
    }
    if (!dedicated || team == 1) generate(tid, true);
    service_.serve_while([&] { return workers_done_.load(std::memory_order_acquire) < team - 1; });
  }

  // After the region, collective: every rank ends the service, a failing
  // one too, so that the others are not left waiting for its replies or its
  // barrier; then the first failure is rethrown.
  Suggestions finish() {
    Suggestions out;
    out.hits = slots_of(service_.finish());
    failure_.rethrow();
    out.service = service_.stats();
    out.counts.remote_hits = out.hits.size();
    for (size_t t = 0; t < hits_.size(); ++t) {
      out.hits.insert(out.hits.end(), hits_[t].begin(), hits_[t].end());
      const SuggestCounts& c = counts_[t];
      out.counts.generated += c.generated;
      out.counts.pruned += c.pruned;
      out.counts.filter_rejected += c.filter_rejected;
      out.counts.local_lookups += c.local_lookups;
      out.counts.local_hits += c.local_hits;
      out.counts.remote_lookups += c.remote_lookups;
    }
    return out;
  }

 private:
  bool take(size_t& begin, size_t& end) {
    if (failure_.failed()) return false;
    begin = next_.fetch_add(kChunk, std::memory_order_relaxed);
    if (begin >= in_.misspelled.size()) return false;
    end = std::min(begin + kChunk, in_.misspelled.size());
    fault::point("candidates", comm_.rank(), begin);
    return true;
  }

  // Generates chunks until none is left; the service thread (serving)
  // polls between chunks, and between words once it sent a few batches or
  // while the generators' queue is filling.
  void generate(size_t tid, bool serving) {
    try {
      Generator g(service_, serving, in_, comm_.size(), comm_.rank());
      size_t begin = 0, end = 0;
      while (take(begin, end)) {
        for (size_t wi = begin; wi < end; ++wi) {
          g.word(wi);
          if (serving && (g.sent >= kSendsBetweenPolls || service_.queue_filling())) {
            service_.poll();
            g.sent = 0;
          }
        }
        progress_.advance(end - begin);
        if (serving) {
          service_.poll();
          g.sent = 0;
        }
      }
      g.finish();
      hits_[tid] = std::move(g.hits);
      counts_[tid] = g.counts;
    } catch (...) {
      failure_.record(std::current_exception());
    }
  }

  const mpi::Comm& comm_;
  LookupService& service_;
  const GeneratorInputs in_;
  Progress& progress_;
  std::vector<std::vector<Slot>> hits_;  // per thread
  std::vector<SuggestCounts> counts_;    // per thread
  std::atomic<size_t> next_{0};          // the next word nobody took
  std::atomic<int> workers_done_{0};     // threads other than the service thread that are through
  FirstFailure failure_;
};

}  // namespace

// Thread model: the caller (the thread that initialised MPI) becomes the
// master of the OpenMP team and the only thread that calls MPI: it runs the
// lookup service. Dedicated, the team has a generator for each of the
// rank's threads beside it; shared, it is one of them (CandidatePhase). The
// team is as many threads as OpenMP gives (OMP_DYNAMIC, OMP_THREAD_LIMIT,
// nesting: never assumed). A thread's exception stops the generation, the
// service still terminates with the other ranks, and the first exception is
// rethrown after.
Suggestions suggest(const mpi::Comm& comm, const Shard& shard, const BloomFilter& filter, const TrigramFilter* trigrams,
                    const AffixFilter* affixes, const WordList& misspelled, size_t batch_bytes, Progress& progress,
                    CommThread comm_thread) {
  const bool dedicated = comm_thread == CommThread::dedicated;
  const int generators = std::max(1, omp_get_max_threads());
  const int threads = generators + (dedicated ? 1 : 0);
  LookupService service(comm, shard_answer(shard), static_cast<size_t>(4 * generators + 16));
  const GeneratorInputs in{shard, filter, trigrams, affixes, misspelled, batch_bytes};
  CandidatePhase phase(comm, service, in, progress, static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
  phase.run_thread(static_cast<size_t>(omp_get_thread_num()), omp_get_num_threads(), dedicated);
  return phase.finish();
}

}  // namespace spellcheck
