#include "spellcheck/output/sorted_output.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include "spellcheck/common/settings.hpp"

namespace spellcheck {

size_t output_chunk_bytes() {
  static const size_t bytes = [] {
    // Chunks of 16 MiB, smaller where the test hook wants smaller messages.
    return std::min(size_t{16} << 20, settings::test_hooks::max_message_bytes().value_or(size_t{16} << 20));
  }();
  return bytes;
}

size_t sample_count(int ranks, size_t samples_per_rank) {
  constexpr size_t kSampleBudget = 16384, kFewestPerRank = 16;
  const size_t p = static_cast<size_t>(std::max(1, ranks));
  return std::min(samples_per_rank, std::max(kFewestPerRank, kSampleBudget / p));
}

void sort_runs(const mpi::Comm& comm, std::string run, const std::function<void(const LineView&)>& emit,
               size_t samples_per_rank) {
  const int p = comm.size();
  if (p == 1) {
    for (RunReader r(run); !r.done();) emit(r.next());
    return;
  }
  // Where each line starts (the run is sorted already); the few lines the
  // samples and splits read are read again from there (views of every line
  // took seven times the memory, and fresh memory is dear).
  std::vector<size_t> starts;
  for (RunReader r(run); !r.done(); r.next()) starts.push_back(r.position());
  auto line_at = [&](size_t start) { return RunReader(std::string_view(run).substr(start)).next(); };
  const size_t n = starts.size();
  // Regular samples of every run (the keys only, in the run format, in
  // order), merged up a tree to rank 0, which picks the p-1 splitters and
  // broadcasts them. Merging sorted lists along the tree costs rank 0
  // about 2 p s comparisons, where sorting them all cost p s log2(p s).
  // A sample is the line at a regular byte offset, not line number: each
  // then stands for as many bytes, and every rank gets about as much text
  // to write (ranked lines differ in length more than their count says).
  std::string mine;
  const size_t s = std::min(n, sample_count(p, samples_per_rank));
  for (size_t i = 0; i < s; ++i) {
    const size_t offset = (i + 1) * run.size() / (s + 1);
    const size_t k = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
    const LineView l = line_at(starts[k > 0 ? k - 1 : 0]);
    append_run_line(mine, l.candidates, l.word, {});
  }
  const std::string merged = mpi::reduce_bytes_to_root(comm, std::move(mine), [](std::string&& a, std::string&& b) {
    std::string out;
    out.reserve(a.size() + b.size());
    merge_runs({a, b}, [&](const LineView& l) { append_run_line(out, l.candidates, l.word, {}); });
    return out;
  });
  std::string chosen;
  if (comm.rank() == 0) {
    std::vector<LineView> samples;
    for (RunReader r(merged); !r.done();) samples.push_back(r.next());
    for (int j = 1; j < p && !samples.empty(); ++j) {
      const LineView& l = samples[static_cast<size_t>(j) * samples.size() / static_cast<size_t>(p)];
      append_run_line(chosen, l.candidates, l.word, {});
    }
  }
  const std::string splitter_bytes = mpi::broadcast(comm, std::move(chosen));
  std::vector<LineView> splitters;
  for (RunReader r(splitter_bytes); !r.done();) splitters.push_back(r.next());
  // Rank j gets the lines in [splitter j-1, splitter j): contiguous in the run.
  mpi::Bytes send;
  send.counts.assign(static_cast<size_t>(p), 0);
  size_t from = 0;
  for (int j = 0; j < p; ++j) {
    size_t to = n;
    if (static_cast<size_t>(j) < splitters.size())
      to = static_cast<size_t>(
          std::lower_bound(
              starts.begin() + static_cast<long>(from), starts.end(), splitters[static_cast<size_t>(j)],
              [&](size_t start, const LineView& splitter) { return spec_less(line_at(start), splitter); }) -
          starts.begin());
    const size_t b = from < n ? starts[from] : run.size(), e = to < n ? starts[to] : run.size();
    send.counts[static_cast<size_t>(j)] = e - b;
    from = to;
  }
  starts = std::vector<size_t>();
  send.data = std::move(run);
  const mpi::Bytes got = mpi::alltoallv_bytes(comm, send);
  send = mpi::Bytes();
  std::vector<std::string_view> parts;
  for (size_t r = 0, at = 0; r < got.counts.size(); at += got.counts[r], ++r)
    parts.push_back(std::string_view(got.data).substr(at, got.counts[r]));
  merge_runs(parts, emit);
}

RemovalOnSignal write_slices(const mpi::Comm& comm, std::string_view slice, OutputFile* out) {
  const int p = comm.size(), me = comm.rank();
  const size_t chunk = output_chunk_bytes();
  // Rank 0 says where: "f" + the temporary file every rank writes, or "s"
  // to stream everything through rank 0. The file gets its name only now:
  // a job killed earlier leaves nothing (it was unnamed).
  std::string where;
  if (me == 0) {
    const bool file = out->kind() == OutputFile::Kind::named || out->kind() == OutputFile::Kind::unnamed;
    where = file && p > 1 ? "f" + out->shared_temporary() : "s";
  }
  where = mpi::broadcast(comm, where);
  RemovalOnSignal removal;
  if (where[0] == 'f') {
    if (me != 0) removal = RemovalOnSignal(where.substr(1));
    const auto sizes = mpi::allgather(comm, static_cast<uint64_t>(slice.size()));
    uint64_t offset = 0;
    for (int r = 0; r < me; ++r) offset += sizes[static_cast<size_t>(r)];
    mpi::WriteFile file(comm, where.substr(1));
    file.write_at_all(offset, slice, chunk);
    file.close();
    return removal;
  }
  if (me != 0) {
    mpi::send_stream(comm, 0, slice, chunk);
    return removal;
  }
  // Rank 0: its own slice, then every other rank's as it arrives. A failed
  // write is kept until every slice has been taken (no rank left waiting).
  std::exception_ptr failed;
  auto put = [&](std::string_view bytes) {
    if (failed) return;
    try {
      out->append(bytes);
    } catch (...) {
      failed = std::current_exception();
    }
  };
  for (size_t at = 0; at < slice.size(); at += chunk) put(slice.substr(at, chunk));
  for (int r = 1; r < p; ++r) mpi::recv_stream(comm, r, chunk, put);
  if (!failed) try {
      out->flush();
    } catch (...) {
      failed = std::current_exception();
    }
  if (failed) std::rethrow_exception(failed);
  return removal;
}

}  // namespace spellcheck
