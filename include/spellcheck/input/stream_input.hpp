#pragma once
// Inputs that only rank 0 can read: stream inputs ("-", a FIFO or device;
// a thread of rank 0 reads them from planning on, input_plan.hpp), and in
// word-list mode compressed files (decoded whole on rank 0). Rank 0 sends
// the other ranks their bytes, cut where no token is cut, so the output is
// the same as for a file of the same bytes.
#include <memory>
#include <string>
#include <string_view>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/input/document_reader.hpp"
#include "spellcheck/input/input_plan.hpp"
#include "spellcheck/input/reader.hpp"

namespace spellcheck {

// Collective (document mode): this rank's words of the collection
// (document_reader.hpp); fault point "ingest" first. Files are shared as
// collect_document_words shares them, stream inputs left out. Stream
// inputs are tokenized as they arrive: rank 0 takes their pieces
// (stream_reader.hpp) and sends each to the rank with the fewest pieces
// waiting, or tokenizes it itself when every other rank has two waiting;
// the other ranks tokenize their files' share, then the pieces they get.
// Positions meanwhile are provisional (each stream gets 2^50 of them);
// afterwards every rank has the streams' sizes and the offsets in plan, and
// the words' first positions are positions of that plan, as for files of
// the same bytes. A failure on any rank ends the exchange on every rank
// before it is rethrown, so all reach the caller's agreement.
LocalWords ingest_document_words(const mpi::Comm& comm, InputPlan& plan, size_t max_word_length, int threads,
                                 const ProgressFn& progress, const ReaderTuning& tuning);

// Rank 0 (word-list mode): all the bytes of a stream input or compressed
// file (decoded). Throws InputError as byte_source.hpp says.
HeldBytes whole_input(const InputFile& file);

// Collective: rank 0 holds `all`; every rank gets the lines of its share as
// read_line_share would give them from a file of those bytes.
TextChunk share_lines(const mpi::Comm& comm, std::string_view all);

}  // namespace spellcheck
