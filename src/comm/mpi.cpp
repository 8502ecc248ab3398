#include "spellcheck/comm/mpi.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "spellcheck/comm/detail/node_exchange.hpp"
#include "spellcheck/common/removal_on_signal.hpp"
#include "spellcheck/common/settings.hpp"

namespace spellcheck::mpi {

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string(call) + ": " + std::string(text, static_cast<size_t>(len)));
}

void abort_job(const std::string& what, int code) {
  remove_registered_files();  // the other ranks' handlers do the same on MPI_Abort's SIGTERM
  std::fprintf(stderr, "spellcheck: error: %s\n", what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; if it ever did
}

Traffic& traffic() {
  static Traffic t;
  return t;
}

Environment::Environment(int& argc, char**& argv, int wanted_level) {
  MPI_Init_thread(&argc, &argv, wanted_level, &provided_);
}

Environment::~Environment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

Comm::Comm(MPI_Comm parent) {
  check(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Comm::~Comm() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

Comm::Comm(Comm&& other) noexcept
    : comm_(other.comm_), rank_(other.rank_), size_(other.size_), layout_(std::move(other.layout_)) {
  other.comm_ = MPI_COMM_NULL;
}

size_t max_message_bytes() {
  static const size_t limit = [] {
    constexpr size_t kDefault = (size_t{1} << 31) - (size_t{1} << 20);  // 2 GiB - 1 MiB
    return std::min(kDefault, settings::test_hooks::max_message_bytes().value_or(kDefault));
  }();
  return limit;
}

namespace {
// Bytes per peer in one round of a rounded exchange among p ranks: a
// round's whole buffer (p pieces) stays within the limit too.
uint64_t piece_bytes(int p) { return std::max<uint64_t>(1, max_message_bytes() / static_cast<uint64_t>(p)); }
uint64_t rounds_for(uint64_t bytes, uint64_t piece) { return (bytes + piece - 1) / piece; }
}  // namespace

namespace {
AllToAll g_all_to_all = AllToAll::direct;
}  // namespace

void set_all_to_all(AllToAll how) { g_all_to_all = how; }
AllToAll all_to_all() { return g_all_to_all; }

const NodeLayout& Comm::node_layout() const {
  if (!layout_) layout_ = std::make_shared<NodeLayout>(make_node_layout(*this));
  return *layout_;
}

namespace {
// Whether two levels may be taken at all here; below 16 ranks automatic
// stays direct without asking which ranks share a node.
bool two_levels_considered(int p) {
  return (g_all_to_all == AllToAll::two_level && p > 2) ||
         (g_all_to_all == AllToAll::automatic && p >= kTwoLevelFromRanks);
}

// The layout when the filters' collectives go in two levels, else null.
const NodeLayout* two_level_collectives(const Comm& comm) {
  if (!two_levels_considered(comm.size())) return nullptr;
  const NodeLayout& layout = comm.node_layout();
  return use_two_level(g_all_to_all, layout, comm.size(), 0) ? &layout : nullptr;
}
}  // namespace

Bytes alltoallv_bytes(const Comm& comm, const Bytes& send) {
  Bytes recv;
  alltoallv_bytes(comm, send, recv);
  return recv;
}

void alltoallv_bytes(const Comm& comm, const Bytes& send, Bytes& recv) {
  // The same choice on every rank: the mode, the rank count, the layout and
  // the most any rank sends are the same everywhere.
  const int p = comm.size();
  const bool automatic = g_all_to_all == AllToAll::automatic;
  if (two_levels_considered(p)) {
    const NodeLayout& layout = comm.node_layout();
    if (layout.two_level_possible) {
      uint64_t most = 0;
      if (automatic) {
        uint64_t mine = 0;
        for (size_t r = 0; r < send.counts.size(); ++r)
          if (static_cast<int>(r) != comm.rank()) mine += send.counts[r];
        most = allreduce_max(comm, mine);
      }
      if (use_two_level(g_all_to_all, layout, p, most)) {
        recv = alltoallv_two_level(comm, layout, send);
        return;
      }
    }
  }
  alltoallv_bytes_direct(comm, send, recv);
}

Bytes alltoallv_bytes_direct(const Comm& comm, const Bytes& send) {
  Bytes recv;
  alltoallv_bytes_direct(comm, send, recv);
  return recv;
}

void alltoallv_bytes_direct(const Comm& comm, const Bytes& send, Bytes& recv) {
  const int p = comm.size();
  const size_t np = static_cast<size_t>(p);
  const uint64_t piece = piece_bytes(p);
  // Each rank sends every peer (its count for it, the rounds it needs), so
  // every rank learns the rounds all need without another collective.
  std::vector<uint64_t> out_meta(2 * np), in_meta(2 * np);
  uint64_t my_rounds = 0;
  for (size_t r = 0; r < np; ++r) my_rounds = std::max(my_rounds, rounds_for(send.counts[r], piece));
  for (size_t r = 0; r < np; ++r) {
    out_meta[2 * r] = send.counts[r];
    out_meta[2 * r + 1] = my_rounds;
  }
  check(MPI_Alltoall(out_meta.data(), 2, MPI_UINT64_T, in_meta.data(), 2, MPI_UINT64_T, comm.get()), "MPI_Alltoall");
  recv.counts.assign(np, 0);
  std::vector<size_t> soff(np + 1, 0), roff(np + 1, 0);
  uint64_t rounds = 0;
  for (size_t r = 0; r < np; ++r) {
    recv.counts[r] = in_meta[2 * r];
    rounds = std::max(rounds, in_meta[2 * r + 1]);
    soff[r + 1] = soff[r] + send.counts[r];
    roff[r + 1] = roff[r] + recv.counts[r];
  }
  recv.data.clear();  // (keeps the capacity)
  recv.data.resize(roff[np]);
  std::vector<int> scount(np), rcount(np), sdispl(np), rdispl(np);
  // The header itself: (count, rounds) to and from every peer.
  count_sent(0, static_cast<uint64_t>(p - 1) * kAlltoallvHeaderBytes);
  count_received(0, static_cast<uint64_t>(p - 1) * kAlltoallvHeaderBytes);
  const auto count_pieces = [&] {
    for (size_t r = 0; r < np; ++r) {
      if (static_cast<int>(r) == comm.rank()) continue;
      if (scount[r] > 0) count_sent(1, static_cast<uint64_t>(scount[r]));
      if (rcount[r] > 0) count_received(1, static_cast<uint64_t>(rcount[r]));
    }
  };
  if (rounds <= 1) {  // everything fits one call: straight between the buffers
    for (size_t r = 0; r < np; ++r) {
      scount[r] = narrow<int>(send.counts[r]);
      sdispl[r] = narrow<int>(soff[r]);
      rcount[r] = narrow<int>(recv.counts[r]);
      rdispl[r] = narrow<int>(roff[r]);
    }
    check(MPI_Alltoallv(send.data.data(), scount.data(), sdispl.data(), MPI_BYTE, recv.data.data(), rcount.data(),
                        rdispl.data(), MPI_BYTE, comm.get()),
          "MPI_Alltoallv");
    count_pieces();
    return;
  }
  // Rounds: up to `piece` bytes of each peer's share per round, staged in
  // buffers of at most the limit (sender and receiver cut the same pieces).
  std::string sbuf, rbuf;
  std::vector<size_t> sdone(np, 0), rdone(np, 0);
  for (uint64_t round = 0; round < rounds; ++round) {
    size_t stotal = 0, rtotal = 0;
    for (size_t r = 0; r < np; ++r) {
      const size_t s = std::min<uint64_t>(piece, send.counts[r] - sdone[r]);
      const size_t g = std::min<uint64_t>(piece, recv.counts[r] - rdone[r]);
      scount[r] = narrow<int>(s);
      sdispl[r] = narrow<int>(stotal);
      rcount[r] = narrow<int>(g);
      rdispl[r] = narrow<int>(rtotal);
      stotal += s;
      rtotal += g;
    }
    sbuf.resize(stotal);
    rbuf.resize(rtotal);
    for (size_t r = 0; r < np; ++r)
      std::memcpy(sbuf.data() + sdispl[r], send.data.data() + soff[r] + sdone[r], static_cast<size_t>(scount[r]));
    check(MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), MPI_BYTE, rbuf.data(), rcount.data(), rdispl.data(),
                        MPI_BYTE, comm.get()),
          "MPI_Alltoallv");
    for (size_t r = 0; r < np; ++r) {
      std::memcpy(recv.data.data() + roff[r] + rdone[r], rbuf.data() + rdispl[r], static_cast<size_t>(rcount[r]));
      sdone[r] += static_cast<size_t>(scount[r]);
      rdone[r] += static_cast<size_t>(rcount[r]);
    }
    count_pieces();
  }
}

namespace {
// A reduction (or an agreement) of `bytes`: one message each way.
void count_reduction(const Comm& comm, uint64_t bytes) {
  if (comm.size() == 1) return;
  count_sent(1, bytes);
  count_received(1, bytes);
}

template <class T>
T reduce1(const Comm& comm, T v, MPI_Datatype type, MPI_Op op) {
  T out{};
  check(MPI_Allreduce(&v, &out, 1, type, op, comm.get()), "MPI_Allreduce");
  count_reduction(comm, sizeof(T));
  return out;
}
template <class T>
void reduce_vec(const Comm& comm, std::vector<T>& v, MPI_Datatype type, MPI_Op op) {
  if (v.empty()) return;
  check(MPI_Allreduce(MPI_IN_PLACE, v.data(), narrow<int>(v.size()), type, op, comm.get()), "MPI_Allreduce");
  count_reduction(comm, v.size() * sizeof(T));
}
}  // namespace

uint64_t allreduce_sum(const Comm& c, uint64_t v) { return reduce1(c, v, MPI_UINT64_T, MPI_SUM); }
uint64_t allreduce_max(const Comm& c, uint64_t v) { return reduce1(c, v, MPI_UINT64_T, MPI_MAX); }
uint64_t allreduce_min(const Comm& c, uint64_t v) { return reduce1(c, v, MPI_UINT64_T, MPI_MIN); }
void allreduce_sum(const Comm& c, std::vector<uint64_t>& v) { reduce_vec(c, v, MPI_UINT64_T, MPI_SUM); }
void allreduce_sum(const Comm& c, std::vector<double>& v) { reduce_vec(c, v, MPI_DOUBLE, MPI_SUM); }
void allreduce_min(const Comm& c, std::vector<double>& v) { reduce_vec(c, v, MPI_DOUBLE, MPI_MIN); }
void allreduce_max(const Comm& c, std::vector<double>& v) { reduce_vec(c, v, MPI_DOUBLE, MPI_MAX); }

void allreduce_bor(const Comm& comm, uint64_t* words, size_t n) {
  if (const NodeLayout* layout = two_level_collectives(comm)) allreduce_bor_two_level(*layout, words, n);
  else allreduce_bor_direct(comm, words, n);
}

void allgather_words(const Comm& comm, const uint64_t* mine, size_t n, uint64_t* out) {
  if (const NodeLayout* layout = two_level_collectives(comm)) allgather_words_two_level(*layout, mine, n, out);
  else allgather_words_direct(comm, mine, n, out);
}

void allreduce_bor_direct(const Comm& comm, uint64_t* words, size_t n) {
  // In rounds of at most max_message_bytes().
  const size_t round = std::max<size_t>(1, max_message_bytes() / sizeof(uint64_t));
  for (size_t off = 0; off < n; off += round) {
    const size_t len = std::min(round, n - off);
    check(MPI_Allreduce(MPI_IN_PLACE, words + off, narrow<int>(len), MPI_UINT64_T, MPI_BOR, comm.get()),
          "MPI_Allreduce");
  }
  count_reduction(comm, n * sizeof(uint64_t));
}

void allgather_words_direct(const Comm& comm, const uint64_t* mine, size_t n, uint64_t* out) {
  const size_t np = static_cast<size_t>(comm.size());
  const size_t piece = std::max<size_t>(1, piece_bytes(comm.size()) / sizeof(uint64_t));
  const uint64_t peers = np - 1;
  count_sent(peers, n * sizeof(uint64_t) * peers);
  count_received(peers, n * sizeof(uint64_t) * peers);
  if (n <= piece) {
    check(MPI_Allgather(mine, narrow<int>(n), MPI_UINT64_T, out, narrow<int>(n), MPI_UINT64_T, comm.get()),
          "MPI_Allgather");
    return;
  }
  // Rounds: words [off, off + len) of every rank, staged, then put in place.
  std::vector<uint64_t> staged(np * piece);
  for (size_t off = 0; off < n; off += piece) {
    const size_t len = std::min(piece, n - off);
    check(MPI_Allgather(mine + off, narrow<int>(len), MPI_UINT64_T, staged.data(), narrow<int>(len), MPI_UINT64_T,
                        comm.get()),
          "MPI_Allgather");
    for (size_t r = 0; r < np; ++r) std::memcpy(out + r * n + off, staged.data() + r * len, len * sizeof(uint64_t));
  }
}

bool agree(const Comm& comm, bool failed_here) {
  int mine = failed_here ? 1 : 0;
  int any = 0;
  check(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm.get()), "MPI_Allreduce");
  count_reduction(comm, sizeof(int));
  return any != 0;
}

