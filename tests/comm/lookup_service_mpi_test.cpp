// The lookup service under stress: tiny batches, many ranks, threads racing
// to submit; every answer must match the truth and every run must end. And
// the candidate phase around it: the service runs on the thread that
// initialised MPI whatever team OpenMP gives, and a thread's exception comes
// out on its rank after the service ended with the others.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/comm/lookup_service.hpp"
#include "spellcheck/common/fault.hpp"
#include "spellcheck/common/options.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/filters.hpp"
#include "spellcheck/dictionary/shard.hpp"
#include "spellcheck/output/timing.hpp"
#include "spellcheck/suggest/detail/candidate_lookups.hpp"
#include "spellcheck/suggest/suggest.hpp"

using namespace spellcheck;

TEST_CASE("remote lookups: answers are right, none lost, termination for any batch size") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  // Dictionary: even numbers, spread over ranks by owner.
  WordList entries;
  std::vector<uint64_t> hashes;
  for (int i = me; i < 20000; i += p)
    if (i % 2 == 0) {
      const std::string w = std::string("n").append(std::to_string(i));
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
      // The master thread serves and sends its own batches; the others
      // submit theirs and may block on the small queue until it polls.
      LookupService service(comm, shard_answer(shard), 4);
      std::atomic<int> through{0};
#pragma omp parallel num_threads(3) reduction(+ : asked)
      {
        const bool master = omp_get_thread_num() == 0;
        const int team = omp_get_num_threads();
        std::vector<RequestBatch> out(static_cast<size_t>(p));
        for (int d = 0; d < p; ++d) out[static_cast<size_t>(d)] = service.fresh_batch(d);
        auto ship = [&](RequestBatch&& b) {
          if (master) {
            service.send(std::move(b));
            service.poll();
          } else {
            service.submit(std::move(b));
          }
        };
        for (int i = omp_get_thread_num(); i < 3000; i += team) {
          const std::string w = std::string("n").append(std::to_string((i * 7 + me) % 20000));
          const uint64_t h = word_hash(w);
          const int o = owner_of(h, p);
          if (o == me) continue;
          ++asked;
          RequestBatch& b = out[static_cast<size_t>(o)];
          add_lookup(b, h, w, Slot{static_cast<uint32_t>(i), EditRef{}});
          if (b.bytes.size() >= batch_bytes) {
            ship(std::move(b));
            b = service.fresh_batch(o);
          }
        }
        for (auto& b : out)
          if (b.records() > 0) ship(std::move(b));
        if (master) service.serve_while([&] { return through.load() < team - 1; });
        else through.fetch_add(1);
      }
      got = slots_of(service.finish());
      CHECK(service.stats().lookups_sent == asked);
    }
    for (int i = 0; i < 3000; ++i) {
      const int n = (i * 7 + me) % 20000;
      const uint64_t h = word_hash(std::string("n").append(std::to_string(n)));
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

// Found by bench/soak.sh: with --batch-bytes 1, about 88,000 single-record
// requests were in flight between two ranks, past Open MPI ob1's 16-bit
// message numbers; replies then came out of order and, matched in arrival
// order, answered the wrong candidates (2,170 of 43,987 lines wrong).
TEST_CASE("every reply answers its own request, and the open requests stay under the cap, when all are sent at once") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  if (p == 1) return;  // nothing is remote
  // About kWords (p - 1) / p single-record requests, all sent before the
  // first poll: far more than the cap lets open (kMaxOpen here; 8192 in the
  // program).
  constexpr int kWords = 6000;
  constexpr size_t kMaxOpen = 100;
  WordList entries;
  std::vector<uint64_t> hashes;
  for (int i = me; i < kWords; i += p)
    if (i % 3 == 0) {
      const std::string w = std::string("w").append(std::to_string(i));
      entries.push_back(w);
      hashes.push_back(word_hash(w));
    }
  Routed r = route_by_owner(comm, entries, hashes);
  Shard shard;
  shard.build(std::move(r.words));
  std::vector<Slot> got;
  std::vector<uint32_t> expected;
  {
    LookupService service(comm, shard_answer(shard), 4, kMaxOpen);
    // Every request goes out before this rank polls once: only the service
    // itself may hold them back.
    for (int i = 0; i < kWords; ++i) {
      const std::string w = std::string("w").append(std::to_string(i));
      const uint64_t h = word_hash(w);
      const int o = owner_of(h, p);
      if (o == me) continue;
      if (i % 3 == 0) expected.push_back(static_cast<uint32_t>(i));
      RequestBatch b = service.fresh_batch(o);
      add_lookup(b, h, w, Slot{static_cast<uint32_t>(i), EditRef{}});
      service.send(std::move(b));
    }
    got = slots_of(service.finish());
    CHECK(service.stats().most_open_requests > 0);
    CHECK(service.stats().most_open_requests == kMaxOpen);  // reached, never passed
  }
  std::vector<uint32_t> words;
  for (const Slot& s : got) words.push_back(s.word);
  std::sort(words.begin(), words.end());
  CHECK(words.size() == expected.size());
  CHECK(words == expected);
}

