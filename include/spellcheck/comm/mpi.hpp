#pragma once
// Small RAII wrappers over the MPI calls the phases need. MPI_* calls live
// only in mpi.cpp, exchange.cpp and lookup_service.cpp; everything else goes
// through here, so compute modules stay testable without mpirun.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace spellcheck::mpi {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws mpi::Error("<call>: <MPI_Error_string>") unless rc is MPI_SUCCESS.
void check(int rc, const char* call);

// MPI counts are int: narrowing that would overflow throws instead of
// truncating silently (Open MPI 4.1 has no large-count calls).
template <class To, class From>
To narrow(From v) {
  if (v < 0 || static_cast<unsigned long long>(v) > static_cast<unsigned long long>(std::numeric_limits<To>::max()))
    throw Error("message too large for one MPI call (" + std::to_string(v) + ")");
  return static_cast<To>(v);
}

// The most bytes one MPI message may carry: just under 2 GiB (MPI counts and
// displacements are int), or SPELLCHECK_MAX_MESSAGE_BYTES (read once; tests
// set a tiny limit to force the exchanges below into many rounds). The
// collectives here split larger payloads into rounds, so that no message,
// and no call's whole buffer, exceeds it.
size_t max_message_bytes();
// What the exchanges send ahead of the bytes (counted in traffic()): an
// all-to-all, (count, rounds) to every peer; a gather, every rank's count
// to every other rank (so all agree on the rounds).
inline constexpr size_t kAlltoallvHeaderBytes = 2 * sizeof(uint64_t);
inline constexpr size_t kGatherHeaderBytes = sizeof(uint64_t);

// First object in main(): MPI_Init_thread ... MPI_Finalize on every path.
class Environment {
 public:
  Environment(int& argc, char**& argv, int wanted_level);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  int provided() const { return provided_; }

 private:
  int provided_ = 0;
};

// The last resort when the ranks cannot agree (a rank failed between
// collectives, or inside the lookup service): prints "spellcheck: error:
// <what>" and ends every rank of the job with status `code`. Never returns.
[[noreturn]] void abort_job(const std::string& what, int code);

// Owns a duplicate of its parent communicator, so our traffic never meets
// anybody else's (the lookup service gets its own duplicate too).
struct NodeLayout;  // node_exchange.hpp

class Comm {
 public:
  explicit Comm(MPI_Comm parent = MPI_COMM_WORLD);
  ~Comm();
  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&&) = delete;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm get() const { return comm_; }
  // Which ranks share a node (node_exchange.hpp). Collective the first time
  // (every rank asks at the same point: in an all-to-all), cached after.
  const NodeLayout& node_layout() const;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  mutable std::shared_ptr<NodeLayout> layout_;
};

// How the personalised all-to-alls (dictionary shuffle, word routing) go:
// direct, every rank to every other (p - 1 messages per rank), or in two
// levels, within each node and then between nodes (node_exchange.hpp);
// automatic (the default) picks two levels from 16 ranks on at least 2
// nodes when the start-ups saved outweigh the extra copy (use_two_level).
// Process-
// wide, set once before the first exchange (main, from --exchange); every
// rank must set the same.
enum class AllToAll { direct, two_level, automatic };
void set_all_to_all(AllToAll how);
AllToAll all_to_all();

// Bytes plus per-rank counts: counts[r] bytes go to (or came from) rank r,
// in rank order within data.
struct Bytes {
  std::string data;
  std::vector<size_t> counts;
};

// Collective: personalised all-to-all of bytes; counts travel first. Any
// size: in rounds of at most max_message_bytes() / size() bytes per peer.
// Direct or in two levels as all_to_all() says; the same result either way.
Bytes alltoallv_bytes(const Comm& comm, const Bytes& send);
// The same into recv, whose buffers are reused: a caller exchanging in
// rounds keeps one, so its pages are faulted in (and zeroed by the kernel)
// once, not every round.
void alltoallv_bytes(const Comm& comm, const Bytes& send, Bytes& recv);
// Collective: always the direct exchange.
Bytes alltoallv_bytes_direct(const Comm& comm, const Bytes& send);
void alltoallv_bytes_direct(const Comm& comm, const Bytes& send, Bytes& recv);

