#pragma once
// LookupService: the communication side of the candidate phase. It is the
// only code that talks to other ranks while the workers compute: it sends
// the workers' request batches to their owners, answers other ranks'
// requests through the caller's Answer (suggest/ looks them up in the local
// shard), matches replies to the batches that asked, and detects global
// termination. It knows bytes, records and ranks: what a record holds is
// the caller's (suggest/detail/candidate_lookups.hpp).
//
// Thread model. The service runs on the thread that initialised MPI (the
// caller of suggest(), the master of its OpenMP team), in poll() calls:
// either that thread only serves (serve_while, which sleeps between polls
// when nothing happens) while the team's other threads generate, or it
// generates too and polls between its own chunks (suggest.hpp,
// --comm-thread). Other threads only hand it batches through a queue
// (submit). So MPI is called from one thread only, the one that initialised
// it, which is all MPI_THREAD_FUNNELED promises, and all Open MPI 4.1 with
// UCX supports below MPI_THREAD_MULTIPLE (its UCX worker is then usable
// from the creating thread only).
//
// Wire format. A request is [u64 id] then records, as the caller framed
// them; a reply is the request's id then one bit per record in request
// order (the answer's). Replies are matched by id,
// not by arrival order: Open MPI's ob1 numbers the messages between two
// ranks with 16 bits, and with more than 65,536 in flight (single-record
// batches, --batch-bytes 1) replies did come out of order and answered the
// wrong candidates. The open requests of a rank are also capped
// (kMaxOpenRequests) well below that: send() serves until one may open,
// poll() leaves the workers' batches queued (they block, the back-pressure).
//
// Termination. A rank enters MPI_Ibarrier once its workers are done and every
// request it sent has been answered, and keeps serving until the barrier
// completes. No rank enters with a request open, so when the barrier
// completes no request or reply is in flight anywhere.
#include <tbb/concurrent_queue.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "spellcheck/comm/mpi.hpp"

namespace spellcheck {

struct RequestBatch {
  int dest = -1;
  std::string bytes;           // the id then the records, see above (empty: no record yet)
  std::vector<uint64_t> tags;  // only the sender keeps these, one per record: what a hit stands for

  static constexpr size_t kBatchHeader = sizeof(uint64_t);  // the id
  // Room for a record of n bytes at the end, tagged: returns where to write it.
  char* add_record(size_t n, uint64_t tag) {
    if (bytes.empty()) bytes.assign(kBatchHeader, '\0');  // the id, written when the batch is posted
    const size_t at = bytes.size();
    bytes.resize(at + n);
    tags.push_back(tag);
    return bytes.data() + at;
  }
  size_t records() const { return tags.size(); }
};

struct ServiceStats {
  uint64_t requests_sent = 0;  // messages
  uint64_t request_bytes = 0;
  uint64_t lookups_sent = 0;  // records
  uint64_t replies_sent = 0;
  uint64_t reply_bytes = 0;
  uint64_t lookups_served = 0;
  uint64_t remote_hits = 0;
  uint64_t most_open_requests = 0;  // the most requests of this rank unanswered at once
};

class LookupService {
 public:
  // Answers one request: `records`, the bytes after its id; appends one bit
  // per record (bit i of byte i / 8: confirmed) to `bits`, which comes
  // empty; returns the number of records. Throws on a malformed request.
  using Answer = std::function<size_t(std::string_view records, std::string& bits)>;

  // Requests of this rank not yet answered, at most: messages in flight to
  // one peer stay under 2 x this (its replies and its own requests), far
  // from ob1's 65,536.
  static constexpr size_t kMaxOpenRequests = 8192;

  // On the thread that initialised MPI (mpi::Error otherwise, unless MPI
  // runs with MPI_THREAD_MULTIPLE). Collective: duplicates comm.
  // max_open: requests of this rank unanswered at once (tests use a few).
  LookupService(const mpi::Comm& comm, Answer answer, size_t queue_batches, size_t max_open = kMaxOpenRequests);
  // Finishes (collective termination) if finish() was not called.
  ~LookupService();
  LookupService(const LookupService&) = delete;
  LookupService& operator=(const LookupService&) = delete;

  // Worker side, any thread but the service's: submit blocks while the
  // queue is full, the back-pressure that bounds memory when workers outrun
  // the network (the service thread must keep polling meanwhile).
  void submit(RequestBatch&& batch);
  // Thread-safe: an empty batch for dest, reusing a returned buffer.
  RequestBatch fresh_batch(int dest);
  // Whether submit() may block soon: the service thread, when it does work
  // of its own, polls sooner then.
  bool queue_filling() const { return outgoing_.size() * 2 >= outgoing_.capacity(); }

  // Service side, the constructing thread only. send() sends one of its own
  // batches at once (never blocks); poll() does one round of the service
  // (queued batches out, requests served, replies matched) and returns
  // whether anything happened.
  void send(RequestBatch&& batch);
  bool poll();
  // poll() while busy() holds, giving the core back when there is nothing
  // to do (2 cores, 2 ranks: the workers need it) but staying responsive.
  template <class Busy>
  void serve_while(Busy busy) {
    unsigned idle = 0;
    while (busy()) pause(poll(), idle);
  }
  // Once, after every batch has been submitted or sent: serves until global
  // termination and returns the tags of the records other ranks confirmed.
  std::vector<uint64_t> finish();
  const ServiceStats& stats() const { return stats_; }

 private:
  struct State;
  void post(RequestBatch&& batch);
  bool step();
  void check_thread() const;
  static void pause(bool active, unsigned& idle);

  bool any_thread_;  // MPI_THREAD_MULTIPLE: no thread check (first: checked before comm_'s collective)
  mpi::Comm comm_;
  Answer answer_;
  tbb::concurrent_bounded_queue<RequestBatch> outgoing_;
  tbb::concurrent_queue<RequestBatch> free_;
  std::vector<uint64_t> hits_;
  ServiceStats stats_;
  std::thread::id owner_;
  size_t max_open_;
  bool finished_ = false;
  std::unique_ptr<State> state_;
};

}  // namespace spellcheck