int lowest_rank_with(const Comm& comm, bool mine) {
  int v = mine ? comm.rank() : comm.size();
  int out = 0;
  check(MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MIN, comm.get()), "MPI_Allreduce");
  count_reduction(comm, sizeof(int));
  return out;
}

std::string broadcast(const Comm& comm, std::string s, int root) {
  uint64_t n = s.size();
  check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm.get()), "MPI_Bcast");
  s.resize(n);
  const size_t round = max_message_bytes();
  for (size_t off = 0; off < n; off += round)
    check(MPI_Bcast(s.data() + off, narrow<int>(std::min<size_t>(round, n - off)), MPI_BYTE, root, comm.get()),
          "MPI_Bcast");
  // The length and the bytes, from the root to every other rank.
  const uint64_t peers = static_cast<uint64_t>(comm.size() - 1);
  if (comm.rank() == root) count_sent(peers, peers * (sizeof n + n));
  else count_received(1, sizeof n + n);
  return s;
}

void scatter_slices(const Comm& comm, std::string_view data, const std::vector<uint64_t>& begin,
                    const std::vector<uint64_t>& end, const std::function<char*(uint64_t)>& place, int root) {
  constexpr size_t kPiece = size_t{1} << 30;
  constexpr int kTag = 7101;
  if (comm.rank() == root) {
    for (int r = 0; r < comm.size(); ++r) {
      if (r == root) continue;
      const uint64_t b = begin[static_cast<size_t>(r)], e = std::max(b, end[static_cast<size_t>(r)]);
      uint64_t n = e - b;
      check(MPI_Send(&n, 1, MPI_UINT64_T, r, kTag, comm.get()), "MPI_Send");
      for (uint64_t off = 0; off < n; off += kPiece)
        check(MPI_Send(data.data() + b + off, narrow<int>(std::min<uint64_t>(kPiece, n - off)), MPI_BYTE, r, kTag,
                       comm.get()),
              "MPI_Send");
      traffic().bytes += n;
      traffic().messages += 1;
    }
    return;
  }
  uint64_t n = 0;
  check(MPI_Recv(&n, 1, MPI_UINT64_T, root, kTag, comm.get(), MPI_STATUS_IGNORE), "MPI_Recv");
  char* const s = place(n);
  for (uint64_t off = 0; off < n; off += kPiece)
    check(MPI_Recv(s + off, narrow<int>(std::min<uint64_t>(kPiece, n - off)), MPI_BYTE, root, kTag, comm.get(),
                   MPI_STATUS_IGNORE),
          "MPI_Recv");
}

