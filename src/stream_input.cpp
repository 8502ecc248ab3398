#include "spellcheck/stream_input.hpp"

#include <cstring>
#include <vector>

#include "spellcheck/tokenizer.hpp"

namespace spellcheck {

uint64_t snap_forward(std::string_view bytes, uint64_t end) {
  uint64_t i = end;
  while (i < bytes.size() && !is_safe_split(static_cast<unsigned char>(bytes[i]))) ++i;
  return std::min<uint64_t>(i, bytes.size());
}

void share_stream_inputs(const mpi::Comm& comm, InputPlan& plan) {
  const int p = comm.size();
  // Their sizes (known at rank 0 once read), then the offsets everywhere.
  std::vector<uint64_t> sizes;
  for (const InputFile& f : plan.files)
    if (f.stream) sizes.push_back(f.size);
  if (sizes.empty()) return;
  const std::string all_sizes =
      mpi::broadcast(comm, std::string(reinterpret_cast<const char*>(sizes.data()), sizes.size() * sizeof(uint64_t)));
  size_t k = 0;
  for (InputFile& f : plan.files)
    if (f.stream) std::memcpy(&f.size, all_sizes.data() + sizeof(uint64_t) * k++, sizeof(uint64_t));
  finish_input_plan(plan);
  for (size_t i = 0; i < plan.files.size(); ++i) {
    InputFile& f = plan.files[i];
    if (!f.stream) continue;
    std::vector<uint64_t> begin(static_cast<size_t>(p), 0), end(static_cast<size_t>(p), 0);
    if (comm.rank() == 0) {
      const std::string_view all = f.memory.bytes;
      for (int r = 0; r < p; ++r)
        for (const ByteRange& b : split_stream(plan, r, p))
          if (b.file_index == i) {
            begin[static_cast<size_t>(r)] = b.begin;
            end[static_cast<size_t>(r)] = snap_forward(all, b.end);
          }
    }
    // Everyone learns where its bytes start (for positions), then gets them.
    const std::string origins = mpi::broadcast(
        comm, std::string(reinterpret_cast<const char*>(begin.data()), begin.size() * sizeof(uint64_t)));
    HeldBytes mine;
    mpi::scatter_slices(comm, f.memory.bytes, begin, end, [&](uint64_t n) {
      char* p = nullptr;
      mine = allocate_bytes(n, &p);
      return p;
    });
    if (comm.rank() == 0) continue;
    std::memcpy(&f.memory_origin, origins.data() + static_cast<size_t>(comm.rank()) * sizeof(uint64_t), sizeof(uint64_t));
    f.memory = std::move(mine);
  }
}

HeldBytes whole_input(const InputFile& file) {
  if (file.memory.owner) return file.memory;
  const auto src = open_input(file.path, file.codec);
  return hold(read_all(*src));
}

TextChunk share_lines(const mpi::Comm& comm, std::string_view all) {
  const int p = comm.size();
  std::vector<uint64_t> begin(static_cast<size_t>(p), 0), end(static_cast<size_t>(p), 0);
  if (comm.rank() == 0) {
    // A line belongs to the rank whose share holds its first byte.
    const auto line_start_from = [&](uint64_t x) -> uint64_t {
      if (x == 0) return 0;
      const size_t nl = all.find('\n', x - 1);
      return nl == std::string_view::npos ? all.size() : nl + 1;
    };
    for (int r = 0; r < p; ++r) {
      begin[static_cast<size_t>(r)] = line_start_from(share_begin(all.size(), r, p));
      end[static_cast<size_t>(r)] = line_start_from(share_begin(all.size(), r + 1, p));
    }
  }
  const std::string origins =
      mpi::broadcast(comm, std::string(reinterpret_cast<const char*>(begin.data()), begin.size() * sizeof(uint64_t)));
  TextChunk chunk;
  std::memcpy(&chunk.offset, origins.data() + static_cast<size_t>(comm.rank()) * sizeof(uint64_t), sizeof(uint64_t));
  mpi::scatter_slices(comm, all, begin, end, [&](uint64_t n) {
    chunk.bytes.resize(n);
    return chunk.bytes.data();
  });
  if (comm.rank() == 0) chunk.bytes.assign(all.substr(begin[0], end[0] - begin[0]));
  return chunk;
}

}  // namespace spellcheck