// Collective: reductions of one or many values.
uint64_t allreduce_sum(const Comm& comm, uint64_t v);
uint64_t allreduce_max(const Comm& comm, uint64_t v);
uint64_t allreduce_min(const Comm& comm, uint64_t v);
void allreduce_sum(const Comm& comm, std::vector<uint64_t>& v);
void allreduce_sum(const Comm& comm, std::vector<double>& v);
void allreduce_min(const Comm& comm, std::vector<double>& v);
void allreduce_max(const Comm& comm, std::vector<double>& v);
// Collective: bitwise OR of words in place (the all-reduce Bloom filter,
// the affix and trigram filters).
void allreduce_bor(const Comm& comm, uint64_t* words, size_t n);
// Collective: every rank contributes n words; out receives size()*n words
// in rank order (the allgathered Bloom filters).
void allgather_words(const Comm& comm, const uint64_t* mine, size_t n, uint64_t* out);
// Both go in two levels where all_to_all() takes two levels for small
// messages (node_exchange.hpp); the _direct forms always in one.
void allreduce_bor_direct(const Comm& comm, uint64_t* words, size_t n);
void allgather_words_direct(const Comm& comm, const uint64_t* mine, size_t n, uint64_t* out);
// Collective: true on every rank if any rank passed true. Ends each phase so
// that all ranks stop together when one of them fails.
bool agree(const Comm& comm, bool failed_here);
// Collective: the lowest rank for which `mine` holds (size() if none).
int lowest_rank_with(const Comm& comm, bool mine);
// Collective: root's string on every rank.
std::string broadcast(const Comm& comm, std::string s, int root = 0);
// Collective: root sends rank r the bytes data[begin[r], end[r]) (slices
// may overlap; data, begin and end are read at root only). Each other rank
// receives its slice where place(size) says; root calls nothing (it holds
// data). Point to point, in pieces under 1 GiB (no 2 GiB limit).
void scatter_slices(const Comm& comm, std::string_view data, const std::vector<uint64_t>& begin,
                    const std::vector<uint64_t>& end, const std::function<char*(uint64_t)>& place, int root = 0);
// Collective: every rank's bytes at root (empty elsewhere), in rank order.
std::vector<std::string> gather(const Comm& comm, const std::string& mine, int root = 0);
// The same without a copy per rank: one buffer, rank r's bytes at
// [starts[r], starts[r+1]) (empty on other ranks).
struct Gathered {
  std::string bytes;
  std::vector<size_t> starts;
  size_t parts() const { return starts.empty() ? 0 : starts.size() - 1; }
  std::string_view part(size_t r) const { return std::string_view(bytes).substr(starts[r], starts[r + 1] - starts[r]); }
};
Gathered gather_bytes(const Comm& comm, std::string_view mine, int root = 0);
// Collective: every rank's bytes combined up a binomial tree to rank 0,
// which returns the whole (the others return nothing). At step k a rank
// takes the bytes of the rank 2^k above it and keeps combine(its own,
// those): lower ranks' first, so a combine that concatenates or merges
// keeps rank order. Rank 0 receives ceil(log2 p) times instead of p - 1,
// and the combining is spread over the tree (the sample sort's samples
// are merged this way, not sorted on rank 0).
std::string reduce_bytes_to_root(const Comm& comm, std::string mine,
                                 const std::function<std::string(std::string&&, std::string&&)>& combine);
void barrier(const Comm& comm);
// Collective: per-rank values gathered at every rank.
std::vector<double> allgather(const Comm& comm, double v);
std::vector<uint64_t> allgather(const Comm& comm, uint64_t v);