Gathered gather_bytes(const Comm& comm, std::string_view mine, int root) {
  const int p = comm.size();
  const size_t np = static_cast<size_t>(p);
  const bool at_root = comm.rank() == root;
  // Every rank learns every count, so all agree on the rounds.
  uint64_t n = mine.size();
  std::vector<uint64_t> sizes(np);
  check(MPI_Allgather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, comm.get()), "MPI_Allgather");
  const uint64_t piece = piece_bytes(p);
  uint64_t rounds = 0;
  for (const uint64_t s : sizes) rounds = std::max(rounds, rounds_for(s, piece));
  Gathered g;
  if (at_root) {
    g.starts.assign(np + 1, 0);
    for (size_t r = 0; r < np; ++r) g.starts[r + 1] = g.starts[r] + sizes[r];
    g.bytes.resize(g.starts[np]);
  }
  std::vector<int> counts(at_root ? np : 0), displs(counts.size());
  // Every rank's count to every other; the bytes, from every other rank to
  // the root (one message a round).
  const uint64_t peers = np - 1;
  count_sent(0, peers * kGatherHeaderBytes);
  count_received(0, peers * kGatherHeaderBytes);
  const uint64_t messages = std::max<uint64_t>(1, rounds);
  if (!at_root) {
    count_sent(messages, mine.size());
  } else {
    for (size_t r = 0; r < np; ++r)
      if (static_cast<int>(r) != root) count_received(messages, sizes[r]);
  }
  if (rounds <= 1) {  // one call straight into place
    for (size_t r = 0; r < counts.size(); ++r) {
      counts[r] = narrow<int>(sizes[r]);
      displs[r] = narrow<int>(g.starts[r]);
    }
    check(MPI_Gatherv(mine.data(), narrow<int>(n), MPI_BYTE, g.bytes.data(), counts.data(), displs.data(), MPI_BYTE,
                      root, comm.get()),
          "MPI_Gatherv");
    return g;
  }
  // Rounds: up to `piece` bytes of each rank per round, staged at the root.
  std::string staged;
  for (uint64_t round = 0; round < rounds; ++round) {
    const uint64_t at = round * piece;
    const size_t mine_now = static_cast<size_t>(at < n ? std::min(piece, n - at) : 0);
    size_t total = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      const size_t len = static_cast<size_t>(at < sizes[r] ? std::min(piece, sizes[r] - at) : 0);
      counts[r] = narrow<int>(len);
      displs[r] = narrow<int>(total);
      total += len;
    }
    staged.resize(total);
    check(MPI_Gatherv(mine.data() + (mine_now ? at : 0), narrow<int>(mine_now), MPI_BYTE, staged.data(), counts.data(),
                      displs.data(), MPI_BYTE, root, comm.get()),
          "MPI_Gatherv");
    for (size_t r = 0; r < counts.size(); ++r)
      if (counts[r] > 0)
        std::memcpy(g.bytes.data() + g.starts[r] + at, staged.data() + displs[r], static_cast<size_t>(counts[r]));
  }
  return g;
}

