// The lookup service under stress: tiny batches, many ranks, threads racing
// to submit; every answer must match the truth and every run must end.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <string>

#include "spellcheck/bloom_filter.hpp"
#include "spellcheck/exchange.hpp"
#include "spellcheck/lookup_service.hpp"
#include "spellcheck/shard.hpp"
#include "spellcheck/word_hash.hpp"

using namespace spellcheck;

TEST_CASE("remote lookups: answers are right, none lost, termination for any batch size") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  // Dictionary: even numbers, spread over ranks by owner.
  WordList entries;
  std::vector<uint64_t> hashes;
  for (int i = me; i < 20000; i += p)
    if (i % 2 == 0) {
      const std::string w = "n" + std::to_string(i);
      entries.push_back(w);
      hashes.push_back(word_hash(w));
    }
  Routed r = route_by_owner(comm, entries, hashes);
  Shard shard;
  shard.build(std::move(r.words));

  for (size_t batch_bytes : {size_t{1}, size_t{100}, size_t{1} << 16}) {
    CAPTURE(batch_bytes);
    uint64_t asked = 0;
    std::vector<Slot> expected;
    std::vector<Slot> got;
    {
      LookupService service(comm, shard, 4);
#pragma omp parallel num_threads(2)
      {
        std::vector<RequestBatch> out(static_cast<size_t>(p));
        for (int d = 0; d < p; ++d) out[static_cast<size_t>(d)] = service.fresh_batch(d);
#pragma omp for schedule(dynamic, 7) reduction(+ : asked)
        for (int i = 0; i < 3000; ++i) {
          const std::string w = "n" + std::to_string((i * 7 + me) % 20000);
          const uint64_t h = word_hash(w);
          const int o = owner_of(h, p);
          if (o == me) continue;
          ++asked;
          RequestBatch& b = out[static_cast<size_t>(o)];
          b.add(h, w, Slot{static_cast<uint32_t>(i), EditRef{}});
          if (b.bytes.size() >= batch_bytes) {
            service.submit(std::move(b));
            b = service.fresh_batch(o);
          }
        }
        for (auto& b : out)
          if (b.records() > 0) service.submit(std::move(b));
      }
      got = service.finish();
      CHECK(service.stats().lookups_sent == asked);
    }
    for (int i = 0; i < 3000; ++i) {
      const int n = (i * 7 + me) % 20000;
      const uint64_t h = word_hash("n" + std::to_string(n));
      if (owner_of(h, p) != me && n % 2 == 0) expected.push_back(Slot{static_cast<uint32_t>(i), EditRef{}});
    }
    auto by_word = [](const Slot& a, const Slot& b) { return a.word < b.word; };
    std::sort(got.begin(), got.end(), by_word);
    CHECK(got.size() == expected.size());
    bool same = got.size() == expected.size();
    for (size_t i = 0; same && i < got.size(); ++i) same = got[i].word == expected[i].word;
    CHECK(same);
  }
}

TEST_CASE("both filter exchanges hold every shard's keys") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  WordList entries;
  std::vector<uint64_t> hashes;
  for (int i = me; i < 5000; i += p) {
    const std::string w = "k" + std::to_string(i);
    entries.push_back(w);
    hashes.push_back(word_hash(w));
  }
  Routed r = route_by_owner(comm, entries, hashes);
  Shard shard;
  shard.build(std::move(r.words));
  for (auto how : {FilterExchange::allgather, FilterExchange::allreduce}) {
    const BloomFilter f = build_filter(comm, shard, 12.0, how);
    size_t missed = 0;
    for (int i = 0; i < 5000; ++i) {
      const uint64_t h = word_hash("k" + std::to_string(i));
      missed += f.maybe_contains(h, filter_segment(f, owner_of(h, p))) ? 0 : 1;
    }
    CHECK(missed == 0);
    CHECK(f.segments() == (how == FilterExchange::allgather ? static_cast<size_t>(p) : 1));
  }
}
