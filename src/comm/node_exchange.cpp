#include "spellcheck/comm/detail/node_exchange.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "spellcheck/common/settings.hpp"
#include "spellcheck/common/wire.hpp"

namespace spellcheck::mpi {

namespace {}  // namespace

NodeLayout make_node_layout(const Comm& comm) {
  NodeLayout l;
  const int rank = comm.rank(), p = comm.size();
  // This rank's node, named by its lowest rank.
  int first_on_node = 0;
  const std::optional<long> slurm_node = settings::slurm_node_id();
  if (const int declared = settings::ranks_per_node(); declared > 0) {
    first_on_node = rank / declared * declared;
  } else if (slurm_node) {
    // Slurm's node of this task (emulated nodes share one machine's memory).
    MPI_Comm same = MPI_COMM_NULL;
    const int node_id = static_cast<int>(*slurm_node);
    check(MPI_Comm_split(comm.get(), node_id, rank, &same), "MPI_Comm_split");
    check(MPI_Allreduce(&rank, &first_on_node, 1, MPI_INT, MPI_MIN, same), "MPI_Allreduce");
    MPI_Comm_free(&same);
  } else {
    MPI_Comm shared = MPI_COMM_NULL;
    check(MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared), "MPI_Comm_split_type");
    check(MPI_Allreduce(&rank, &first_on_node, 1, MPI_INT, MPI_MIN, shared), "MPI_Allreduce");
    MPI_Comm_free(&shared);
  }
  MPI_Comm split = MPI_COMM_NULL;
  check(MPI_Comm_split(comm.get(), first_on_node, rank, &split), "MPI_Comm_split");
  l.node_comm = std::make_unique<Comm>(split);
  MPI_Comm_free(&split);
  l.local = l.node_comm->rank();
  l.per_node = l.node_comm->size();
  // Two levels need L ranks on every node, in blocks: node n = ranks nL..
  const int blocks = first_on_node % l.per_node == 0 && first_on_node + l.local == rank ? 1 : 0;
  int mine[3] = {l.per_node, -l.per_node, blocks}, all[3] = {0, 0, 0};
  check(MPI_Allreduce(mine, all, 3, MPI_INT, MPI_MIN, comm.get()), "MPI_Allreduce");
  const bool uniform = all[0] == -all[1] && all[2] == 1;
  l.nodes = uniform ? p / l.per_node : 1;
  l.node = uniform ? rank / l.per_node : 0;
  check(MPI_Comm_split(comm.get(), l.local, rank, &split), "MPI_Comm_split");
  l.cross_comm = std::make_unique<Comm>(split);
  MPI_Comm_free(&split);
  l.two_level_possible = uniform && l.nodes >= 2 && l.per_node >= 2;
  return l;
}

bool use_two_level(AllToAll how, const NodeLayout& layout, int ranks, uint64_t most_sent_bytes) {
  if (!layout.two_level_possible) return false;
  if (how == AllToAll::two_level) return true;
  if (how != AllToAll::automatic || ranks < kTwoLevelFromRanks) return false;
  const double saved = static_cast<double>(ranks - 1) - (layout.per_node - 1) - (layout.nodes - 1);
  return saved * kStartupSeconds > static_cast<double>(most_sent_bytes) * kCopySecondsPerByte;
}

