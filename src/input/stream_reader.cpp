#include "spellcheck/input/detail/stream_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/settings.hpp"
#include "spellcheck/input/detail/byte_source.hpp"
#include "spellcheck/input/tokenizer.hpp"

namespace spellcheck {

namespace {

// A pipe read in order; its first bytes (read to detect a codec) come
// first. read_at's offset is where the previous read ended.
class PipeSource final : public ByteSource {
 public:
  PipeSource(int fd, std::string head, std::string name) : fd_(fd), head_(std::move(head)), name_(std::move(name)) {}
  size_t read_at(uint64_t, unsigned char* p, size_t n) override {
    size_t got = 0;
    if (head_at_ < head_.size()) {
      got = std::min(n, head_.size() - head_at_);
      std::memcpy(p, head_.data() + head_at_, got);
      head_at_ += got;
    }
    while (got < n) {
      const ssize_t r = ::read(fd_, p + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        throw InputError("cannot read '" + name_ + "': " + std::strerror(errno));
      }
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    return got;
  }

 private:
  int fd_;
  std::string head_;
  size_t head_at_ = 0;
  std::string name_;
};

// Where a piece ends: before its last line end (a JSON Lines record is a
// line), else before the last white space in its last 64 KiB (no URL spans
// it: the url filter judges every URL whole), else before the last safe
// split byte in p[1, n) (a piece is never empty), else 0.
size_t last_cut(const char* p, size_t n) {
  if (n > 1)
    if (const void* nl = memrchr(p + 1, '\n', n - 1)) return static_cast<size_t>(static_cast<const char*>(nl) - p);
  const size_t look = n > (size_t{1} << 16) ? n - (size_t{1} << 16) : 1;
  for (size_t i = n; i-- > look;)
    if (is_space_split(static_cast<unsigned char>(p[i]))) return i;
  for (size_t i = n; i-- > 1;)
    if (is_safe_split(static_cast<unsigned char>(p[i]))) return i;
  return 0;
}

}  // namespace

size_t stream_piece_bytes() {
  static const size_t bytes = [] {
    return std::max<size_t>(64, settings::test_hooks::stream_piece_bytes().value_or(size_t{8} << 20));
  }();
  return bytes;
}

struct StreamReader::Shared {
  std::string path;
  size_t piece_bytes;
  size_t max_held;
  std::mutex mu;
  std::condition_variable ready;  // a piece, the end, or an error
  std::condition_variable freed;  // a buffer given back, or stop
  std::deque<StreamPiece> pieces;
  std::vector<StreamPiece> spare;  // buffers given back
  size_t held = 0;                 // buffers out of spare
  bool ended = false;
  bool stop = false;
  std::exception_ptr error;
  uint64_t size = 0;

  // A buffer for at least `bytes`, or none when stopped.
  std::optional<StreamPiece> take_buffer(size_t bytes) {
    std::unique_lock lock(mu);
    freed.wait(lock, [&] { return stop || !spare.empty() || held < max_held; });
    if (stop) return std::nullopt;
    StreamPiece b;
    if (!spare.empty()) {
      b = std::move(spare.back());
      spare.pop_back();
    }
    ++held;
    lock.unlock();
    if (b.capacity < kPieceHeaderBytes + bytes) {
      b.capacity = kPieceHeaderBytes + bytes;
      b.buffer.reset(new char[b.capacity]);
    }
    return b;
  }

  void publish(StreamPiece piece) {
    {
      std::lock_guard lock(mu);
      pieces.push_back(std::move(piece));
    }
    ready.notify_one();
  }

  void run() {
    try {
      read_all_pieces();
    } catch (...) {
      std::lock_guard lock(mu);
      error = std::current_exception();
    }
    {
      std::lock_guard lock(mu);
      ended = true;
    }
    ready.notify_one();
  }

