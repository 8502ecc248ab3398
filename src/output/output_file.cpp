#include "spellcheck/output/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "spellcheck/common/errors.hpp"

namespace spellcheck {

namespace {

constexpr int kMaxLinks = 40;  // as the kernel's ELOOP limit

// "dir/" of a path ("" when it has no slash), for resolving a relative link.
std::string dir_prefix(const std::string& p) {
  const size_t s = p.rfind('/');
  return s == std::string::npos ? std::string() : p.substr(0, s + 1);
}

// The directory a path's last component lives in ("." when it has no slash).
std::string dir_of(const std::string& p) {
  const size_t s = p.rfind('/');
  if (s == std::string::npos) return ".";
  if (s == 0) return "/";
  return p.substr(0, s);
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// An inherited descriptor named by the path (/dev/stdout, /dev/fd/3,
// /proc/self/fd/3), or -1.
int named_descriptor(const std::string& p) {
  if (p == "/dev/stdout") return STDOUT_FILENO;
  if (p == "/dev/stderr") return STDERR_FILENO;
  for (std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (!starts_with(p, prefix) || p.size() == prefix.size() || p.size() > prefix.size() + 9) continue;
    int fd = 0;
    for (size_t i = prefix.size(); i < p.size(); ++i) {
      if (p[i] < '0' || p[i] > '9') return -1;
      fd = fd * 10 + (p[i] - '0');
    }
    return fd;
  }
  return -1;
}

// The process's umask, without changing it when /proc tells it.
mode_t current_umask() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (starts_with(line, "Umask:")) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  const mode_t m = ::umask(022);
  ::umask(m);
  return m;
}

std::string tmp_name(const std::string& target, int attempt) {
  std::string s = target;
  s += ".tmp.";
  s += std::to_string(::getpid());
  if (attempt > 0) {
    s += '.';
    s += std::to_string(attempt);
  }
  return s;
}

}  // namespace

void OutputFile::fail(int err) const { throw InputError("cannot write '" + path_ + "': " + std::strerror(err)); }

OutputFile::OutputFile(std::string path, bool unnamed_temporary) : path_(std::move(path)) {
  if (path_.empty() || path_ == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  // Follow symbolic links to the final target; a descriptor or /proc path
  // on the way is written as it is (its link text is not a path).
  std::string p = path_;
  bool exists = false;
  struct stat st {};
  for (int hops = 0;; ++hops) {
    const int fd = named_descriptor(p);
    if (fd >= 0) {
      if (::fcntl(fd, F_GETFD) < 0) fail(errno);
      fd_ = fd;
      target_ = p;
      return;
    }
    if (starts_with(p, "/proc/")) {
      kind_ = Kind::direct;
      target_ = p;
      fd_ = ::open(p.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
      if (fd_ < 0) fail(errno);
      own_fd_ = true;
      return;
    }
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) fail(errno);
      break;
    }
    if (!S_ISLNK(st.st_mode)) {
      exists = true;
      break;
    }
    if (hops == kMaxLinks) fail(ELOOP);
    std::string link(static_cast<size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    for (;;) {
      const ssize_t n = ::readlink(p.c_str(), link.data(), link.size());
      if (n < 0) fail(errno);
      if (static_cast<size_t>(n) < link.size()) {
        link.resize(static_cast<size_t>(n));
        break;
      }
      link.resize(link.size() * 2);
    }
    p = !link.empty() && link[0] == '/' ? link : dir_prefix(p) + link;
  }
  target_ = p;

  mode_t mode = 0666 & ~current_umask();
  if (exists) {
    if (S_ISDIR(st.st_mode)) fail(EISDIR);
    if (!S_ISREG(st.st_mode)) {
      // A device, FIFO or socket: written in place, never replaced.
      kind_ = Kind::direct;
      fd_ = ::open(p.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd_ < 0) fail(errno);
      own_fd_ = true;
      return;
    }
    mode = st.st_mode & 07777;
  } else if (p.back() == '/') {
    fail(EISDIR);
  }

  const std::string dir = dir_of(p);
  kind_ = Kind::unnamed;
  fd_ = unnamed_temporary ? ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode) : -1;
  if (fd_ < 0) {
    const int err = unnamed_temporary ? errno : EOPNOTSUPP;
    if (err != EOPNOTSUPP && err != EISDIR && err != EINVAL) fail(err);
    // No O_TMPFILE here: a named temporary file.
    kind_ = Kind::named;
    for (int attempt = 0; fd_ < 0; ++attempt) {
      tmp_ = tmp_name(p, attempt);
      fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
      if (fd_ < 0 && (errno != EEXIST || attempt == 100)) {
        const int e = errno;
        tmp_.clear();
        fail(e);
      }
    }
    removal_ = RemovalOnSignal(tmp_);
  }
  own_fd_ = true;
  // The umask has shaped the mode already, or (O_TMPFILE on some kernels
  // and file systems, default ACLs) not: set it as meant.
  if (::fchmod(fd_, mode) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    tmp_.clear();
    removal_.release();
    fail(err);
  }
}

OutputFile::~OutputFile() {
  if (own_fd_ && fd_ >= 0) ::close(fd_);
  if (!tmp_.empty() && !committed_) ::unlink(tmp_.c_str());
}

void OutputFile::write(std::string_view bytes) {
  flush();
  write_all(bytes);
}

void OutputFile::flush() {
  if (buffer_.empty()) return;
  write_all(buffer_);
  buffer_.clear();
}

void OutputFile::write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write '" + (path_.empty() ? std::string("stdout") : path_) +
                               "': " + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void OutputFile::commit() {
  flush();
  if (committed_) return;
  auto error = [&](int err) { return std::runtime_error("cannot write '" + path_ + "': " + std::strerror(err)); };
  // Give an unnamed file a name beside the target, then rename it over.
  if (kind_ == Kind::unnamed) link_unnamed();
  if (own_fd_) {
    const int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) throw error(errno);
  }
  if (kind_ == Kind::unnamed || kind_ == Kind::named) {
    if (::rename(tmp_.c_str(), target_.c_str()) != 0) throw error(errno);
    tmp_.clear();
    removal_.release();
  }
  committed_ = true;
}

void OutputFile::link_unnamed() {
  const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
  for (int attempt = 0;; ++attempt) {
    const std::string name = tmp_name(target_, attempt);
    // Registered first: a signal between the link and the registration
    // would leave the name.
    RemovalOnSignal removal(name);
    int rc = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW);
    if (rc != 0 && errno == ENOENT && ::access("/proc/self/fd", X_OK) != 0)
      rc = ::linkat(fd_, "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH);  // no /proc: needs CAP_DAC_READ_SEARCH
    if (rc == 0) {
      tmp_ = name;
      removal_ = std::move(removal);
      kind_ = Kind::named;
      return;
    }
    removal.release();  // the name is someone else's (EEXIST) or was never made
    if (errno != EEXIST || attempt == 100)
      throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  }
}

const std::string& OutputFile::shared_temporary() {
  if (kind_ == Kind::unnamed) {
    flush();
    link_unnamed();
  }
  return tmp_;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  OutputFile f(path);
  f.write(text);
  f.commit();
}

}  // namespace spellcheck
