#include "spellcheck/input/input_plan.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/input/detail/stream_reader.hpp"

namespace spellcheck {

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw InputError("cannot read '" + path + "': " + std::strerror(err));
}

Codec codec_of(std::string_view head) {
  return detect_codec(reinterpret_cast<const unsigned char*>(head.data()), head.size());
}

bool is_stream(const struct stat& st) { return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode); }

std::string join(const std::string& dir, const char* name) {
  std::string p = dir;
  if (p.empty() || p.back() != '/') p.push_back('/');
  p += name;
  return p;
}

struct Walker {
  InputPlan* plan;
  const PlanOptions* options;
  std::set<std::pair<dev_t, ino_t>> open_dirs;  // the directories being walked: guards against loops

  // walked: found in a directory (binary files are left out), not named.
  void add_file(const std::string& path, const struct stat& st, bool walked) {
    const std::string head = read_head(path, Codec::none, kBinaryCheckBytes);
    InputFile f;
    f.path = path;
    f.size = static_cast<uint64_t>(st.st_size);
    f.codec = codec_of(head);
    if (walked && !options->binary && f.whole()) {
      f.check_binary = true;  // decoding every file's start here would serialise the decoding on rank 0
    } else if (walked && !options->binary) {
      if (head.find('\0') != std::string::npos) {
        ++plan->skipped_binary;
        plan->binary_paths.push_back(path);
        return;
      }
    }
    if (f.whole()) {
      f.disk_bytes = f.size;
      f.size = compressed_span(f.disk_bytes);
    }
    plan->files.push_back(std::move(f));
  }

  // Hidden entries and --exclude matches are left out of walks.
  bool left_out(const std::string& name, const std::string& path) {
    if (!options->hidden && name[0] == '.') {
      ++plan->skipped_hidden;
      return true;
    }
    for (const std::string& glob : options->exclude) {
      const bool on_path = glob.find('/') != std::string::npos;
      if (::fnmatch(glob.c_str(), on_path ? path.c_str() : name.c_str(), 0) == 0) {
        ++plan->skipped_excluded;
        return true;
      }
    }
    return false;
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
      if (left_out(n, p)) continue;
      struct stat st;
      if (::lstat(p.c_str(), &st) != 0) {
        if (errno == ENOENT) continue;  // vanished meanwhile
        fail(p, errno);
      }
      if (S_ISLNK(st.st_mode)) {
        // Links to files are read; links to directories are not followed;
        // broken links are not regular files.
        if (::stat(p.c_str(), &st) != 0) continue;
        if (S_ISREG(st.st_mode)) add_file(p, st, true);
      } else if (S_ISDIR(st.st_mode)) {
        walk(p, st);
      } else if (S_ISREG(st.st_mode)) {
        add_file(p, st, true);
      }
    }
  }
};

void put_u64(std::string& s, uint64_t v) { wire::append_le<uint64_t>(s, v); }

// The next u64 of what is left of a plan (the front of s goes).
uint64_t get_u64(std::string_view& s) {
  size_t at = 0;
  const uint64_t v = wire::read_le_at<uint64_t>(s, at, "input plan");
  s.remove_prefix(at);
  return v;
}

constexpr uint64_t kMagic = 0x324E414C50435053ULL;  // "SPCPLAN2"

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
    // Offsets must ascend: a sum that wraps (a forged or corrupt plan) is
    // refused (found by fuzz/fuzz_input_plan).
    if (plan.files[i].size > UINT64_MAX - total) throw InputError("inputs: more than 2^64 bytes in total");
    total += plan.files[i].size;
  }
  plan.offsets.back() = total;
}