// MPI-IO, read only. Opening is collective; reads are independent.
class File {
 public:
  // Collective over comm.
  File(const Comm& comm, const std::string& path);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  uint64_t size() const { return size_; }
  // Reads [offset, offset+n) clipped to the file; returns bytes read.
  size_t read_at(uint64_t offset, char* buf, size_t n) const;

 private:
  MPI_File fh_ = MPI_FILE_NULL;
  uint64_t size_ = 0;
};

// MPI-IO, write only: an existing file opened by every rank of comm
// (collective), each rank's bytes written at its own offset (collective, in
// rounds of at most `round` bytes a rank), closed (collective).
class WriteFile {
 public:
  WriteFile(const Comm& comm, const std::string& path);
  ~WriteFile();  // closes if close() was not called (collective too)
  WriteFile(const WriteFile&) = delete;
  WriteFile& operator=(const WriteFile&) = delete;
  // Collective: every rank calls it once, with its offset and bytes.
  void write_at_all(uint64_t offset, std::string_view bytes, size_t round);
  void close();

 private:
  const Comm& comm_;
  MPI_File fh_ = MPI_FILE_NULL;
};

// Point to point, blocking: bytes to dest in messages of at most `chunk`
// bytes, the total first; recv_stream hands each piece to sink as it
// arrives, so the receiver holds one chunk at a time.
void send_stream(const Comm& comm, int dest, std::string_view bytes, size_t chunk);
void recv_stream(const Comm& comm, int source, size_t chunk, const std::function<void(std::string_view)>& sink);

// Point to point, non-blocking: one message of bytes (at most
// max_message_bytes()) to dest, under its own tag; the bytes must stay
// alive and unchanged until done() says so. Waits in its destructor.
class SendRequest {
 public:
  SendRequest() = default;
  SendRequest(const Comm& comm, int dest, std::string_view bytes);
  ~SendRequest();
  SendRequest(SendRequest&& o) noexcept;
  SendRequest& operator=(SendRequest&&) = delete;
  SendRequest(const SendRequest&) = delete;
  SendRequest& operator=(const SendRequest&) = delete;
  bool done();  // tests; true once the bytes may be reused
  void wait();

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
};
// Point to point, blocking: the next such message from source, its bytes
// where place(size) says (not called for an empty message). Returns its size.
size_t recv_message(const Comm& comm, int source, const std::function<char*(size_t)>& place);
// Seconds since an arbitrary point (MPI_Wtime).
double now();

// Communication counters of this rank, for --stats, counted by the wrappers
// here and by the lookup service as they send and receive (on one rank:
// nothing). Collectives count their logical payload: an all-to-all one
// message per non-empty peer; a reduction one message of its data each way;
// an allgather (p-1) each way; a broadcast (p-1) from the root; a gather one
// to the root. So over all ranks, what is sent is what is received.
struct Traffic {
  uint64_t messages = 0;  // sent
  uint64_t bytes = 0;     // sent
  uint64_t messages_received = 0;
  uint64_t bytes_received = 0;
  Traffic operator-(const Traffic& o) const {
    return {messages - o.messages, bytes - o.bytes, messages_received - o.messages_received,
            bytes_received - o.bytes_received};
  }
  Traffic& operator+=(const Traffic& o) {
    messages += o.messages;
    bytes += o.bytes;
    messages_received += o.messages_received;
    bytes_received += o.bytes_received;
    return *this;
  }
};
Traffic& traffic();
// For the point-to-point calls outside this file (the lookup service).
inline void count_sent(uint64_t messages, uint64_t bytes) {
  traffic().messages += messages;
  traffic().bytes += bytes;
}
inline void count_received(uint64_t messages, uint64_t bytes) {
  traffic().messages_received += messages;
  traffic().bytes_received += bytes;
}

}  // namespace spellcheck::mpi
