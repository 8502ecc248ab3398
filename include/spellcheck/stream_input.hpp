#pragma once
// Inputs that only rank 0 can read: stream inputs ("-", a FIFO or device;
// rank 0 reads them whole while planning, input_plan.hpp), and in word-list
// mode compressed files (decoded whole on rank 0). Rank 0 sends each rank
// the bytes of its share, cut as a file of the same bytes would be, so the
// output is the same as for that file.
#include <memory>
#include <string>
#include <string_view>

#include "spellcheck/input_plan.hpp"
#include "spellcheck/mpi.hpp"
#include "spellcheck/reader.hpp"

namespace spellcheck {

// Collective (document mode; rank 0 after finish_stream_reads): the stream
// inputs' sizes and the offsets everywhere; then every rank gets, in InputFile::memory, the
// bytes of each stream input in its split_stream share, through the first
// safe split byte after it (the reader snaps cuts there), from the share's
// first byte on (memory_origin). Rank 0 keeps all of them.
void share_stream_inputs(const mpi::Comm& comm, InputPlan& plan);

// Rank 0 (word-list mode): all the bytes of a stream input or compressed
// file (decoded). Throws InputError as byte_source.hpp says.
HeldBytes whole_input(const InputFile& file);

// Collective: rank 0 holds `all`; every rank gets the lines of its share as
// read_line_share would give them from a file of those bytes.
TextChunk share_lines(const mpi::Comm& comm, std::string_view all);

// The first position >= end holding a safe split byte (tokenizer.hpp), or
// bytes.size(): where a share of a stream input stops being sent.
uint64_t snap_forward(std::string_view bytes, uint64_t end);

}  // namespace spellcheck