InputPlan make_input_plan(std::span<const std::string> inputs, const PlanOptions& options) {
  InputPlan plan;
  Walker w{&plan, &options, {}};
  std::set<std::string> streams_read;
  auto add_stream = [&](const std::string& path) {
    if (!streams_read.insert(path).second) return;  // named twice: read once
    InputFile f;
    f.path = path;
    f.stream = true;
    plan.files.push_back(std::move(f));
  };
  for (const std::string& path : inputs) {
    if (path == "-") {
      add_stream(path);
      continue;
    }
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) fail(path, errno);
    if (S_ISDIR(st.st_mode)) {
      w.walk(path, st);
    } else if (S_ISREG(st.st_mode)) {
      w.add_file(path, st, false);
    } else if (is_stream(st)) {
      add_stream(path);
    } else {
      throw InputError("cannot read '" + path + "': not a regular file, directory or stream");
    }
  }
  std::sort(plan.files.begin(), plan.files.end(),
            [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  plan.files.erase(std::unique(plan.files.begin(), plan.files.end(),
                               [](const InputFile& a, const InputFile& b) { return a.path == b.path; }),
                   plan.files.end());
  if (plan.files.size() > UINT32_MAX) throw InputError("too many input files");
  // Every other input checked: now the streams are read, by threads, while
  // the run goes on. A reader holds at most about 1 GiB.
  for (InputFile& f : plan.files)
    if (f.stream) {
      const size_t piece = stream_piece_bytes();
      f.reader = std::make_shared<StreamReader>(f.path, piece, std::max<size_t>(4, (size_t{1} << 30) / piece));
    }
  finish_input_plan(plan);
  return plan;
}

void finish_stream_reads(InputPlan& plan) {
  for (InputFile& f : plan.files) {
    if (!f.reader) continue;
    std::string all;
    while (std::optional<StreamPiece> piece = f.reader->next()) {  // rethrows the reader's InputError
      all.append(piece->data(), piece->size);
      f.reader->give_back(std::move(*piece));
    }
    f.reader.reset();
    f.memory = hold(std::move(all));
    f.size = f.memory.bytes.size();
  }
  finish_input_plan(plan);
}

std::string serialize_input_plan(const InputPlan& plan) {
  std::string s;
  size_t n = 40;
  for (const InputFile& f : plan.files) n += 32 + f.path.size();
  s.reserve(n);
  put_u64(s, kMagic);
  put_u64(s, plan.skipped_binary);
  put_u64(s, plan.skipped_hidden);
  put_u64(s, plan.skipped_excluded);
  put_u64(s, plan.files.size());
  for (const InputFile& f : plan.files) {
    put_u64(s, f.size);
    put_u64(s, f.disk_bytes);
    put_u64(s, static_cast<uint64_t>(f.codec) | (f.stream ? 0x100 : 0) | (f.check_binary ? 0x200 : 0));
    put_u64(s, f.path.size());
    s += f.path;
  }
  return s;
}

InputPlan deserialize_input_plan(std::string_view bytes) {
  if (get_u64(bytes) != kMagic) throw std::runtime_error("input plan: bad magic");
  InputPlan plan;
  plan.skipped_binary = get_u64(bytes);
  plan.skipped_hidden = get_u64(bytes);
  plan.skipped_excluded = get_u64(bytes);
  const uint64_t n = get_u64(bytes);
  if (n > bytes.size() / 32) throw std::runtime_error("input plan: bad file count");
  plan.files.resize(n);
  for (InputFile& f : plan.files) {
    f.size = get_u64(bytes);
    f.disk_bytes = get_u64(bytes);
    const uint64_t kind = get_u64(bytes);
    if ((kind & 0xFF) > static_cast<uint64_t>(Codec::xz) || kind > 0x3FF)
      throw std::runtime_error("input plan: bad file kind");
    f.codec = static_cast<Codec>(kind & 0xFF);
    f.stream = (kind & 0x100) != 0;
    f.check_binary = (kind & 0x200) != 0;
    // The split gives a compressed file to a rank by its span: a plan whose
    // span does not follow from the size on disk was not made here.
    // (disk_bytes * 64 must not wrap round either: found by fuzz_input_plan.)
    if (f.codec != Codec::none && (f.disk_bytes > (UINT64_MAX >> 6) || f.size != compressed_span(f.disk_bytes)))
      throw std::runtime_error("input plan: bad compressed size");
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

void set_markup(InputPlan& plan, const TextFilters& filters, const InputFormats& formats) {
  for (InputFile& f : plan.files) {
    f.markup = markup_of(filters, f.path);
    f.format = format_of(formats, f.path);
  }
}

std::vector<ByteRange> split_stream(const InputPlan& plan, int rank, int ranks) {
  if (ranks <= 0 || rank < 0 || rank >= ranks) throw std::invalid_argument("split_stream: bad rank");
  bool any_whole = false;
  uint64_t total = 0;
  for (const InputFile& f : plan.files) {
    any_whole |= f.uncut();
    total += f.weight();
  }
  const auto share = [&](uint64_t all, int r) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(all) * static_cast<unsigned>(r) /
                                 static_cast<unsigned>(ranks));
  };
  if (!any_whole) return stream_ranges(plan, share(plan.total_bytes(), rank), share(plan.total_bytes(), rank + 1));
  // Weighted: plain files as before, compressed ones whole.
  const uint64_t lo = share(total, rank), hi = share(total, rank + 1);
  std::vector<ByteRange> out;
  uint64_t at = 0;  // weight before file i
  for (size_t i = 0; i < plan.files.size(); ++i) {
    const InputFile& f = plan.files[i];
    const uint64_t w = f.weight();
    if (f.uncut()) {
      // The last rank also takes a file of no weight at the very end (its
      // middle is the total: found by fuzz_input_plan).
      const uint64_t middle = at + w / 2;
      if (middle >= lo && (middle < hi || rank == ranks - 1)) out.push_back({static_cast<uint32_t>(i), 0, f.size});
    } else {
      const uint64_t b = std::max(lo, at), e = std::min(hi, at + w);
      if (b < e) out.push_back({static_cast<uint32_t>(i), b - at, e - at});
    }
    at += w;
  }
  return out;
}

}  // namespace spellcheck