Bytes alltoallv_two_level(const Comm& comm, const NodeLayout& layout, const Bytes& send) {
  const size_t n_nodes = static_cast<size_t>(layout.nodes), per_node = static_cast<size_t>(layout.per_node);
  const size_t p = static_cast<size_t>(comm.size());
  std::vector<size_t> at(p + 1, 0);
  for (size_t r = 0; r < p; ++r) at[r + 1] = at[r] + send.counts[r];
  // Level 1, inside the node: to the rank at place l, for every node in
  // order, the lengths and then the bytes for the rank at place l there.
  Bytes inner;
  inner.counts.assign(per_node, 0);
  for (size_t l = 0; l < per_node; ++l) {
    const size_t before = inner.data.size();
    for (size_t n = 0; n < n_nodes; ++n) wire::append_le<uint64_t>(inner.data, send.counts[n * per_node + l]);
    for (size_t n = 0; n < n_nodes; ++n) {
      const size_t g = n * per_node + l;
      inner.data.append(send.data, at[g], send.counts[g]);
    }
    inner.counts[l] = inner.data.size() - before;
  }
  const Bytes gathered = alltoallv_bytes_direct(*layout.node_comm, inner);
  // What every rank of this node has for node n's rank at this place.
  std::vector<const char*> part(per_node);
  std::vector<std::vector<uint64_t>> lengths(per_node, std::vector<uint64_t>(n_nodes));
  {
    const char* q = gathered.data.data();
    for (size_t l = 0; l < per_node; ++l) {
      for (size_t n = 0; n < n_nodes; ++n) lengths[l][n] = wire::peek_le<uint64_t>(q + n * sizeof(uint64_t));
      part[l] = q + n_nodes * sizeof(uint64_t);
      q += gathered.counts[l];
    }
  }
  // Level 2, between nodes: to node n's rank at this place, the lengths
  // from each rank of this node, then their bytes in rank order.
  Bytes outer;
  outer.counts.assign(n_nodes, 0);
  std::vector<size_t> taken(per_node, 0);
  for (size_t n = 0; n < n_nodes; ++n) {
    const size_t before = outer.data.size();
    for (size_t l = 0; l < per_node; ++l) wire::append_le<uint64_t>(outer.data, lengths[l][n]);
    for (size_t l = 0; l < per_node; ++l) {
      outer.data.append(part[l] + taken[l], lengths[l][n]);
      taken[l] += lengths[l][n];
    }
    outer.counts[n] = outer.data.size() - before;
  }
  const Bytes got = alltoallv_bytes_direct(*layout.cross_comm, outer);
  // From node n: what its ranks 0..L-1 (global n L + l) sent this rank, in
  // global rank order once the lengths are stripped.
  Bytes recv;
  recv.counts.assign(p, 0);
  size_t total = 0;
  {
    const char* q = got.data.data();
    for (size_t n = 0; n < n_nodes; ++n) {
      for (size_t l = 0; l < per_node; ++l)
        recv.counts[n * per_node + l] = wire::peek_le<uint64_t>(q + l * sizeof(uint64_t));
      q += got.counts[n];
    }
    for (size_t c : recv.counts) total += c;
  }
  recv.data.reserve(total);
  const char* q = got.data.data();
  for (size_t n = 0; n < n_nodes; ++n) {
    recv.data.append(q + per_node * sizeof(uint64_t), got.counts[n] - per_node * sizeof(uint64_t));
    q += got.counts[n];
  }
  return recv;
}

void allgather_words_two_level(const NodeLayout& layout, const uint64_t* mine, size_t n, uint64_t* out) {
  const size_t n_nodes = static_cast<size_t>(layout.nodes), per_node = static_cast<size_t>(layout.per_node);
  // Across nodes: the words of every node's rank at this place, by node.
  std::vector<uint64_t> across(n_nodes * n);
  allgather_words_direct(*layout.cross_comm, mine, n, across.data());
  // Inside the node: every place's, by place then node; out is by rank,
  // node n's rank at place l being n L + l.
  std::vector<uint64_t> inside(per_node * n_nodes * n);
  allgather_words_direct(*layout.node_comm, across.data(), n_nodes * n, inside.data());
  if (n == 0) return;  // no memcpy from the empty buffers' null pointers
  for (size_t l = 0; l < per_node; ++l)
    for (size_t node = 0; node < n_nodes; ++node)
      std::memcpy(out + (node * per_node + l) * n, inside.data() + (l * n_nodes + node) * n, n * sizeof(uint64_t));
}

void allreduce_bor_two_level(const NodeLayout& layout, uint64_t* words, size_t n) {
  const size_t per_node = static_cast<size_t>(layout.per_node);
  // The node's OR on each of its ranks (shared memory), then each rank
  // ORs its 1/L slice with its peers at the same place on the other nodes,
  // and the node puts the slices back together.
  allreduce_bor_direct(*layout.node_comm, words, n);
  const size_t slice = (n + per_node - 1) / per_node;
  const size_t begin = std::min(n, static_cast<size_t>(layout.local) * slice);
  const size_t len = std::min(slice, n - begin);
  allreduce_bor_direct(*layout.cross_comm, words + begin, len);
  std::vector<uint64_t> mine(slice, 0), all(per_node * slice);
  if (len > 0) std::memcpy(mine.data(), words + begin, len * sizeof(uint64_t));
  allgather_words_direct(*layout.node_comm, mine.data(), slice, all.data());
  if (n > 0) std::memcpy(words, all.data(), n * sizeof(uint64_t));
}

}  // namespace spellcheck::mpi