  void read_all_pieces() {
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError("cannot read '" + path + "': " + std::strerror(errno));
    struct Closer {
      int fd;
      bool owned;
      ~Closer() {
        if (owned) ::close(fd);
      }
    } closer{fd, !is_stdin};
#ifdef F_SETPIPE_SZ
    ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);  // fewer, bigger reads from a pipe (fails harmlessly on files)
#endif
    // The first bytes tell a compressed stream (magic bytes).
    std::string head(8, '\0');
    const size_t head_len = PipeSource(fd, {}, path).read_at(0, reinterpret_cast<unsigned char*>(head.data()), 8);
    head.resize(head_len);
    const Codec codec = detect_codec(reinterpret_cast<const unsigned char*>(head.data()), head.size());
    std::unique_ptr<ByteSource> src = std::make_unique<PipeSource>(fd, std::move(head), path);
    if (codec != Codec::none) src = decoding_source(std::move(src), codec, path);

    uint64_t origin = 0;   // stream offset of the piece being filled
    uint64_t read_to = 0;  // bytes read from src
    std::string carry;     // bytes after the last cut, for the next piece
    bool eof = false;
    while (!eof) {
      std::optional<StreamPiece> b = take_buffer(std::max(piece_bytes, carry.size() * 2));
      if (!b) return;
      size_t len = carry.size();
      std::memcpy(b->data(), carry.data(), len);
      carry.clear();
      size_t cut = 0;
      for (;;) {
        if (len == b->capacity - kPieceHeaderBytes) {
          // No safe split byte in a full buffer: the piece grows until one comes.
          StreamPiece bigger;
          bigger.capacity = kPieceHeaderBytes + 2 * len;
          bigger.buffer.reset(new char[bigger.capacity]);
          std::memcpy(bigger.data(), b->data(), len);
          *b = std::move(bigger);
        }
        const size_t room = b->capacity - kPieceHeaderBytes;
        const size_t want = (len < piece_bytes ? piece_bytes : room) - len;
        const size_t got = src->read_at(read_to, reinterpret_cast<unsigned char*>(b->data() + len), want);
        len += got;
        read_to += got;
        if (got < want) {
          eof = true;
          cut = len;
          break;
        }
        if ((cut = last_cut(b->data(), len)) != 0) break;
      }
      carry.assign(b->data() + cut, len - cut);
      if (cut == 0) {  // the end of an empty stream
        give_back(std::move(*b));
        break;
      }
      b->origin = origin;
      b->size = cut;
      origin += cut;
      publish(std::move(*b));
    }
    std::lock_guard lock(mu);
    size = origin;
  }

  void give_back(StreamPiece piece) {
    {
      std::lock_guard lock(mu);
      spare.push_back(std::move(piece));
      --held;
    }
    freed.notify_one();
  }
};

StreamReader::StreamReader(std::string path, size_t piece_bytes, size_t max_held)
    : shared_(std::make_shared<Shared>()) {
  shared_->path = std::move(path);
  shared_->piece_bytes = piece_bytes;
  shared_->max_held = std::max<size_t>(max_held, 2);
  // The thread shares the state: it may outlive this object (see ~).
  std::thread([s = shared_] { s->run(); }).detach();
}

StreamReader::~StreamReader() {
  {
    std::lock_guard lock(shared_->mu);
    shared_->stop = true;
  }
  shared_->freed.notify_all();
}

std::optional<StreamPiece> StreamReader::next(int wait_ms) {
  Shared& s = *shared_;
  std::unique_lock lock(s.mu);
  const auto has = [&] { return !s.pieces.empty() || s.ended; };
  if (wait_ms < 0) s.ready.wait(lock, has);
  else if (!s.ready.wait_for(lock, std::chrono::milliseconds(wait_ms), has)) return std::nullopt;
  if (!s.pieces.empty()) {
    StreamPiece p = std::move(s.pieces.front());
    s.pieces.pop_front();
    return p;
  }
  if (s.error) std::rethrow_exception(s.error);
  return std::nullopt;
}

bool StreamReader::at_end() const {
  std::lock_guard lock(shared_->mu);
  return shared_->ended && shared_->pieces.empty();
}

void StreamReader::give_back(StreamPiece piece) { shared_->give_back(std::move(piece)); }

uint64_t StreamReader::size() const {
  std::lock_guard lock(shared_->mu);
  return shared_->size;
}

}  // namespace spellcheck
