#include "spellcheck/suggest/index_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/removal_on_signal.hpp"

namespace spellcheck {

namespace {

constexpr char kMagic[16] = {'s', 'p', 'e', 'l', 'l', 'c', 'h', 'e', 'c', 'k', '-', 'r', 'i', 'd', 'x', '\n'};

// Closes a descriptor on every way out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

void prepare_index_cache_dir(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT || (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST))
      throw InputError("index cache directory '" + dir + "': " + std::strerror(errno));
    if (::stat(dir.c_str(), &st) != 0) throw InputError("index cache directory '" + dir + "': " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) throw InputError("index cache directory '" + dir + "' is not a directory");
}

std::string index_cache_path(const std::string& dir, uint64_t key, int rank, int ranks) {
  char name[96];
  std::snprintf(name, sizeof name, "spellcheck-ranked-%016" PRIx64 "-%d-of-%d.idx", key, rank, ranks);
  return dir + (dir.empty() || dir.back() == '/' ? "" : "/") + name;
}

CacheRead read_index_cache(const std::string& path, uint64_t key, int rank, int ranks,
                           const std::function<void(BlobReader&)>& load, std::string& why) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) {
    if (errno == ENOENT) return CacheRead::missing;
    why = std::strerror(errno);
    return CacheRead::damaged;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
    return CacheRead::damaged;
  }
  try {
    BlobReader r(f.fd, static_cast<uint64_t>(st.st_size));
    char magic[sizeof kMagic];
    r.bytes(magic, sizeof magic);
    if (std::memcmp(magic, kMagic, sizeof magic) != 0) {
      why = "not an index cache file";
      return CacheRead::damaged;
    }
    const auto format = r.value<uint32_t>();
    const auto file_key = r.value<uint64_t>();
    const auto file_rank = r.value<uint32_t>();
    const auto file_ranks = r.value<uint32_t>();
    if (format != kIndexCacheFormat || file_key != key || file_rank != static_cast<uint32_t>(rank) ||
        file_ranks != static_cast<uint32_t>(ranks)) {
      why = "written for another format, index or rank";
      return CacheRead::damaged;
    }
    load(r);
    const uint64_t digest = r.digest();
    if (r.remaining() != sizeof(uint64_t) || r.value<uint64_t>() != digest) {
      why = "its checksum does not match";
      return CacheRead::damaged;
    }
  } catch (const BlobError& e) {
    why = e.what();
    return CacheRead::damaged;
  } catch (const std::system_error& e) {
    why = e.what();
    return CacheRead::damaged;
  } catch (const std::bad_alloc&) {
    why = "a size beyond memory";
    return CacheRead::damaged;
  }
  return CacheRead::loaded;
}

std::string write_index_cache(const std::string& path, uint64_t key, int rank, int ranks,
                              const std::function<void(BlobWriter&)>& save) {
  std::string tmp;
  // Registered before it exists: a signal between the two would leave it.
  RemovalOnSignal removal;
  Fd f;
  for (int attempt = 0; f.fd < 0; ++attempt) {
    tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
    removal = RemovalOnSignal(tmp);
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (f.fd < 0 && (errno != EEXIST || attempt == 100)) return std::strerror(errno);
  }
  std::string failure;
  try {
    BlobWriter w(f.fd);
    w.bytes(kMagic, sizeof kMagic);
    w.value<uint32_t>(kIndexCacheFormat);
    w.value<uint64_t>(key);
    w.value<uint32_t>(static_cast<uint32_t>(rank));
    w.value<uint32_t>(static_cast<uint32_t>(ranks));
    save(w);
    const uint64_t digest = w.digest();
    w.value<uint64_t>(digest);
    w.flush();
    const int rc = ::close(std::exchange(f.fd, -1));
    if (rc != 0) throw std::system_error(errno, std::generic_category(), "close");
    if (::rename(tmp.c_str(), path.c_str()) != 0) throw std::system_error(errno, std::generic_category(), "rename");
  } catch (const std::system_error& e) {
    failure = std::strerror(e.code().value());
  }
  if (!failure.empty()) ::unlink(tmp.c_str());
  removal.release();
  return failure;
}

}  // namespace spellcheck
