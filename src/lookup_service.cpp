#include "spellcheck/lookup_service.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <list>

namespace spellcheck {

namespace {

// Every message kind of the service, on its own communicator.
enum class Tag : int { request = 1, reply = 2 };

struct InFlight {
  RequestBatch batch;
  MPI_Request req = MPI_REQUEST_NULL;
};

struct ReplySend {
  std::string bits;
  MPI_Request req = MPI_REQUEST_NULL;
};

}  // namespace

void RequestBatch::add(uint64_t h, std::string_view cand, Slot s) {
  const uint16_t len = static_cast<uint16_t>(cand.size());
  const size_t at = bytes.size();
  bytes.resize(at + kRecordHeader + len);
  char* p = bytes.data() + at;
  std::memcpy(p, &h, sizeof h);
  std::memcpy(p + sizeof h, &len, sizeof len);
  std::memcpy(p + kRecordHeader, cand.data(), len);
  slots.push_back(s);
}

LookupService::LookupService(const mpi::Comm& comm, const Shard& shard, size_t queue_batches)
    : comm_(comm.get()), shard_(shard) {
  outgoing_.set_capacity(static_cast<std::ptrdiff_t>(queue_batches));
  thread_ = std::thread([this] { run(); });
}

LookupService::~LookupService() {
  if (thread_.joinable()) {
    workers_done_.store(true, std::memory_order_release);
    thread_.join();
  }
}

void LookupService::submit(RequestBatch&& batch) { outgoing_.push(std::move(batch)); }

RequestBatch LookupService::fresh_batch(int dest) {
  RequestBatch b;
  if (!free_.try_pop(b)) b.bytes.reserve(1024);
  b.dest = dest;
  b.bytes.clear();
  b.slots.clear();
  return b;
}

std::vector<Slot> LookupService::finish() {
  workers_done_.store(true, std::memory_order_release);
  thread_.join();
  return std::move(hits_);
}

void LookupService::run() {
  try {
    const int p = comm_.size();
    const MPI_Comm comm = comm_.get();
    std::vector<std::deque<InFlight>> pending(static_cast<size_t>(p));
    size_t open = 0;
    std::list<ReplySend> replies;
    std::string inbox;
    std::vector<size_t> record_at;  // offset of each record of the request being served
    bool in_barrier = false;
    MPI_Request barrier = MPI_REQUEST_NULL;
    unsigned idle = 0;

    for (;;) {
      bool active = false;

      // Our workers' batches go out as they come.
      RequestBatch b;
      while (outgoing_.try_pop(b)) {
        InFlight f{std::move(b), MPI_REQUEST_NULL};
        mpi::check(MPI_Isend(f.batch.bytes.data(), mpi::narrow<int>(f.batch.bytes.size()), MPI_BYTE, f.batch.dest,
                             static_cast<int>(Tag::request), comm, &f.req),
                   "MPI_Isend");
        stats_.requests_sent += 1;
        stats_.request_bytes += f.batch.bytes.size();
        stats_.lookups_sent += f.batch.records();
        const int dest = f.batch.dest;
        pending[static_cast<size_t>(dest)].push_back(std::move(f));
        ++open;
        active = true;
      }

      // Everything that has arrived: requests to serve, replies to match.
      for (;;) {
        int flag = 0;
        MPI_Status st;
        mpi::check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st), "MPI_Iprobe");
        if (!flag) break;
        active = true;
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        inbox.resize(static_cast<size_t>(count));
        mpi::check(MPI_Recv(inbox.data(), count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE),
                   "MPI_Recv");
        if (st.MPI_TAG == static_cast<int>(Tag::request)) {
          // Index the records first: the reply is sized once, and the
          // lookups go to the shard together (their misses overlap).
          record_at.clear();
          for (size_t pos = 0; pos < inbox.size();) {
            record_at.push_back(pos);
            uint16_t len;
            std::memcpy(&len, inbox.data() + pos + sizeof(uint64_t), sizeof len);
            pos += RequestBatch::kRecordHeader + len;
          }
          const size_t records = record_at.size();
          ReplySend& r = replies.emplace_back();
          r.bits.assign((records + 7) / 8, '\0');
          shard_.contains_each(
              records,
              [&](size_t i) {
                uint64_t h;
                std::memcpy(&h, inbox.data() + record_at[i], sizeof h);
                return h;
              },
              [&](size_t i) {
                uint16_t len;
                std::memcpy(&len, inbox.data() + record_at[i] + sizeof(uint64_t), sizeof len);
                return std::string_view(inbox.data() + record_at[i] + RequestBatch::kRecordHeader, len);
              },
              [&](size_t i) { r.bits[i / 8] = static_cast<char>(r.bits[i / 8] | (1 << (i % 8))); });
          mpi::check(MPI_Isend(r.bits.data(), mpi::narrow<int>(r.bits.size()), MPI_BYTE, st.MPI_SOURCE,
                               static_cast<int>(Tag::reply), comm, &r.req),
                     "MPI_Isend");
          stats_.lookups_served += records;
          stats_.replies_sent += 1;
          stats_.reply_bytes += r.bits.size();
        } else {
          auto& q = pending[static_cast<size_t>(st.MPI_SOURCE)];
          InFlight f = std::move(q.front());
          q.pop_front();
          --open;
          // The reply proves the request arrived; its send is complete or
          // about to be.
          mpi::check(MPI_Wait(&f.req, MPI_STATUS_IGNORE), "MPI_Wait");
          const auto& slots = f.batch.slots;
          for (size_t i = 0; i < slots.size(); ++i)
            if ((static_cast<unsigned char>(inbox[i / 8]) >> (i % 8)) & 1U) hits_.push_back(slots[i]);
          free_.push(std::move(f.batch));
        }
      }

      // Reply buffers live until their sends complete.
      for (auto it = replies.begin(); it != replies.end();) {
        int done = 0;
        mpi::check(MPI_Test(&it->req, &done, MPI_STATUS_IGNORE), "MPI_Test");
        it = done ? replies.erase(it) : std::next(it);
      }

      if (!in_barrier && workers_done_.load(std::memory_order_acquire) && outgoing_.empty() && open == 0) {
        mpi::check(MPI_Ibarrier(comm, &barrier), "MPI_Ibarrier");
        in_barrier = true;
        active = true;
      }
      if (in_barrier) {
        int done = 0;
        mpi::check(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done) break;
      }

      // Idle: give the core back to the workers (2 cores, 2 ranks, each
      // with workers and this thread), but stay responsive to requests.
      if (active) {
        idle = 0;
      } else if (++idle < 16) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
    for (auto& r : replies) mpi::check(MPI_Wait(&r.req, MPI_STATUS_IGNORE), "MPI_Wait");
    stats_.remote_hits = hits_.size();
  } catch (const std::exception& e) {
    // No other rank can be told in order: this is the last resort.
    std::fprintf(stderr, "spellcheck: error: lookup service: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

}  // namespace spellcheck
