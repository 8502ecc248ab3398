#pragma once
// Output without a gather to rank 0. The ranks' runs (each in SPEC order,
// report.hpp) are redistributed by a sample sort so that rank r holds the
// r-th slice of the global order; each rank turns its slice into text, and
// the slices are written in rank order: into a file by every rank at its
// offset (an exclusive scan of the sizes) with collective MPI-IO, into the
// output's temporary file, renamed once all ranks have written and agreed;
// to stdout, a device or a FIFO by rank 0, which streams the other ranks'
// slices in bounded chunks. No rank ever holds more than its own slice (and
// one chunk), and no message exceeds the chunk size.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/removal_on_signal.hpp"
#include "spellcheck/output/output_file.hpp"
#include "spellcheck/output/report.hpp"

namespace spellcheck {

// The most bytes of output a message or a write round carries: 16 MiB, or
// SPELLCHECK_MAX_MESSAGE_BYTES when set (tests force tiny chunks with it).
size_t output_chunk_bytes();

// Samples each rank gives the sample sort: samples_per_rank up to 256 ranks,
// then fewer, so that rank 0 merges at most about 16,384 keys (never fewer
// than 16 per rank). The keys are spread over the ranks by hash, so a few
// samples per rank still place the splitters well; what must not grow
// with p is the merge on rank 0.
size_t sample_count(int ranks, size_t samples_per_rank);

// Collective: every rank's run in, and emit(line) called for each line of
// this rank's slice of the global SPEC order, in order. Splitters come from
// evenly spaced lines of every run (sample_count(p, samples_per_rank) per
// rank), merged up a binomial tree to rank 0, which broadcasts only the
// p-1 splitters; the lines then cross in one all-to-all and each rank
// merges what it received.
void sort_runs(const mpi::Comm& comm, std::string run, const std::function<void(const LineView&)>& emit,
               size_t samples_per_rank = 64);

// Collective: the ranks' slices, concatenated in rank order, become the
// output `out` (which exists on rank 0 only; the other ranks pass nullptr).
// A file target's temporary file is named now (OutputFile::shared_temporary)
// and written by every rank; the other ranks register that name for removal
// on a signal and return the registration, to hold until rank 0 committed
// (if rank 0 is killed, they remove it). Does not commit. Rank 0 throws
// (after every rank is done) when its writes fail.
[[nodiscard]] RemovalOnSignal write_slices(const mpi::Comm& comm, std::string_view slice, OutputFile* out);

}  // namespace spellcheck
