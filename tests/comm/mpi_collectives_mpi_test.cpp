// The collectives of mpi.hpp deliver every byte in place, in one call or in
// rounds. Run as it is (payloads fit one call) and with
// SPELLCHECK_MAX_MESSAGE_BYTES set tiny (tests/cmake/suite_hardening.cmake),
// which splits every payload into many rounds. No REQUIRE: a rank that left
// a test case early would leave the others in a collective.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "spellcheck/comm/detail/node_exchange.hpp"
#include "spellcheck/comm/mpi.hpp"

using namespace spellcheck;

namespace {
// Bytes rank `from` sends rank `to`: a length that differs per pair (some
// empty, one long) and content that says where each byte came from.
std::string payload(int from, int to, size_t salt) {
  size_t len = static_cast<size_t>(from * 7 + to * 13) % 41;
  if (from == 1 && to == 0) len = 1000 + salt;
  if (from == to) len = 0;
  std::string s(len, '\0');
  for (size_t i = 0; i < len; ++i) s[i] = static_cast<char>((from * 31 + to * 17 + i * 3 + salt) & 0xff);
  return s;
}

// What rank `from` sends every rank of p.
mpi::Bytes payloads_from(int from, int p, size_t salt) {
  mpi::Bytes send;
  for (int r = 0; r < p; ++r) {
    const std::string s = payload(from, r, salt);
    send.data += s;
    send.counts.push_back(s.size());
  }
  return send;
}

// The limit in force: SPELLCHECK_MAX_MESSAGE_BYTES if the test runs with it.
void check_limit_in_force() {
  if (const char* env = std::getenv("SPELLCHECK_MAX_MESSAGE_BYTES"))
    CHECK(mpi::max_message_bytes() == std::strtoull(env, nullptr, 10));
  else CHECK(mpi::max_message_bytes() > (size_t{1} << 30));
}
}  // namespace

TEST_CASE("alltoallv_bytes: every peer's bytes, in rank order, any size") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  check_limit_in_force();
  for (size_t salt : {0, 5, 3000}) {
    const mpi::Bytes send = payloads_from(me, p, salt);
    const uint64_t messages_before = mpi::traffic().messages;
    const mpi::Bytes got = mpi::alltoallv_bytes(comm, send);
    std::string want;
    size_t wrong_counts = 0, most_to_one_peer = 0;
    for (int r = 0; r < p; ++r) {
      const std::string s = payload(r, me, salt);
      want += s;
      wrong_counts +=
          got.counts.size() == static_cast<size_t>(p) && got.counts[static_cast<size_t>(r)] == s.size() ? 0 : 1;
      if (r != me) most_to_one_peer = std::max(most_to_one_peer, payload(me, r, salt).size());
    }
    CHECK(wrong_counts == 0);
    CHECK(got.data == want);
    // In rounds, the largest share went in pieces of at most limit / p bytes.
    const size_t piece = std::max<size_t>(1, mpi::max_message_bytes() / static_cast<size_t>(p));
    CHECK(mpi::traffic().messages - messages_before >= (most_to_one_peer + piece - 1) / piece);
  }
  // Into a Bytes kept from call to call (as ranked lookups' rounds do): the
  // same bytes, whether the call before received more or less.
  mpi::Bytes reused;
  for (size_t salt : {3000, 0, 5, 3000}) {
    const mpi::Bytes send = payloads_from(me, p, salt);
    mpi::alltoallv_bytes(comm, send, reused);
    const mpi::Bytes fresh = mpi::alltoallv_bytes(comm, send);
    CHECK(reused.counts == fresh.counts);
    CHECK(reused.data == fresh.data);
  }
}

TEST_CASE("gather_bytes: every rank's bytes at the root, any root") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  for (int root : {0, p - 1}) {
    const std::string mine = payload(me, p, 100 * static_cast<size_t>(me) + 37);
    const mpi::Gathered g = mpi::gather_bytes(comm, mine, root);
    if (me == root) {
      CHECK(g.parts() == static_cast<size_t>(p));
      size_t wrong = 0;
      for (int r = 0; r < p && g.parts() == static_cast<size_t>(p); ++r)
        wrong += g.part(static_cast<size_t>(r)) == payload(r, p, 100 * static_cast<size_t>(r) + 37) ? 0 : 1;
      CHECK(wrong == 0);
    } else {
      CHECK(g.parts() == 0);
    }
  }
}

TEST_CASE("reduce_bytes_to_root: every rank's bytes combined in rank order at rank 0, any size") {
  mpi::Comm comm;
  const int me = comm.rank(), p = comm.size();
  for (size_t salt : {0, 4000}) {
    int combines = 0;
    const std::string got =
        mpi::reduce_bytes_to_root(comm, payload(me, 0, salt) + "|", [&](std::string&& a, std::string&& b) {
          ++combines;
          return a + b;
        });
    if (me == 0) {
      std::string want;
      for (int r = 0; r < p; ++r) want += payload(r, 0, salt) + "|";
      CHECK(got == want);
      int steps = 0;
      while ((1 << steps) < p) ++steps;
      CHECK(combines == steps);  // a tree: log2 p receives at the root, not p - 1
    } else {
      CHECK(got.empty());
    }
  }
}

