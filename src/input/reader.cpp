#include "spellcheck/input/reader.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "spellcheck/common/errors.hpp"

namespace spellcheck {

void require_readable_file(const std::string& path, std::string_view what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw InputError(std::string(what) + " '" + path + "': no such file");
  if (fs::is_directory(st)) throw InputError(std::string(what) + " '" + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + std::string(what) + " '" + path + "': " + std::strerror(errno));
}

WordList lines_to_words(std::string text, size_t max_length, uint64_t* too_long) {
  WordList out;
  size_t write = 0, b = 0;
  const size_t n = text.size();
  while (b < n) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = n;
    const std::string_view w = clean_line(std::string_view(text).substr(b, e - b));
    if (w.size() > max_length) {
      if (too_long) ++*too_long;
    } else if (!w.empty()) {
      out.starts.push_back(write);
      if (e == n) {  // last line, no '\n' after it: the one case that may need a byte more
        const std::string last(w);
        text.resize(write);
        text += last;
        text += '\n';
        write = text.size();
        break;
      }
      std::memmove(text.data() + write, w.data(), w.size());
      write += w.size();
      text[write++] = '\n';
    }
    b = e + 1;
  }
  text.resize(write);
  out.bytes = std::move(text);
  return out;
}

TextChunk read_line_share(const mpi::Comm& comm, const std::string& path) {
  mpi::File file(comm, path);
  const uint64_t size = file.size();
  const uint64_t lo = share_begin(size, comm.rank(), comm.size());
  const uint64_t hi = share_begin(size, comm.rank() + 1, comm.size());
  TextChunk chunk;
  if (lo >= hi) return chunk;
  // One byte before our share tells whether a line starts exactly at lo.
  const uint64_t pre = lo > 0 ? lo - 1 : 0;
  std::string buf(hi - pre, '\0');
  buf.resize(file.read_at(pre, buf.data(), buf.size()));
  size_t start = 0;
  if (lo > 0) {
    const size_t nl = buf.find('\n');
    if (nl == std::string::npos) return chunk;  // a line from an earlier share covers all of ours
    start = nl + 1;
  }
  // Finish the last line, which may run past hi (a single huge line too).
  uint64_t pos = pre + buf.size();
  if (!buf.empty() && buf.back() != '\n' && pos < size) {
    std::string more(64 * 1024, '\0');
    while (pos < size) {
      const size_t got = file.read_at(pos, more.data(), more.size());
      if (got == 0) break;
      const size_t nl = std::string_view(more.data(), got).find('\n');
      const size_t take = nl == std::string_view::npos ? got : nl + 1;
      buf.append(more.data(), take);
      pos += take;
      if (nl != std::string_view::npos) break;
      if (more.size() < (size_t{16} << 20)) more.resize(more.size() * 2);
    }
  }
  chunk.offset = pre + start;
  buf.erase(0, start);
  chunk.bytes = std::move(buf);
  return chunk;
}

}  // namespace spellcheck
