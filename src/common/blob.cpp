#include "spellcheck/common/blob.hpp"

#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace spellcheck {

namespace {

constexpr size_t kBufferBytes = 1 << 20;
// Arrays this big skip the buffer.
constexpr size_t kDirectBytes = 1 << 16;

XXH3_state_t* fresh_state() {
  XXH3_state_t* s = XXH3_createState();
  if (s == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(s);
  return s;
}

XXH3_state_t* as_state(void* p) { return static_cast<XXH3_state_t*>(p); }

void write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "write");
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// Reads up to n bytes (fewer only at the end of the file).
size_t read_some(int fd, char* p, size_t n) {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, p + got, n - got);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "read");
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

}  // namespace

BlobWriter::BlobWriter(int fd) : fd_(fd), buffer_(kBufferBytes), state_(fresh_state()) {}

BlobWriter::~BlobWriter() { XXH3_freeState(as_state(state_)); }

void BlobWriter::bytes(const void* p, size_t n) {
  if (n == 0) return;  // (an empty vector's data() may be null: no memcpy of it)
  XXH3_64bits_update(as_state(state_), p, n);
  const char* c = static_cast<const char*>(p);
  if (n >= kDirectBytes) {
    flush();
    write_all(fd_, c, n);
    return;
  }
  if (used_ + n > buffer_.size()) flush();
  std::memcpy(buffer_.data() + used_, c, n);
  used_ += n;
}

uint64_t BlobWriter::digest() const { return XXH3_64bits_digest(as_state(state_)); }

void BlobWriter::flush() {
  write_all(fd_, buffer_.data(), used_);
  used_ = 0;
}

BlobReader::BlobReader(int fd, uint64_t size) : fd_(fd), size_(size), buffer_(kBufferBytes), state_(fresh_state()) {}

BlobReader::~BlobReader() { XXH3_freeState(as_state(state_)); }

void BlobReader::bytes(void* p, size_t n) {
  if (n == 0) return;
  if (n > remaining()) throw BlobError("the file ends early");
  char* c = static_cast<char*>(p);
  const size_t buffered = std::min(n, filled_ - at_);
  std::memcpy(c, buffer_.data() + at_, buffered);
  at_ += buffered;
  size_t done = buffered;
  if (done < n && n - done >= kDirectBytes) {
    if (read_some(fd_, c + done, n - done) != n - done) throw BlobError("the file ends early");
    done = n;
  }
  while (done < n) {
    filled_ = read_some(fd_, buffer_.data(), buffer_.size());
    at_ = 0;
    if (filled_ == 0) throw BlobError("the file ends early");
    const size_t k = std::min(n - done, filled_);
    std::memcpy(c + done, buffer_.data(), k);
    at_ = k;
    done += k;
  }
  taken_ += n;
  XXH3_64bits_update(as_state(state_), p, n);
}

uint64_t BlobReader::digest() const { return XXH3_64bits_digest(as_state(state_)); }

}  // namespace spellcheck