std::string reduce_bytes_to_root(const Comm& comm, std::string mine,
                                 const std::function<std::string(std::string&&, std::string&&)>& combine) {
  const int p = comm.size(), me = comm.rank();
  const size_t chunk = max_message_bytes();
  for (int step = 1; step < p; step <<= 1) {
    if (me & step) {  // this rank's subtree is complete: up to its parent
      send_stream(comm, me - step, mine, chunk);
      return {};
    }
    if (me + step < p) {
      std::string got;
      recv_stream(comm, me + step, chunk, [&](std::string_view piece) { got.append(piece); });
      mine = combine(std::move(mine), std::move(got));
    }
  }
  return mine;
}

std::vector<std::string> gather(const Comm& comm, const std::string& mine, int root) {
  const Gathered g = gather_bytes(comm, mine, root);
  if (comm.rank() != root) return {};
  std::vector<std::string> out(g.parts());
  for (size_t r = 0; r < out.size(); ++r) out[r] = std::string(g.part(r));
  return out;
}

void barrier(const Comm& comm) { check(MPI_Barrier(comm.get()), "MPI_Barrier"); }

namespace {
// One value from every rank, counted like the other collectives.
template <class T>
std::vector<T> allgather_value(const Comm& comm, T v, MPI_Datatype type) {
  std::vector<T> out(static_cast<size_t>(comm.size()));
  check(MPI_Allgather(&v, 1, type, out.data(), 1, type, comm.get()), "MPI_Allgather");
  const uint64_t peers = static_cast<uint64_t>(comm.size() - 1);
  count_sent(peers, peers * sizeof v);
  count_received(peers, peers * sizeof v);
  return out;
}
}  // namespace

