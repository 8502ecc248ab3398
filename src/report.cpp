#include "spellcheck/report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "spellcheck/candidates.hpp"
#include "spellcheck/errors.hpp"

namespace spellcheck {

namespace {
// SPEC order for any line type; strings and views of char compare as
// unsigned bytes (char_traits<char>::compare is memcmp).
template <class Line>
bool spec_less(const Line& a, const Line& b) {
  if (a.candidates != b.candidates) return a.candidates < b.candidates;
  return a.word < b.word;
}
}  // namespace

bool spec_order(const ReportLine& a, const ReportLine& b) { return spec_less(a, b); }

std::vector<ReportLine> make_lines(const WordList& misspelled, std::vector<Slot> hits) {
  std::sort(hits.begin(), hits.end(), [](const Slot& a, const Slot& b) { return a.word < b.word; });
  std::vector<ReportLine> lines(misspelled.size());
  std::vector<std::string> cands;
  size_t h = 0;
  for (size_t i = 0; i < misspelled.size(); ++i) {
    const std::string_view w = misspelled[i];
    cands.clear();
    for (; h < hits.size() && hits[h].word == i; ++h) cands.push_back(apply_edit(w, hits[h].edit));
    std::sort(cands.begin(), cands.end());
    cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
    ReportLine& l = lines[i];
    l.candidates = static_cast<uint32_t>(cands.size());
    l.word.assign(w);
    l.index = static_cast<uint32_t>(i);
    l.line.reserve(w.size() + 3 + cands.size() * (w.size() + 2));
    l.line.append(w);
    l.line.append(": ");
    for (const auto& c : cands) {
      l.line.push_back(' ');
      l.line.append(c);
    }
    l.line.push_back('\n');
  }
  std::sort(lines.begin(), lines.end(), spec_order);
  return lines;
}

namespace {
void put_u32(std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }
uint32_t get_u32(const std::string& s, size_t& pos) {
  uint32_t v;
  std::memcpy(&v, s.data() + pos, sizeof v);
  pos += sizeof v;
  return v;
}
}  // namespace

GatheredLines gather_lines(const mpi::Comm& comm, const std::vector<ReportLine>& lines,
                           const std::vector<std::string>& extra) {
  size_t bytes = 0;
  for (size_t i = 0; i < lines.size(); ++i)
    bytes += 16 + lines[i].word.size() + lines[i].line.size() + (i < extra.size() ? extra[i].size() : 0);
  std::string wire;
  wire.reserve(bytes);
  for (size_t i = 0; i < lines.size(); ++i) {
    const ReportLine& l = lines[i];
    put_u32(wire, l.candidates);
    put_u32(wire, static_cast<uint32_t>(l.word.size()));
    wire += l.word;
    put_u32(wire, static_cast<uint32_t>(l.line.size()));
    wire += l.line;
    const std::string_view x = i < extra.size() ? std::string_view(extra[i]) : std::string_view();
    put_u32(wire, static_cast<uint32_t>(x.size()));
    wire += x;
  }
  GatheredLines g;
  g.parts = mpi::gather(comm, wire);
  for (const auto& part : g.parts) {
    size_t pos = 0;
    auto view = [&](size_t& at) {
      const uint32_t n = get_u32(part, at);
      const std::string_view v(part.data() + at, n);
      at += n;
      return v;
    };
    while (pos < part.size()) {
      LineView l;
      l.candidates = get_u32(part, pos);
      l.word = view(pos);
      l.line = view(pos);
      l.extra = view(pos);
      g.lines.push_back(l);
    }
  }
  // Each rank's run is already in SPEC order: merge rather than sort.
  std::stable_sort(g.lines.begin(), g.lines.end(), spec_less<LineView>);
  return g;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) return;
  tmp_ = path_ + ".tmp." + std::to_string(::getpid());
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError("cannot write '" + path_ + "': " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!tmp_.empty() && !committed_) ::unlink(tmp_.c_str());
}

void OutputFile::write(std::string_view bytes) {
  const int fd = path_.empty() ? STDOUT_FILENO : fd_;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write '" + (path_.empty() ? std::string("stdout") : path_) +
                               "': " + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void OutputFile::commit() {
  if (path_.empty()) return;
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  }
  fd_ = -1;
  if (::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + tmp_ + "' to '" + path_ + "': " + std::strerror(errno));
  committed_ = true;
}

}  // namespace spellcheck
