#include "spellcheck/input/detail/byte_source.hpp"

#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "spellcheck/common/errors.hpp"

namespace spellcheck {

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& why) {
  throw InputError("cannot read '" + name + "': " + why);
}

class FileSource final : public ByteSource {
 public:
  explicit FileSource(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(path_, std::strerror(errno));
  }
  ~FileSource() override { ::close(fd_); }

  size_t read_at(uint64_t off, unsigned char* p, size_t n) override {
    size_t got = 0;
    while (got < n) {
      const ssize_t r = ::pread(fd_, p + got, n - got, static_cast<off_t>(off + got));
      if (r < 0) {
        if (errno == EINTR) continue;
        fail(path_, std::strerror(errno));
      }
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    return got;
  }

 private:
  std::string path_;
  int fd_ = -1;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(std::string_view bytes, uint64_t origin, std::string name)
      : bytes_(bytes), origin_(origin), name_(std::move(name)) {}

  size_t read_at(uint64_t off, unsigned char* p, size_t n) override {
    if (off < origin_) throw std::logic_error("memory source '" + name_ + "': read before its first byte");
    const uint64_t at = off - origin_;
    if (at >= bytes_.size()) return 0;
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n, bytes_.size() - at));
    std::memcpy(p, bytes_.data() + at, k);
    return k;
  }

 private:
  std::string_view bytes_;
  uint64_t origin_;
  std::string name_;
};

// Shared by the decoders: compressed bytes come from `raw` in 256 KiB reads;
// decode() fills up to n bytes and sets ended_ at the end of the data.
class Decoder : public ByteSource {
 public:
  Decoder(std::unique_ptr<ByteSource> raw, std::string name, Codec codec)
      : raw_(std::move(raw)), name_(std::move(name)), codec_(codec), in_(new unsigned char[kInBytes]) {}

  size_t read_at(uint64_t off, unsigned char* p, size_t n) final {
    if (off != pos_) throw std::logic_error("compressed input '" + name_ + "': read out of order");
    size_t got = 0;
    while (got < n && !ended_) got += decode(p + got, n - got);
    pos_ += got;
    return got;
  }

 protected:
  virtual size_t decode(unsigned char* p, size_t n) = 0;

  // The next compressed bytes in in_ptr_/in_len_; false (raw_eof_) at the end.
  bool more_input() {
    if (raw_eof_) return false;
    in_len_ = raw_->read_at(raw_off_, in_.get(), kInBytes);
    in_ptr_ = in_.get();
    raw_off_ += in_len_;
    if (in_len_ == 0) raw_eof_ = true;
    return in_len_ > 0;
  }

  [[noreturn]] void truncated() const { fail(name_, std::string("truncated ") + codec_name(codec_) + " data"); }
  [[noreturn]] void corrupt(const char* why) const {
    fail(name_, std::string("corrupt ") + codec_name(codec_) + " data (" + why + ")");
  }

  static constexpr size_t kInBytes = 256 << 10;
  std::unique_ptr<ByteSource> raw_;
  std::string name_;
  Codec codec_;
  std::unique_ptr<unsigned char[]> in_;
  const unsigned char* in_ptr_ = nullptr;
  size_t in_len_ = 0;
  uint64_t raw_off_ = 0;
  bool raw_eof_ = false;
  uint64_t pos_ = 0;
  bool ended_ = false;
};

// Decoder states are kept for the next file of the same thread: a fresh
// zstd context cost about a tenth of the ingest time of a collection of
// 80 KB files (its set-up and its window buffer), and the plan's binary
// check decodes the start of every compressed file.
template <class State, void (*Free)(State*)>
class Reused {
 public:
  static State* take() { return std::exchange(spare().p, nullptr); }
  static void give(State* s) {
    if (!spare().p) spare().p = s;
    else Free(s);
  }

 private:
  struct Spare {
    State* p = nullptr;
    ~Spare() {
      if (p) Free(p);
    }
  };
  static Spare& spare() {
    thread_local Spare s;
    return s;
  }
};

void free_inflate(z_stream* z) {
  inflateEnd(z);
  delete z;
}
using ReusedInflate = Reused<z_stream, free_inflate>;

// gzip (and zlib) through zlib; concatenated members are read in turn.
class GzipDecoder final : public Decoder {
 public:
  GzipDecoder(std::unique_ptr<ByteSource> raw, std::string name)
      : Decoder(std::move(raw), std::move(name), Codec::gzip), z_(ReusedInflate::take()) {
    if (z_) {
      inflateReset(z_);
    } else {
      z_ = new z_stream{};
      if (inflateInit2(z_, 15 + 32) != Z_OK) {
        delete z_;
        throw std::bad_alloc();
      }
    }
    z_->next_in = nullptr;
    z_->avail_in = 0;
  }
  ~GzipDecoder() override { ReusedInflate::give(z_); }