std::vector<double> allgather(const Comm& comm, double v) { return allgather_value(comm, v, MPI_DOUBLE); }

std::vector<uint64_t> allgather(const Comm& comm, uint64_t v) { return allgather_value(comm, v, MPI_UINT64_T); }

File::File(const Comm& comm, const std::string& path) {
  check(MPI_File_open(comm.get(), path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh_), "MPI_File_open");
  MPI_Offset sz = 0;
  check(MPI_File_get_size(fh_, &sz), "MPI_File_get_size");
  size_ = static_cast<uint64_t>(sz);
}

File::~File() {
  if (fh_ != MPI_FILE_NULL) MPI_File_close(&fh_);
}

size_t File::read_at(uint64_t offset, char* buf, size_t n) const {
  if (offset >= size_) return 0;
  n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
  size_t done = 0;
  const size_t round = size_t{1} << 30;
  while (done < n) {
    const int len = narrow<int>(std::min(round, n - done));
    MPI_Status st;
    const MPI_Offset at = static_cast<MPI_Offset>(offset) + static_cast<MPI_Offset>(done);
    check(MPI_File_read_at(fh_, at, buf + done, len, MPI_BYTE, &st), "MPI_File_read_at");
    int got = 0;
    MPI_Get_count(&st, MPI_BYTE, &got);
    if (got <= 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

WriteFile::WriteFile(const Comm& comm, const std::string& path) : comm_(comm) {
  check(MPI_File_open(comm.get(), path.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &fh_), "MPI_File_open");
}

WriteFile::~WriteFile() {
  if (fh_ != MPI_FILE_NULL) MPI_File_close(&fh_);
}

void WriteFile::write_at_all(uint64_t offset, std::string_view bytes, size_t round) {
  round = std::max<size_t>(1, std::min(round, static_cast<size_t>(std::numeric_limits<int>::max())));
  // Every rank takes part in every round, with nothing left to write or not.
  const uint64_t rounds = allreduce_max(comm_, (bytes.size() + round - 1) / round);
  for (uint64_t k = 0; k < rounds; ++k) {
    const size_t from = std::min(bytes.size(), static_cast<size_t>(k) * round);
    const size_t len = std::min(round, bytes.size() - from);
    MPI_Status st;
    const MPI_Offset at = static_cast<MPI_Offset>(offset) + static_cast<MPI_Offset>(from);
    check(MPI_File_write_at_all(fh_, at, bytes.data() + from, narrow<int>(len), MPI_BYTE, &st),
          "MPI_File_write_at_all");
  }
}

void WriteFile::close() {
  if (fh_ != MPI_FILE_NULL) check(MPI_File_close(&fh_), "MPI_File_close");
}

namespace {
constexpr int kStreamTag = 0x5c;  // Comm is a private duplicate: no other traffic shares it
}

void send_stream(const Comm& comm, int dest, std::string_view bytes, size_t chunk) {
  chunk = std::max<size_t>(1, std::min(chunk, static_cast<size_t>(std::numeric_limits<int>::max())));
  uint64_t n = bytes.size();
  check(MPI_Send(&n, 1, MPI_UINT64_T, dest, kStreamTag, comm.get()), "MPI_Send");
  count_sent(1, sizeof n);
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    const size_t len = std::min(chunk, bytes.size() - at);
    check(MPI_Send(bytes.data() + at, narrow<int>(len), MPI_BYTE, dest, kStreamTag, comm.get()), "MPI_Send");
    count_sent(1, len);
  }
}

void recv_stream(const Comm& comm, int source, size_t chunk, const std::function<void(std::string_view)>& sink) {
  chunk = std::max<size_t>(1, std::min(chunk, static_cast<size_t>(std::numeric_limits<int>::max())));
  uint64_t n = 0;
  check(MPI_Recv(&n, 1, MPI_UINT64_T, source, kStreamTag, comm.get(), MPI_STATUS_IGNORE), "MPI_Recv");
  count_received(1, sizeof n);
  std::string buf(static_cast<size_t>(std::min<uint64_t>(n, chunk)), '\0');
  for (uint64_t at = 0; at < n; at += chunk) {
    const size_t len = static_cast<size_t>(std::min<uint64_t>(chunk, n - at));
    check(MPI_Recv(buf.data(), narrow<int>(len), MPI_BYTE, source, kStreamTag, comm.get(), MPI_STATUS_IGNORE),
          "MPI_Recv");
    count_received(1, len);
    sink(std::string_view(buf.data(), len));
  }
}

constexpr int kMessageTag = 0x5d;  // SendRequest and recv_message

SendRequest::SendRequest(const Comm& comm, int dest, std::string_view bytes) {
  if (bytes.size() > max_message_bytes())
    throw Error("message too large for one MPI call (" + std::to_string(bytes.size()) + ")");
  check(MPI_Isend(bytes.data(), narrow<int>(bytes.size()), MPI_BYTE, dest, kMessageTag, comm.get(), &request_),
        "MPI_Isend");
  count_sent(1, bytes.size());
}

SendRequest::SendRequest(SendRequest&& o) noexcept : request_(o.request_) { o.request_ = MPI_REQUEST_NULL; }

SendRequest::~SendRequest() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

bool SendRequest::done() {
  if (request_ == MPI_REQUEST_NULL) return true;
  int flag = 0;
  check(MPI_Test(&request_, &flag, MPI_STATUS_IGNORE), "MPI_Test");
  return flag != 0;
}

void SendRequest::wait() {
  if (request_ != MPI_REQUEST_NULL) check(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait");
}

size_t recv_message(const Comm& comm, int source, const std::function<char*(size_t)>& place) {
  MPI_Message message;
  MPI_Status status;
  check(MPI_Mprobe(source, kMessageTag, comm.get(), &message, &status), "MPI_Mprobe");
  int n = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &n), "MPI_Get_count");
  char* at = n > 0 ? place(static_cast<size_t>(n)) : nullptr;
  check(MPI_Mrecv(at, n, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  count_received(1, static_cast<uint64_t>(n));
  return static_cast<size_t>(n);
}

double now() { return MPI_Wtime(); }

}  // namespace spellcheck::mpi
