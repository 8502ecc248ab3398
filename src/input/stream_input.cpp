#include "spellcheck/input/stream_input.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <list>
#include <optional>
#include <stdexcept>
#include <vector>

#include "spellcheck/common/fault.hpp"
#include "spellcheck/input/detail/stream_reader.hpp"

namespace spellcheck {

namespace {

// Positions of a stream input while its size is unknown.
constexpr uint64_t kStreamSpan = uint64_t{1} << 50;
// Pieces sent to a rank and not yet taken by it, at most: enough to keep it
// busy while rank 0 tokenizes one of its own.
constexpr size_t kPiecesAhead = 2;

// Rank 0: the pieces of every stream input, in plan order, to the ranks as
// they arrive (see ingest_document_words); an empty message to every other
// rank at the end, also when this fails. Sets the streams' sizes.
void serve_streams(const mpi::Comm& comm, InputPlan& plan, WordCollector& collector, const ProgressFn& progress,
                   std::exception_ptr& error) {
  const int p = comm.size();
  struct InFlight {
    mpi::SendRequest request;
    StreamPiece piece;
    StreamReader* reader;
    int dest;
  };
  std::list<InFlight> flight;
  std::vector<size_t> waiting(static_cast<size_t>(p), 0);
  const auto reap = [&](bool all) {
    for (auto it = flight.begin(); it != flight.end();) {
      if (all) it->request.wait();
      if (!all && !it->request.done()) {
        ++it;
        continue;
      }
      --waiting[static_cast<size_t>(it->dest)];
      it->reader->give_back(std::move(it->piece));
      it = flight.erase(it);
    }
  };
  uint64_t done = 0;
  int turn = 1;  // ties go round the ranks
  try {
    fault::point("ingest", 0);
    for (size_t i = 0; i < plan.files.size(); ++i) {
      InputFile& f = plan.files[i];
      if (!f.reader) continue;
      StreamReader& reader = *f.reader;
      for (;;) {
        // While sends are out, wake now and then to reuse their buffers.
        std::optional<StreamPiece> piece = reader.next(flight.empty() ? -1 : 1);
        reap(false);
        if (!piece) {
          if (!reader.at_end()) continue;
          reader.next();  // rethrows the reader's error
          break;
        }
        int dest = 0;
        size_t fewest = kPiecesAhead;
        for (int k = 0; k < p - 1; ++k) {
          const int r = 1 + (turn - 1 + k) % (p - 1);
          if (waiting[static_cast<size_t>(r)] < fewest) fewest = waiting[static_cast<size_t>(r)], dest = r;
        }
        if (kPieceHeaderBytes + piece->size > mpi::max_message_bytes()) dest = 0;  // a giant token run: kept
        if (dest == 0) {
          collector.add_piece(plan, static_cast<uint32_t>(i), piece->origin,
                              std::string_view(piece->data(), piece->size));
          done += piece->size;
          if (progress) progress(done, done);
          reader.give_back(std::move(*piece));
          continue;
        }
        turn = dest % (p - 1) + 1;
        const uint64_t header[2] = {i, piece->origin};
        std::memcpy(piece->header(), header, kPieceHeaderBytes);
        const std::string_view message(piece->header(), kPieceHeaderBytes + piece->size);
        flight.push_back(InFlight{mpi::SendRequest(comm, dest, message), std::move(*piece), &reader, dest});
        ++waiting[static_cast<size_t>(dest)];
      }
      f.size = reader.size();
    }
  } catch (...) {
    error = std::current_exception();
  }
  for (int r = 1; r < p; ++r) mpi::SendRequest(comm, r, {}).wait();
  reap(true);
  for (InputFile& f : plan.files) f.reader.reset();
}

// Ranks but 0: pieces until the empty message; after a failure they are
// still taken (and dropped), so that rank 0 is never left waiting.
void take_pieces(const mpi::Comm& comm, const InputPlan& plan, WordCollector& collector, std::exception_ptr& error) {
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;
  for (;;) {
    const size_t n = mpi::recv_message(comm, 0, [&](size_t size) {
      if (size > capacity) {
        buffer.reset(new char[size]);
        capacity = size;
      }
      return buffer.get();
    });
    if (n == 0) return;
    if (error) continue;
    try {
      uint64_t header[2];
      if (n < kPieceHeaderBytes) throw std::logic_error("stream piece without its header");
      std::memcpy(header, buffer.get(), kPieceHeaderBytes);
      if (header[0] >= plan.files.size() || !plan.files[header[0]].stream)
        throw std::logic_error("stream piece of no stream input");
      collector.add_piece(plan, static_cast<uint32_t>(header[0]), header[1],
                          std::string_view(buffer.get() + kPieceHeaderBytes, n - kPieceHeaderBytes));
    } catch (...) {
      error = std::current_exception();
    }
  }
}

}  // namespace

LocalWords ingest_document_words(const mpi::Comm& comm, InputPlan& plan, size_t max_word_length, int threads,
                                 const ProgressFn& progress, const ReaderTuning& tuning) {
  const int rank = comm.rank(), p = comm.size();
  if (std::none_of(plan.files.begin(), plan.files.end(), [](const InputFile& f) { return f.stream; })) {
    fault::point("ingest", rank);
    return collect_document_words(plan, rank, p, max_word_length, threads, progress, tuning);
  }
  // The files' shares, streams left out (their size is 0 until read), then
  // provisional positions for the streams.
  const std::vector<ByteRange> files_share = split_stream(plan, rank, p);
  for (InputFile& f : plan.files)
    if (f.stream) f.size = kStreamSpan;
  finish_input_plan(plan);
  const std::vector<uint64_t> provisional = plan.offsets;

  WordCollector collector(max_word_length, threads, tuning);
  std::exception_ptr error;
  if (rank == 0) {
    // Rank 0 serves the streams first: the other ranks start on pieces early.
    serve_streams(comm, plan, collector, progress, error);
    if (!error) {
      try {
        collector.add_ranges(plan, files_share);
      } catch (...) {
        error = std::current_exception();
      }
    }
  } else {
    try {
      fault::point("ingest", rank);
      collector.add_ranges(plan, files_share, progress);
    } catch (...) {
      error = std::current_exception();
    }
    take_pieces(comm, plan, collector, error);
  }

  // The streams' sizes everywhere, then the real offsets.
  std::vector<uint64_t> sizes;
  for (const InputFile& f : plan.files)
    if (f.stream) sizes.push_back(f.size);
  const std::string all_sizes =
      mpi::broadcast(comm, std::string(reinterpret_cast<const char*>(sizes.data()), sizes.size() * sizeof(uint64_t)));
  if (error) std::rethrow_exception(error);
  size_t k = 0;
  for (InputFile& f : plan.files)
    if (f.stream) std::memcpy(&f.size, all_sizes.data() + sizeof(uint64_t) * k++, sizeof(uint64_t));
  finish_input_plan(plan);

  LocalWords local = collector.finish();
  // Provisional positions to real ones: the same file, the same offset in it.
  const auto real = [&](uint64_t& pos) {
    const size_t i =
        static_cast<size_t>(std::upper_bound(provisional.begin(), provisional.end(), pos) - provisional.begin()) - 1;
    pos = pos - provisional[i] + plan.offsets[i];
  };
  for (uint64_t& pos : local.first_pos) real(pos);
  for (DocumentPart& part : local.documents.parts)
    if (part.record) real(part.position);
  return local;
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
