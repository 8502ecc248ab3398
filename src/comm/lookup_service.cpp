#include "spellcheck/comm/lookup_service.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <list>
#include <thread>
#include <unordered_map>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/fault.hpp"
#include "spellcheck/common/wire.hpp"

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

// Everything the service keeps between polls.
struct LookupService::State {
  // Requests not yet answered, by id. A node map: the send reads the batch's
  // bytes in place until the reply comes.
  std::unordered_map<uint64_t, InFlight> pending;
  uint64_t next_id = 0;
  size_t open = 0;               // pending.size()
  std::list<ReplySend> replies;  // sends not yet complete
  std::string inbox;
  std::string answer_bits;  // the answer to the request being served
  bool in_barrier = false;
  MPI_Request barrier = MPI_REQUEST_NULL;
};

namespace {
// Whether MPI may be called from any thread (MPI_THREAD_MULTIPLE); else
// throws unless this is the thread that initialised MPI. Checked before the
// constructor's first collective.
bool any_thread_or_main() {
  int level = MPI_THREAD_SINGLE;
  mpi::check(MPI_Query_thread(&level), "MPI_Query_thread");
  if (level == MPI_THREAD_MULTIPLE) return true;
  int is_main = 0;
  mpi::check(MPI_Is_thread_main(&is_main), "MPI_Is_thread_main");
  if (!is_main) throw mpi::Error("lookup service: started on a thread other than the one that initialised MPI");
  return false;
}
}  // namespace

LookupService::LookupService(const mpi::Comm& comm, Answer answer, size_t queue_batches, size_t max_open)
    : any_thread_(any_thread_or_main()),
      comm_(comm.get()),
      answer_(std::move(answer)),
      owner_(std::this_thread::get_id()),
      max_open_(std::max<size_t>(1, max_open)) {
  outgoing_.set_capacity(static_cast<std::ptrdiff_t>(queue_batches));
  state_ = std::make_unique<State>();
}

LookupService::~LookupService() {
  if (finished_) return;
  // Still collective: the other ranks wait for our barrier. finish() reports
  // its own failures (poll() aborts), so nothing escapes here.
  try {
    finish();
  } catch (...) {
  }
}

void LookupService::check_thread() const {
  if (!any_thread_ && std::this_thread::get_id() != owner_)
    throw mpi::Error("lookup service: polled from a thread other than the one that initialised MPI");
}

void LookupService::submit(RequestBatch&& batch) { outgoing_.push(std::move(batch)); }

RequestBatch LookupService::fresh_batch(int dest) {
  RequestBatch b;
  if (!free_.try_pop(b)) b.bytes.reserve(1024);
  b.dest = dest;
  b.bytes.clear();
  b.tags.clear();
  return b;
}

void LookupService::send(RequestBatch&& batch) {
  check_thread();
  try {
    // Serve until a request may open; the peers serve ours meanwhile, from
    // their own send() or poll(), so this ends.
    for (unsigned idle = 0; state_->open >= max_open_;) pause(step(), idle);
    post(std::move(batch));
  } catch (const std::exception& e) {
    mpi::abort_job(std::string("lookup service: ") + e.what(), exit_code_of(e));
  }
}

bool LookupService::poll() {
  check_thread();
  try {
    return step();
  } catch (const std::exception& e) {
    // Other ranks wait for our replies and our barrier; they cannot be told
    // in order: this is the last resort.
    mpi::abort_job(std::string("lookup service: ") + e.what(), exit_code_of(e));
  }
}

