#pragma once
// LookupService: the communication thread of the candidate phase. It is the
// only thread that talks to other ranks while the workers compute: it sends
// the workers' request batches to their owners, answers other ranks'
// requests against the local Shard, matches replies to the batches that
// asked, and detects global termination.
//
// Wire format. A request is records [u64 hash][u16 length][bytes] (the owner
// reuses the hash: no rehash); a reply is one bit per record in request
// order. Replies from one owner arrive in the order its requests were sent
// (MPI does not let messages overtake within a source, tag and
// communicator), so each rank keeps a FIFO of pending batches per owner.
//
// Termination. A rank enters MPI_Ibarrier once its workers are done and every
// request it sent has been answered, and keeps serving until the barrier
// completes. No rank enters with a request open, so when the barrier
// completes no request or reply is in flight anywhere.
#include <tbb/concurrent_queue.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "spellcheck/candidates.hpp"
#include "spellcheck/mpi.hpp"
#include "spellcheck/shard.hpp"

namespace spellcheck {

// A candidate of word `word` (an index into this rank's misspelled words),
// made by `edit`.
struct Slot {
  uint32_t word;
  EditRef edit;
};

struct RequestBatch {
  int dest = -1;
  std::string bytes;        // records, see above
  std::vector<Slot> slots;  // only the sender keeps these, one per record

  static constexpr size_t kRecordHeader = sizeof(uint64_t) + sizeof(uint16_t);
  void add(uint64_t h, std::string_view cand, Slot s);
  size_t records() const { return slots.size(); }
};

struct ServiceStats {
  uint64_t requests_sent = 0;      // messages
  uint64_t request_bytes = 0;
  uint64_t lookups_sent = 0;       // records
  uint64_t replies_sent = 0;
  uint64_t reply_bytes = 0;
  uint64_t lookups_served = 0;
  uint64_t remote_hits = 0;
};

class LookupService {
 public:
  // Starts the communication thread on a duplicate of comm.
  LookupService(const mpi::Comm& comm, const Shard& shard, size_t queue_batches);
  ~LookupService();
  LookupService(const LookupService&) = delete;
  LookupService& operator=(const LookupService&) = delete;

  // Worker side (thread-safe). submit blocks while the queue is full: the
  // back-pressure that bounds memory when workers outrun the network.
  void submit(RequestBatch&& batch);
  RequestBatch fresh_batch(int dest);

  // Called once, after the workers are done: waits for global termination,
  // joins the thread and returns the candidates other ranks confirmed.
  std::vector<Slot> finish();
  const ServiceStats& stats() const { return stats_; }

 private:
  void run();

  mpi::Comm comm_;
  const Shard& shard_;
  tbb::concurrent_bounded_queue<RequestBatch> outgoing_;
  tbb::concurrent_queue<RequestBatch> free_;
  std::atomic<bool> workers_done_{false};
  std::vector<Slot> hits_;
  ServiceStats stats_;
  std::thread thread_;
};

}  // namespace spellcheck