TEST_CASE("the service refuses a thread other than the one that initialised MPI") {
  int level = 0;
  MPI_Query_thread(&level);
  if (level == MPI_THREAD_MULTIPLE) return;  // any thread may call MPI then
  mpi::Comm comm;
  Shard shard;
  bool refused = false;
  // Refused before its first collective: the other ranks are not involved.
  std::thread other([&] {
    try {
      LookupService service(comm, shard_answer(shard), 4);
    } catch (const mpi::Error&) {
      refused = true;
    }
  });
  other.join();
  CHECK(refused);
}

namespace {
// A small dictionary over a 4-letter alphabet, so that edits hit often; the
// same on every rank (each keeps the entries it owns).
std::vector<std::string> all_entries() {
  std::vector<std::string> out;
  uint64_t x = 12345;
  for (int i = 0; i < 6000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    std::string w;
    const int len = 2 + static_cast<int>((x >> 33) % 5);
    for (int k = 0; k < len; ++k) w += "abcd"[(x >> (40 + 2 * k)) & 3];
    out.push_back(w);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct Phase {
  mpi::Comm comm;
  Shard shard;
  BloomFilter filter;
  WordList misspelled;
  std::set<std::string> dictionary;

  Phase() {
    const int p = comm.size(), me = comm.rank();
    WordList entries;
    std::vector<uint64_t> hashes;
    for (const std::string& w : all_entries()) {
      dictionary.insert(w);
      const uint64_t h = word_hash(w);
      if (owner_of(h, p) == me) {
        entries.push_back(w);
        hashes.push_back(word_hash(w));
      }
    }
    Routed r = route_by_owner(comm, entries, hashes);
    shard.build(std::move(r.words));
    filter = build_filter(comm, shard, 12.0, FilterExchange::allgather);
    uint64_t x = 777 + static_cast<uint64_t>(me);
    for (int i = 0; i < 400; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      std::string w;
      const int len = 1 + static_cast<int>((x >> 33) % 7);
      for (int k = 0; k < len; ++k) w += "abcde"[((x >> (36 + 3 * k)) & 7) % 5];
      misspelled.push_back(w);
    }
  }

  Suggestions run(size_t batch_bytes, CommThread comm_thread = CommThread::shared) {
    Progress progress(false, "candidates", misspelled.size(), "words");
    return suggest(comm, shard, filter, nullptr, nullptr, misspelled, batch_bytes, progress, comm_thread);
  }

  // (word, candidate) of every hit, sorted; and the truth.
  std::vector<std::pair<uint32_t, std::string>> spelled(const Suggestions& s) const {
    std::vector<std::pair<uint32_t, std::string>> out;
    for (const Slot& h : s.hits) out.emplace_back(h.word, apply_edit(misspelled[h.word], h.edit));
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::pair<uint32_t, std::string>> truth() const {
    std::vector<std::pair<uint32_t, std::string>> out;
    Candidates c;
    std::vector<char> buf;
    for (size_t i = 0; i < misspelled.size(); ++i) {
      c.generate(misspelled[i]);
      buf.resize(misspelled[i].size() + 2);
      for (size_t k = 0; k < c.size(); ++k) {
        const std::string s(c.spell(k, buf.data()));
        std::string key = s;  // SPEC: an entry, or a capitalised entry
        key[0] = ascii_lower(key[0]);
        if (dictionary.count(s) || (key != s && dictionary.count(key))) out.emplace_back(static_cast<uint32_t>(i), s);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

// Restores OpenMP's settings at the end of a case.
struct TeamSettings {
  int threads = omp_get_max_threads();
  int dynamic = omp_get_dynamic();
  ~TeamSettings() {
    omp_set_num_threads(threads);
    omp_set_dynamic(dynamic);
  }
};

// Fault hooks for one thread kind. The other kind of thread waits in the
// hook (at most 1 s) until the chosen kind took a chunk: otherwise, on a
// busy machine, it may take them all and the fault never fires.
std::atomic<bool> g_fired{false};
std::atomic<bool> g_arrived{false};
void wait_for_arrival() {
  if (omp_get_num_threads() == 1) return;
  for (int i = 0; i < 1000 && !g_arrived.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}
void throw_on_master(std::string_view phase, size_t) {
  if (phase != "candidates") return;
  if (omp_get_thread_num() != 0) return wait_for_arrival();
  g_arrived = true;
  if (!g_fired.exchange(true)) throw std::runtime_error("injected on the master");
}
void throw_on_worker(std::string_view phase, size_t) {
  if (phase != "candidates") return;
  if (omp_get_thread_num() == 0) return wait_for_arrival();
  g_arrived = true;
  if (!g_fired.exchange(true)) throw std::runtime_error("injected on a worker");
}
}  // namespace

TEST_CASE("the candidate phase finds every candidate whatever team OpenMP gives") {
  TeamSettings restore;
  Phase ph;
  const auto want = ph.truth();
  for (CommThread comm_thread : {CommThread::shared, CommThread::dedicated})
    for (int dynamic : {0, 1})
      for (int threads : {1, 2, 3})
        for (size_t batch_bytes : {size_t{1}, size_t{64}, size_t{1} << 16}) {
          CAPTURE(comm_thread_name(comm_thread));
          CAPTURE(dynamic);
          CAPTURE(threads);
          CAPTURE(batch_bytes);
          omp_set_dynamic(dynamic);
          omp_set_num_threads(threads);
          const Suggestions s = ph.run(batch_bytes, comm_thread);
          CHECK(ph.spelled(s) == want);
          CHECK(s.counts.local_hits + s.counts.remote_hits == s.hits.size());
        }
}

TEST_CASE("a thread's exception comes out on its rank; the service ends with the others") {
  TeamSettings restore;
  Phase ph;
  const auto want = ph.truth();
  const int p = ph.comm.size(), me = ph.comm.rank();
  // (Dedicated, the service thread generates only when alone: a hook
  // waiting for it would wait in vain.)
  const std::vector<std::pair<CommThread, void (*)(std::string_view, size_t)>> cases{
      {CommThread::shared, &throw_on_master},
      {CommThread::shared, &throw_on_worker},
      {CommThread::dedicated, &throw_on_worker}};
  for (const auto& kase : cases)
    for (int threads : {1, 3}) {
      // (Not structured bindings: clang's CAPTURE lambdas may not name them.)
      const CommThread comm_thread = kase.first;
      const auto hook = kase.second;
      for (size_t batch_bytes : {size_t{1}, size_t{1} << 16}) {
        CAPTURE(comm_thread_name(comm_thread));
        CAPTURE(threads);
        CAPTURE(batch_bytes);
        omp_set_num_threads(threads);
        const bool failing_rank = me == p - 1;
        g_fired = false;
        g_arrived = false;
        fault::set_hook(failing_rank ? hook : nullptr);
        bool threw = false;
        try {
          const Suggestions s = ph.run(batch_bytes, comm_thread);
          CHECK(ph.spelled(s) == want);  // the other ranks' results are whole
        } catch (const std::runtime_error& e) {
          threw = true;
          CHECK(std::string(e.what()).find("injected") != std::string::npos);
        }
        fault::set_hook(nullptr);
        // The failing rank throws if and only if its hook fired (a worker
        // exists only in a team of more than one).
        CHECK(threw == (failing_rank && g_fired.load()));
        // Nothing was left in flight: the next phase runs clean.
        const Suggestions again = ph.run(batch_bytes, comm_thread);
        CHECK(ph.spelled(again) == want);
      }
    }
}

TEST_CASE("both filter exchanges hold every shard's keys") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  WordList entries;
  std::vector<uint64_t> hashes;
  for (int i = me; i < 5000; i += p) {
    const std::string w = std::string("k").append(std::to_string(i));
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
      const uint64_t h = word_hash(std::string("k").append(std::to_string(i)));
      missed += f.maybe_contains(h, filter_segment(f, owner_of(h, p))) ? 0 : 1;
    }
    CHECK(missed == 0);
    CHECK(f.segments() == (how == FilterExchange::allgather ? static_cast<size_t>(p) : 1));
  }
}