 private:
  size_t decode(unsigned char* p, size_t n) override {
    z_->next_out = p;
    z_->avail_out = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    const uInt asked = z_->avail_out;
    while (z_->avail_out > 0) {
      if (z_->avail_in == 0 && more_input()) {
        z_->next_in = const_cast<Bytef*>(in_ptr_);
        z_->avail_in = static_cast<uInt>(in_len_);
      }
      if (member_done_) {
        if (z_->avail_in == 0) {
          ended_ = true;
          break;
        }
        inflateReset(z_);  // another member follows (pigz, cat a.gz b.gz)
        member_done_ = false;
      }
      if (z_->avail_in == 0) truncated();
      const int rc = inflate(z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        member_done_ = true;
      } else if (rc != Z_OK) {
        corrupt(z_->msg ? z_->msg : "bad data");
      }
    }
    return asked - z_->avail_out;
  }

  z_stream* z_;
  bool member_done_ = false;
};

void free_zstd(ZSTD_DCtx* d) { ZSTD_freeDCtx(d); }
using ReusedZstd = Reused<ZSTD_DCtx, free_zstd>;

class ZstdDecoder final : public Decoder {
 public:
  ZstdDecoder(std::unique_ptr<ByteSource> raw, std::string name)
      : Decoder(std::move(raw), std::move(name), Codec::zstd), dctx_(ReusedZstd::take()) {
    if (dctx_) ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);
    else dctx_ = ZSTD_createDCtx();
    if (!dctx_) throw std::bad_alloc();
  }
  ~ZstdDecoder() override { ReusedZstd::give(dctx_); }

 private:
  size_t decode(unsigned char* p, size_t n) override {
    ZSTD_outBuffer out{p, n, 0};
    while (out.pos < out.size) {
      if (in_.pos == in_.size && more_input()) in_ = {in_ptr_, in_len_, 0};
      const bool no_input = in_.pos == in_.size;
      if (no_input && last_ == 0) {  // every frame decoded and flushed
        ended_ = true;
        break;
      }
      const size_t before = out.pos;
      last_ = ZSTD_decompressStream(dctx_, &out, &in_);
      if (ZSTD_isError(last_)) corrupt(ZSTD_getErrorName(last_));
      if (no_input && out.pos == before && last_ != 0) truncated();
    }
    return out.pos;
  }

  ZSTD_DCtx* dctx_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  size_t last_ = 1;  // ZSTD_decompressStream's hint; 0: at a frame boundary
};

const char* bz_error(int rc) {
  switch (rc) {
    case BZ_DATA_ERROR: return "data error";
    case BZ_DATA_ERROR_MAGIC: return "bad magic";
    case BZ_MEM_ERROR: return "out of memory";
    default: return "error";
  }
}

// bzip2; concatenated streams (pbzip2, lbzip2) are read in turn.
class Bzip2Decoder final : public Decoder {
 public:
  Bzip2Decoder(std::unique_ptr<ByteSource> raw, std::string name)
      : Decoder(std::move(raw), std::move(name), Codec::bzip2) {
    init();
  }
  ~Bzip2Decoder() override { BZ2_bzDecompressEnd(&bs_); }

 private:
  void init() {
    std::memset(&bs_, 0, sizeof bs_);
    if (BZ2_bzDecompressInit(&bs_, 0, 0) != BZ_OK) throw std::bad_alloc();
  }

  size_t decode(unsigned char* p, size_t n) override {
    bs_.next_out = reinterpret_cast<char*>(p);
    bs_.avail_out = static_cast<unsigned>(std::min<size_t>(n, 1u << 30));
    const unsigned asked = bs_.avail_out;
    while (bs_.avail_out > 0) {
      if (bs_.avail_in == 0 && more_input()) {
        bs_.next_in = reinterpret_cast<char*>(const_cast<unsigned char*>(in_ptr_));
        bs_.avail_in = static_cast<unsigned>(in_len_);
      }
      if (stream_done_) {
        if (bs_.avail_in == 0) {
          ended_ = true;
          break;
        }
        char* const next_in = bs_.next_in;
        const unsigned avail_in = bs_.avail_in;
        char* const next_out = bs_.next_out;
        const unsigned avail_out = bs_.avail_out;
        BZ2_bzDecompressEnd(&bs_);
        init();
        bs_.next_in = next_in;
        bs_.avail_in = avail_in;
        bs_.next_out = next_out;
        bs_.avail_out = avail_out;
        stream_done_ = false;
      }
      const bool no_input = bs_.avail_in == 0;
      const unsigned before = bs_.avail_out;
      const int rc = BZ2_bzDecompress(&bs_);
      if (rc == BZ_STREAM_END) {
        stream_done_ = true;
        continue;
      }
      if (rc != BZ_OK) corrupt(bz_error(rc));
      if (no_input && bs_.avail_out == before) truncated();
    }
    return asked - bs_.avail_out;
  }

  bz_stream bs_;
  bool stream_done_ = false;
};

const char* lzma_error(lzma_ret rc) {
  switch (rc) {
    case LZMA_FORMAT_ERROR: return "not xz";
    case LZMA_OPTIONS_ERROR: return "unsupported options";
    case LZMA_DATA_ERROR: return "data error";
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "memory limit";
    default: return "error";
  }
}