void LookupService::pause(bool active, unsigned& idle) {
  if (active) {
    idle = 0;
  } else if (++idle < 16) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

std::vector<uint64_t> LookupService::finish() {
  check_thread();
  if (finished_) return {};
  State& st = *state_;
  // Enter the barrier once nothing of ours is queued or unanswered (the
  // caller submits nothing more), then serve until every rank is there.
  serve_while([&] {
    if (!st.in_barrier && outgoing_.empty() && st.open == 0) {
      mpi::check(MPI_Ibarrier(comm_.get(), &st.barrier), "MPI_Ibarrier");
      st.in_barrier = true;
    }
    if (!st.in_barrier) return true;
    int done = 0;
    mpi::check(MPI_Test(&st.barrier, &done, MPI_STATUS_IGNORE), "MPI_Test");
    return !done;
  });
  for (auto& r : st.replies) mpi::check(MPI_Wait(&r.req, MPI_STATUS_IGNORE), "MPI_Wait");
  st.replies.clear();
  stats_.remote_hits = hits_.size();
  finished_ = true;
  return std::move(hits_);
}

void LookupService::post(RequestBatch&& batch) {
  State& st = *state_;
  const uint64_t id = st.next_id++;
  InFlight& f = st.pending.emplace(id, InFlight{std::move(batch), MPI_REQUEST_NULL}).first->second;
  if (f.batch.bytes.size() < RequestBatch::kBatchHeader) f.batch.bytes.resize(RequestBatch::kBatchHeader);
  wire::store_le<uint64_t>(f.batch.bytes.data(), id);
  mpi::check(MPI_Isend(f.batch.bytes.data(), mpi::narrow<int>(f.batch.bytes.size()), MPI_BYTE, f.batch.dest,
                       static_cast<int>(Tag::request), comm_.get(), &f.req),
             "MPI_Isend");
  stats_.requests_sent += 1;
  stats_.request_bytes += f.batch.bytes.size();
  mpi::count_sent(1, f.batch.bytes.size());
  stats_.lookups_sent += f.batch.records();
  ++st.open;
  stats_.most_open_requests = std::max<uint64_t>(stats_.most_open_requests, st.open);
}

bool LookupService::step() {
  State& st = *state_;
  const MPI_Comm comm = comm_.get();
  bool active = false;

  // The workers' batches go out as they come.
  RequestBatch b;
  while (st.open < max_open_ && outgoing_.try_pop(b)) {
    post(std::move(b));
    active = true;
  }

  // Everything that has arrived: requests to serve, replies to match.
  std::string& inbox = st.inbox;
  for (;;) {
    int flag = 0;
    MPI_Status status;
    mpi::check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &status), "MPI_Iprobe");
    if (!flag) break;
    active = true;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    inbox.resize(static_cast<size_t>(count));
    mpi::check(MPI_Recv(inbox.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE),
               "MPI_Recv");
    mpi::count_received(1, static_cast<uint64_t>(count));
    if (status.MPI_TAG == static_cast<int>(Tag::request)) {
      fault::point("lookups", comm_.rank());
      if (inbox.size() < RequestBatch::kBatchHeader) throw std::runtime_error("request without its id");
      const size_t records = answer_(std::string_view(inbox).substr(RequestBatch::kBatchHeader), st.answer_bits);
      if (st.answer_bits.size() != (records + 7) / 8)
        throw std::logic_error("lookup service: an answer of the wrong size");
      ReplySend& r = st.replies.emplace_back();
      r.bits.reserve(RequestBatch::kBatchHeader + st.answer_bits.size());
      r.bits.append(inbox.data(), RequestBatch::kBatchHeader);  // the request's id
      r.bits.append(st.answer_bits);
      st.answer_bits.clear();
      mpi::check(MPI_Isend(r.bits.data(), mpi::narrow<int>(r.bits.size()), MPI_BYTE, status.MPI_SOURCE,
                           static_cast<int>(Tag::reply), comm, &r.req),
                 "MPI_Isend");
      stats_.lookups_served += records;
      stats_.replies_sent += 1;
      stats_.reply_bytes += r.bits.size();
      mpi::count_sent(1, r.bits.size());
    } else {
      uint64_t id = 0;
      if (inbox.size() >= sizeof id) id = wire::peek_le<uint64_t>(inbox.data());
      const auto it = st.pending.find(id);
      if (inbox.size() < sizeof id || it == st.pending.end() || it->second.batch.dest != status.MPI_SOURCE ||
          inbox.size() != sizeof id + (it->second.batch.records() + 7) / 8)
        throw std::runtime_error("a reply that answers no request of this rank");
      InFlight& f = it->second;
      // The reply proves the request arrived; its send is complete or about
      // to be.
      mpi::check(MPI_Wait(&f.req, MPI_STATUS_IGNORE), "MPI_Wait");
      const unsigned char* bits = reinterpret_cast<const unsigned char*>(inbox.data()) + sizeof id;
      const auto& tags = f.batch.tags;
      for (size_t i = 0; i < tags.size(); ++i)
        if ((bits[i / 8] >> (i % 8)) & 1U) hits_.push_back(tags[i]);
      free_.push(std::move(f.batch));
      st.pending.erase(it);
      --st.open;
    }
  }

  // Reply buffers live until their sends complete.
  for (auto it = st.replies.begin(); it != st.replies.end();) {
    int done = 0;
    mpi::check(MPI_Test(&it->req, &done, MPI_STATUS_IGNORE), "MPI_Test");
    it = done ? st.replies.erase(it) : std::next(it);
  }
  return active;
}

}  // namespace spellcheck
