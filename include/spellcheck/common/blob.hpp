#pragma once
// Flat binary files of arrays (the ranked index cache, index_cache.hpp):
// values and vectors of trivially copyable types written back to back as
// memory holds them, little-endian (as common/wire.hpp's messages; the
// build refuses a big-endian machine rather than write other bytes), with an XXH3 digest of everything passed
// through, so a reader can tell a damaged file from a good one. Big arrays
// go straight between the file and the vector's memory (no second copy).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace spellcheck {

static_assert(std::endian::native == std::endian::little, "index cache files are little-endian");

// A file that ends early, or holds a size it cannot hold.
struct BlobError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class BlobWriter {
 public:
  explicit BlobWriter(int fd);
  ~BlobWriter();
  BlobWriter(const BlobWriter&) = delete;
  BlobWriter& operator=(const BlobWriter&) = delete;

  // Throws std::system_error when the file cannot take them.
  void bytes(const void* p, size_t n);
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  template <class T>
  void array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    value<uint64_t>(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
  void string(const std::string& s) {
    value<uint64_t>(s.size());
    bytes(s.data(), s.size());
  }
  // The digest of every byte so far (buffered ones included).
  uint64_t digest() const;
  // Writes out the buffer.
  void flush();

 private:
  int fd_;
  std::vector<char> buffer_;
  size_t used_ = 0;
  void* state_;  // XXH3_state_t
};

class BlobReader {
 public:
  // size: the bytes the file holds from the current offset on.
  BlobReader(int fd, uint64_t size);
  ~BlobReader();
  BlobReader(const BlobReader&) = delete;
  BlobReader& operator=(const BlobReader&) = delete;

  // Throws BlobError past the end, std::system_error on a read error.
  void bytes(void* p, size_t n);
  template <class T>
  T value() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  template <class T>
  void array(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const uint64_t n = value<uint64_t>();
    if (n > remaining() / sizeof(T)) throw BlobError("an array longer than the file");
    v.resize(n);
    bytes(v.data(), n * sizeof(T));
  }
  void string(std::string& s) {
    const uint64_t n = value<uint64_t>();
    if (n > remaining()) throw BlobError("a string longer than the file");
    s.resize(n);
    bytes(s.data(), n);
  }
  uint64_t remaining() const { return size_ - taken_; }
  uint64_t digest() const;

 private:
  int fd_;
  uint64_t size_, taken_ = 0;
  std::vector<char> buffer_;
  size_t at_ = 0, filled_ = 0;
  void* state_;  // XXH3_state_t
};

}  // namespace spellcheck
