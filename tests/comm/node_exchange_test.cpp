// use_two_level: when the default --exchange auto takes two levels. The
// exchange itself is checked against the direct one in
// mpi_collectives_mpi_test and, through the whole program, by
// tests/exchange_choice.sh.
#include <doctest/doctest.h>

#include "spellcheck/comm/detail/node_exchange.hpp"

using namespace spellcheck;
using mpi::AllToAll;

namespace {
mpi::NodeLayout nodes_of(int nodes, int per_node) {
  mpi::NodeLayout l;
  l.nodes = nodes;
  l.per_node = per_node;
  l.two_level_possible = nodes >= 2 && per_node >= 2;
  return l;
}
}  // namespace

TEST_CASE("two levels only where the layout allows them") {
  const mpi::NodeLayout one_node = nodes_of(1, 16);
  for (AllToAll how : {AllToAll::direct, AllToAll::two_level, AllToAll::automatic})
    CHECK_FALSE(mpi::use_two_level(how, one_node, 16, 0));
  const mpi::NodeLayout four = nodes_of(4, 4);
  CHECK(mpi::use_two_level(AllToAll::two_level, four, 16, uint64_t{1} << 40));
  CHECK_FALSE(mpi::use_two_level(AllToAll::direct, four, 16, 0));
}

TEST_CASE("auto: from 16 ranks on, while the start-ups saved outweigh the extra copy") {
  // 8 ranks never: too few start-ups to save.
  CHECK_FALSE(mpi::use_two_level(AllToAll::automatic, nodes_of(4, 2), 8, 0));
  // 4 nodes x 4: 15 - 3 - 3 = 9 start-ups saved, worth 9 x 1.5 us = 13.5 us,
  // the copy of 135,000 bytes at 0.1 ns a byte.
  const mpi::NodeLayout four = nodes_of(4, 4);
  CHECK(mpi::use_two_level(AllToAll::automatic, four, 16, 0));
  CHECK(mpi::use_two_level(AllToAll::automatic, four, 16, 134000));
  CHECK_FALSE(mpi::use_two_level(AllToAll::automatic, four, 16, 136000));
  // 64 nodes x 16: 1023 - 15 - 63 = 945 saved, up to 14.175 MB a rank.
  const mpi::NodeLayout big = nodes_of(64, 16);
  CHECK(mpi::use_two_level(AllToAll::automatic, big, 1024, 14000000));
  CHECK_FALSE(mpi::use_two_level(AllToAll::automatic, big, 1024, 14400000));
  // 16 nodes of 1 rank: nothing to gather on a node, so no two levels.
  CHECK_FALSE(mpi::use_two_level(AllToAll::automatic, nodes_of(16, 1), 16, 0));
}
