// Traffic counters (--stats): what the wrappers count equals what the
// exchanges carried, per rank, and over all ranks what is sent is received;
// a phase's share is what happened inside its timer.
#include <doctest/doctest.h>

#include <numeric>
#include <string>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/output/timing.hpp"

using namespace spellcheck;

namespace {

// Over all ranks (the allgathers' own traffic comes after the deltas).
mpi::Traffic sum_over_ranks(const mpi::Comm& comm, const mpi::Traffic& mine) {
  mpi::Traffic s;
  for (uint64_t v : mpi::allgather(comm, mine.messages)) s.messages += v;
  for (uint64_t v : mpi::allgather(comm, mine.bytes)) s.bytes += v;
  for (uint64_t v : mpi::allgather(comm, mine.messages_received)) s.messages_received += v;
  for (uint64_t v : mpi::allgather(comm, mine.bytes_received)) s.bytes_received += v;
  return s;
}

}  // namespace

TEST_CASE("all-to-all: sent and received bytes and messages as the counts say") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  mpi::Bytes send;
  for (int r = 0; r < p; ++r) {
    const size_t n = (me + 2 * r) % 3 == 0 ? 0 : static_cast<size_t>(100 * me + 7 * r + 1);  // some empty
    send.counts.push_back(n);
    send.data.append(n, static_cast<char>('a' + r));
  }
  const mpi::Traffic before = mpi::traffic();
  const mpi::Bytes got = mpi::alltoallv_bytes(comm, send);
  const mpi::Traffic d = mpi::traffic() - before;
  uint64_t out = 0, in = 0, out_msgs = 0, in_msgs = 0;
  for (int r = 0; r < p; ++r) {
    if (r == me) continue;
    out += send.counts[static_cast<size_t>(r)];
    in += got.counts[static_cast<size_t>(r)];
    out_msgs += send.counts[static_cast<size_t>(r)] > 0;
    in_msgs += got.counts[static_cast<size_t>(r)] > 0;
  }
  const uint64_t count_bytes = static_cast<uint64_t>(p - 1) * mpi::kAlltoallvHeaderBytes;
  CHECK(d.bytes == out + count_bytes);
  CHECK(d.bytes_received == in + count_bytes);
  CHECK(d.messages == out_msgs);
  CHECK(d.messages_received == in_msgs);
  const mpi::Traffic all = sum_over_ranks(comm, d);
  CHECK(all.bytes == all.bytes_received);
  CHECK(all.messages == all.messages_received);
}

TEST_CASE("routing, reductions, gathers, broadcasts: conserved over ranks; one rank counts nothing") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  WordList words;
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 50 + 20 * me; ++i) {
    const std::string w = "word" + std::to_string(i * (me + 1));
    words.push_back(w);
    hashes.push_back(word_hash(w));
  }
  const mpi::Traffic before = mpi::traffic();
  const Routed routed = route_by_owner(comm, words, hashes, {hashes});
  std::vector<uint64_t> v(5, static_cast<uint64_t>(me));
  mpi::allreduce_sum(comm, v);
  mpi::allreduce_max(comm, uint64_t{3});
  mpi::agree(comm, false);
  const std::string mine(static_cast<size_t>(10 * me + 1), 'x');
  const mpi::Gathered g = mpi::gather_bytes(comm, mine);
  mpi::broadcast(comm, me == 0 ? std::string(33, 'b') : std::string());
  mpi::allgather(comm, 1.5);
  const mpi::Traffic d = mpi::traffic() - before;
  if (p == 1) {
    CHECK(d.bytes == 0);
    CHECK(d.messages == 0);
    CHECK(d.bytes_received == 0);
    CHECK(d.messages_received == 0);
  }
  CHECK(routed.words.size() == routed.values.at(0).size());
  const mpi::Traffic all = sum_over_ranks(comm, d);
  CHECK(all.bytes == all.bytes_received);
  CHECK(all.messages == all.messages_received);
  // A gather alone: every rank's count to every other rank, and every other
  // rank's bytes at the root.
  const mpi::Traffic g0 = mpi::traffic();
  const mpi::Gathered again = mpi::gather_bytes(comm, mine);
  const mpi::Traffic gd = mpi::traffic() - g0;
  const uint64_t header = static_cast<uint64_t>(p - 1) * mpi::kGatherHeaderBytes;
  if (me == 0) {
    CHECK(gd.bytes == header);
    CHECK(gd.messages_received == static_cast<uint64_t>(p - 1));
    CHECK(gd.bytes_received == again.bytes.size() - mine.size() + header);
  } else {
    CHECK(gd.bytes == header + mine.size());
    CHECK(gd.messages == 1);
    CHECK(gd.bytes_received == header);
  }
  CHECK(g.parts() == (me == 0 ? static_cast<size_t>(p) : 0));
}

TEST_CASE("a phase timer holds the traffic of its scope") {
  mpi::Comm comm;
  const int p = comm.size();
  Timings t;
  mpi::Bytes send;
  send.counts.assign(static_cast<size_t>(p), 16);
  send.data.assign(16 * static_cast<size_t>(p), 'z');
  mpi::allreduce_sum(comm, uint64_t{1});  // outside any phase
  mpi::Traffic before, after;
  {
    PhaseTimer pt(t, "swap");
    before = mpi::traffic();
    mpi::alltoallv_bytes(comm, send);
    after = mpi::traffic();
  }
  { PhaseTimer pt(t, "quiet"); }
  REQUIRE(t.traffic().size() == 2);
  const mpi::Traffic want = after - before;
  CHECK(t.traffic()[0].bytes == want.bytes);
  CHECK(t.traffic()[0].messages == want.messages);
  CHECK(t.traffic()[0].bytes_received == want.bytes_received);
  CHECK(t.traffic()[0].messages == static_cast<uint64_t>(p - 1));
  CHECK(t.traffic()[1].bytes == 0);
  const auto phases = summarize(comm, t);
  if (comm.rank() == 0) {
    REQUIRE(phases.size() == 2);
    REQUIRE(phases[0].traffic_per_rank.size() == static_cast<size_t>(p));
    for (const auto& r : phases[0].traffic_per_rank)
      CHECK(r.bytes == static_cast<uint64_t>(p - 1) * (16 + mpi::kAlltoallvHeaderBytes));
  }
}
