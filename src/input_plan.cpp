#include "spellcheck/input_plan.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>
#include <utility>

#include "spellcheck/errors.hpp"

namespace spellcheck {

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw InputError("cannot read '" + path + "': " + std::strerror(err));
}

void require_openable(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, errno);
  ::close(fd);
}

std::string join(const std::string& dir, const char* name) {
  std::string p = dir;
  if (p.empty() || p.back() != '/') p.push_back('/');
  p += name;
  return p;
}

struct Walker {
  std::vector<InputFile>* out;
  std::set<std::pair<dev_t, ino_t>> open_dirs;  // the directories being walked: guards against loops

  void add_file(const std::string& path, const struct stat& st) {
    require_openable(path);
    out->push_back({path, static_cast<uint64_t>(st.st_size)});
  }

  void walk(const std::string& dir, const struct stat& dst) {
    const std::pair<dev_t, ino_t> id{dst.st_dev, dst.st_ino};
    if (!open_dirs.insert(id).second) return;  // a loop (bind mount)
    walk_entries(dir);
    open_dirs.erase(id);
  }

  void walk_entries(const std::string& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) fail(dir, errno);
    std::vector<std::string> names;
    for (;;) {
      errno = 0;
      const dirent* e = ::readdir(d);
      if (!e) {
        if (errno != 0) {
          const int err = errno;
          ::closedir(d);
          fail(dir, err);
        }
        break;
      }
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      names.emplace_back(e->d_name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      const std::string p = join(dir, n.c_str());
      struct stat st;
      if (::lstat(p.c_str(), &st) != 0) {
        if (errno == ENOENT) continue;  // vanished meanwhile
        fail(p, errno);
      }
      if (S_ISLNK(st.st_mode)) {
        // Links to files are read; links to directories are not followed;
        // broken links are not regular files.
        if (::stat(p.c_str(), &st) != 0) continue;
        if (S_ISREG(st.st_mode)) add_file(p, st);
      } else if (S_ISDIR(st.st_mode)) {
        walk(p, st);
      } else if (S_ISREG(st.st_mode)) {
        add_file(p, st);
      }
    }
  }
};

void put_u64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t get_u64(std::string_view& s) {
  if (s.size() < 8) throw std::runtime_error("input plan: truncated");
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(s[static_cast<size_t>(i)])) << (8 * i);
  s.remove_prefix(8);
  return v;
}

constexpr uint64_t kMagic = 0x314E414C50435053ULL;  // "SPCPLAN1"

}  // namespace

size_t InputPlan::file_at(uint64_t pos) const {
  // Last i with offsets[i] <= pos, skipping empty files.
  const auto it = std::upper_bound(offsets.begin(), offsets.end() - 1, pos);
  return static_cast<size_t>(it - offsets.begin()) - 1;
}

void finish_input_plan(InputPlan& plan) {
  plan.offsets.assign(plan.files.size() + 1, 0);
  uint64_t total = 0;
  for (size_t i = 0; i < plan.files.size(); ++i) {
    plan.offsets[i] = total;
    total += plan.files[i].size;
  }
  plan.offsets.back() = total;
}

InputPlan make_input_plan(std::span<const std::string> inputs) {
  InputPlan plan;
  Walker w{&plan.files, {}};
  for (const std::string& path : inputs) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) fail(path, errno);
    if (S_ISDIR(st.st_mode)) {
      w.walk(path, st);
    } else if (S_ISREG(st.st_mode)) {
      w.add_file(path, st);
    } else {
      throw InputError("cannot read '" + path + "': not a regular file or directory");
    }
  }
  std::sort(plan.files.begin(), plan.files.end(),
            [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  plan.files.erase(std::unique(plan.files.begin(), plan.files.end(),
                               [](const InputFile& a, const InputFile& b) { return a.path == b.path; }),
                   plan.files.end());
  if (plan.files.size() > UINT32_MAX) throw InputError("too many input files");
  finish_input_plan(plan);
  return plan;
}

std::string serialize_input_plan(const InputPlan& plan) {
  std::string s;
  size_t n = 16;
  for (const InputFile& f : plan.files) n += 16 + f.path.size();
  s.reserve(n);
  put_u64(s, kMagic);
  put_u64(s, plan.files.size());
  for (const InputFile& f : plan.files) {
    put_u64(s, f.size);
    put_u64(s, f.path.size());
    s += f.path;
  }
  return s;
}

InputPlan deserialize_input_plan(std::string_view bytes) {
  if (get_u64(bytes) != kMagic) throw std::runtime_error("input plan: bad magic");
  const uint64_t n = get_u64(bytes);
  if (n > bytes.size() / 16) throw std::runtime_error("input plan: bad file count");
  InputPlan plan;
  plan.files.resize(n);
  for (InputFile& f : plan.files) {
    f.size = get_u64(bytes);
    const uint64_t len = get_u64(bytes);
    if (len > bytes.size()) throw std::runtime_error("input plan: truncated");
    f.path.assign(bytes.substr(0, len));
    bytes.remove_prefix(len);
  }
  if (!bytes.empty()) throw std::runtime_error("input plan: trailing bytes");
  finish_input_plan(plan);
  return plan;
}

std::vector<ByteRange> stream_ranges(const InputPlan& plan, uint64_t begin, uint64_t end) {
  std::vector<ByteRange> out;
  end = std::min(end, plan.total_bytes());
  if (begin >= end) return out;
  for (size_t i = plan.file_at(begin); i < plan.files.size() && plan.offsets[i] < end; ++i) {
    const uint64_t fb = plan.offsets[i], fe = plan.offsets[i + 1];
    const uint64_t b = std::max(begin, fb), e = std::min(end, fe);
    if (b < e) out.push_back({static_cast<uint32_t>(i), b - fb, e - fb});
  }
  return out;
}

std::vector<ByteRange> split_stream(const InputPlan& plan, int rank, int ranks) {
  if (ranks <= 0 || rank < 0 || rank >= ranks) throw std::invalid_argument("split_stream: bad rank");
  const auto share = [&](int r) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(plan.total_bytes()) * static_cast<unsigned>(r) /
                                 static_cast<unsigned>(ranks));
  };
  return stream_ranges(plan, share(rank), share(rank + 1));
}

}  // namespace spellcheck