// xz; concatenated streams are read in turn.
class XzDecoder final : public Decoder {
 public:
  XzDecoder(std::unique_ptr<ByteSource> raw, std::string name) : Decoder(std::move(raw), std::move(name), Codec::xz) {
    if (lzma_stream_decoder(&ls_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) throw std::bad_alloc();
  }
  ~XzDecoder() override { lzma_end(&ls_); }

 private:
  size_t decode(unsigned char* p, size_t n) override {
    ls_.next_out = p;
    ls_.avail_out = n;
    while (ls_.avail_out > 0) {
      if (ls_.avail_in == 0 && more_input()) {
        ls_.next_in = in_ptr_;
        ls_.avail_in = in_len_;
      }
      const lzma_ret rc = lzma_code(&ls_, ls_.avail_in == 0 && raw_eof_ ? LZMA_FINISH : LZMA_RUN);
      if (rc == LZMA_STREAM_END) {
        ended_ = true;
        break;
      }
      if (rc == LZMA_BUF_ERROR) truncated();  // no progress possible: input ended early
      if (rc != LZMA_OK) corrupt(lzma_error(rc));
    }
    return n - ls_.avail_out;
  }

  lzma_stream ls_ = LZMA_STREAM_INIT;
};

}  // namespace

Codec detect_codec(const unsigned char* p, size_t n) {
  auto starts = [&](std::initializer_list<unsigned char> magic) {
    return n >= magic.size() && std::equal(magic.begin(), magic.end(), p);
  };
  if (starts({0x1F, 0x8B})) return Codec::gzip;
  if (starts({0x28, 0xB5, 0x2F, 0xFD})) return Codec::zstd;
  // "BZh" and a block size digit 1-9: plain text may start with "BZh" too.
  if (starts({'B', 'Z', 'h'}) && n >= 4 && p[3] >= '1' && p[3] <= '9') return Codec::bzip2;
  if (starts({0xFD, '7', 'z', 'X', 'Z', 0x00})) return Codec::xz;
  return Codec::none;
}

const char* codec_name(Codec c) {
  switch (c) {
    case Codec::none: return "plain";
    case Codec::gzip: return "gzip";
    case Codec::zstd: return "zstd";
    case Codec::bzip2: return "bzip2";
    case Codec::xz: return "xz";
  }
  return "?";
}

std::unique_ptr<ByteSource> open_file_source(const std::string& path) { return std::make_unique<FileSource>(path); }

std::unique_ptr<ByteSource> memory_source(std::string_view bytes, uint64_t origin, std::string name) {
  return std::make_unique<MemorySource>(bytes, origin, std::move(name));
}

std::unique_ptr<ByteSource> decoding_source(std::unique_ptr<ByteSource> raw, Codec codec, std::string name) {
  switch (codec) {
    case Codec::none: return raw;
    case Codec::gzip: return std::make_unique<GzipDecoder>(std::move(raw), std::move(name));
    case Codec::zstd: return std::make_unique<ZstdDecoder>(std::move(raw), std::move(name));
    case Codec::bzip2: return std::make_unique<Bzip2Decoder>(std::move(raw), std::move(name));
    case Codec::xz: return std::make_unique<XzDecoder>(std::move(raw), std::move(name));
  }
  throw std::invalid_argument("decoding_source: bad codec");
}

std::unique_ptr<ByteSource> open_input(const std::string& path, Codec codec) {
  return decoding_source(open_file_source(path), codec, path);
}

std::string read_head(const std::string& path, Codec codec, size_t n) {
  std::string s(n, '\0');
  s.resize(open_input(path, codec)->read_at(0, reinterpret_cast<unsigned char*>(s.data()), n));
  return s;
}

std::string read_all(ByteSource& source) {
  std::string s;
  size_t len = 0;
  for (;;) {
    if (s.size() - len < (64u << 10)) s.resize(std::max<size_t>(s.size() * 2, 1u << 20));
    const size_t want = s.size() - len;
    const size_t got = source.read_at(len, reinterpret_cast<unsigned char*>(s.data() + len), want);
    len += got;
    if (got < want) break;
  }
  s.resize(len);
  return s;
}

namespace {

// An anonymous mapping (unmapped with its owner). No huge pages: with the
// kernel's defrag on madvise, faulting them in stalls on compaction
// (results/design-choices.md).
struct Mapping {
  void* p = MAP_FAILED;
  size_t cap = 0;
  explicit Mapping(size_t n) : cap(std::max<size_t>(n, 1)) {
    p = ::mmap(nullptr, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
  }
  ~Mapping() {
    if (p != MAP_FAILED) ::munmap(p, cap);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  char* data() const { return static_cast<char*>(p); }
};

}  // namespace

HeldBytes allocate_bytes(size_t n, char** data) {
  auto m = std::make_shared<Mapping>(n);
  *data = m->data();
  return {m, std::string_view(m->data(), n)};
}

HeldBytes hold(std::string s) {
  auto p = std::make_shared<const std::string>(std::move(s));
  const std::string_view v = *p;
  return {std::move(p), v};
}

}  // namespace spellcheck
