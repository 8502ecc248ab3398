#pragma once
// Node-aware all-to-all: ranks on one node exchange first, then one message
// crosses between each pair of nodes' ranks at the same place on their
// nodes. With N nodes of L ranks, a rank sends (L - 1) + (N - 1) messages
// instead of N L - 1, each carrying what L ranks had for the other side:
// fewer, larger messages across the network, where start-up costs dominate
// at scale. The bytes cross the node boundary once, as before, plus one
// copy inside the node.
//
// Which ranks share a node: SPELLCHECK_RANKS_PER_NODE=L if set (rank r is on
// node r / L: emulated nodes, tests), else SLURM_NODEID if set (under Slurm,
// emulated nodes too), else MPI_Comm_split_type(SHARED). The
// two levels need the same L everywhere and ranks placed by node in blocks
// (node n holds ranks nL .. nL + L - 1, mpirun's and srun's default block
// placement); otherwise, or on one node, the exchange stays direct.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "spellcheck/comm/mpi.hpp"

namespace spellcheck::mpi {

struct NodeLayout {
  int nodes = 1, per_node = 1;  // N and L (valid when two_level_possible)
  int node = 0, local = 0;      // this rank's node, and its place on it
  bool two_level_possible = false;
  std::unique_ptr<Comm> node_comm;   // this node's ranks, by rank
  std::unique_ptr<Comm> cross_comm;  // the ranks at this place on every node, by node
};

// Collective over comm.
NodeLayout make_node_layout(const Comm& comm);

// automatic: two levels are considered from this many ranks on.
constexpr int kTwoLevelFromRanks = 16;
// What automatic weighs (results/MODEL.txt's assumed InfiniBand-class
// network): a start-up across nodes, and a byte copied once more inside a
// node (the extra hop two levels take).
constexpr double kStartupSeconds = 1.5e-6;
constexpr double kCopySecondsPerByte = 0.1e-9;

// Whether `how` asks for two levels here. automatic: from 16 ranks on, when
// the start-ups two levels save per rank, (NL - 1) - (L - 1) - (N - 1), cost
// more than copying the most any rank sends (most_sent_bytes, the same on
// every rank) once more: the same answer on every rank.
bool use_two_level(AllToAll how, const NodeLayout& layout, int ranks, uint64_t most_sent_bytes);

// Collective over comm: alltoallv_bytes in two levels (layout from comm,
// two_level_possible). Same result as the direct exchange.
Bytes alltoallv_two_level(const Comm& comm, const NodeLayout& layout, const Bytes& send);

// The filters' collectives in two levels, where every byte reaches every
// rank: across nodes first (each rank with its peers at the same place, so
// a node's link carries each byte once, not once per rank of the node),
// then inside the node. Same results as the direct forms. They take two
// levels wherever use_two_level(how, layout, ranks, 0) does: the link
// traffic they save grows with the bytes, so no size outweighs it.
void allgather_words_two_level(const NodeLayout& layout, const uint64_t* mine, size_t n, uint64_t* out);
void allreduce_bor_two_level(const NodeLayout& layout, uint64_t* words, size_t n);

}  // namespace spellcheck::mpi