TEST_CASE("allgather_words, allreduce_bor and broadcast, any size") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  const size_t n = 333;
  std::vector<uint64_t> mine(n), all(n * static_cast<size_t>(p), 0);
  for (size_t i = 0; i < n; ++i) mine[i] = (static_cast<uint64_t>(me) << 32) | i;
  mpi::allgather_words(comm, mine.data(), n, all.data());
  size_t wrong = 0;
  for (size_t r = 0; r < static_cast<size_t>(p); ++r)
    for (size_t i = 0; i < n; ++i) wrong += all[r * n + i] == ((r << 32) | i) ? 0 : 1;
  CHECK(wrong == 0);

  std::vector<uint64_t> bits(n, 0);
  for (size_t i = 0; i < n; ++i) bits[i] = uint64_t{1} << ((i + static_cast<size_t>(me)) % 64);
  mpi::allreduce_bor(comm, bits.data(), n);
  wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t want = 0;
    for (int r = 0; r < p; ++r) want |= uint64_t{1} << ((i + static_cast<size_t>(r)) % 64);
    wrong += bits[i] == want ? 0 : 1;
  }
  CHECK(wrong == 0);

  const std::string text = payload(1, 0, 777);
  CHECK(mpi::broadcast(comm, me == 0 ? text : std::string()) == text);
}

TEST_CASE("two-level all-to-all: the direct exchange's result on emulated nodes of 1-4 ranks, any size") {
  const int p = mpi::Comm().size();
  for (int per_node : {0, 1, 2, 3, 4}) {  // 0: nodes by shared memory (one node here)
    CAPTURE(per_node);
    if (per_node > 0) ::setenv("SPELLCHECK_RANKS_PER_NODE", std::to_string(per_node).c_str(), 1);
    else ::unsetenv("SPELLCHECK_RANKS_PER_NODE");
    mpi::Comm comm;  // a fresh layout
    const int me = comm.rank();
    const mpi::NodeLayout& layout = comm.node_layout();
    const bool possible = per_node >= 2 && p % per_node == 0 && p / per_node >= 2;
    CHECK(layout.two_level_possible == possible);
    if (possible) {
      CHECK(layout.nodes == p / per_node);
      CHECK(layout.node == me / per_node);
      CHECK(layout.local == me % per_node);
    }
    for (size_t salt : {0, 5, 3000}) {
      const mpi::Bytes send = payloads_from(me, p, salt);
      const mpi::Bytes direct = mpi::alltoallv_bytes_direct(comm, send);
      if (possible) {
        const mpi::Bytes two = mpi::alltoallv_two_level(comm, layout, send);
        CHECK(two.counts == direct.counts);
        CHECK(two.data == direct.data);
      }
      // Through the process-wide choice, whatever the layout allows.
      for (auto how : {mpi::AllToAll::two_level, mpi::AllToAll::automatic}) {
        mpi::set_all_to_all(how);
        const mpi::Bytes got = mpi::alltoallv_bytes(comm, send);
        mpi::Bytes into = payloads_from(me, p, 7);  // holding other bytes before
        mpi::alltoallv_bytes(comm, send, into);
        mpi::set_all_to_all(mpi::AllToAll::direct);
        CHECK(got.counts == direct.counts);
        CHECK(got.data == direct.data);
        CHECK(into.counts == direct.counts);
        CHECK(into.data == direct.data);
      }
    }
    // The filters' collectives: allgather and OR in two levels, the direct
    // forms' results (n not a multiple of the ranks on a node included).
    for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{301}}) {
      CAPTURE(n);
      std::vector<uint64_t> mine(n), bits(n);
      for (size_t i = 0; i < n; ++i) {
        mine[i] = (static_cast<uint64_t>(me) << 32) + i * 0x9e3779b97f4a7c15ULL;
        bits[i] = uint64_t{1} << ((i * 7 + static_cast<size_t>(me) * 13) % 64);
      }
      std::vector<uint64_t> all_direct(static_cast<size_t>(p) * n), or_direct = bits;
      mpi::allgather_words_direct(comm, mine.data(), n, all_direct.data());
      mpi::allreduce_bor_direct(comm, or_direct.data(), n);
      if (possible) {
        std::vector<uint64_t> all_two(static_cast<size_t>(p) * n), or_two = bits;
        mpi::allgather_words_two_level(layout, mine.data(), n, all_two.data());
        mpi::allreduce_bor_two_level(layout, or_two.data(), n);
        CHECK(all_two == all_direct);
        CHECK(or_two == or_direct);
      }
      for (auto how : {mpi::AllToAll::two_level, mpi::AllToAll::automatic}) {
        mpi::set_all_to_all(how);
        std::vector<uint64_t> all(static_cast<size_t>(p) * n), ored = bits;
        mpi::allgather_words(comm, mine.data(), n, all.data());
        mpi::allreduce_bor(comm, ored.data(), n);
        mpi::set_all_to_all(mpi::AllToAll::direct);
        CHECK(all == all_direct);
        CHECK(ored == or_direct);
      }
    }
  }
  ::unsetenv("SPELLCHECK_RANKS_PER_NODE");
}
