#pragma once
// The document collection as one virtual byte stream: INPUT paths expanded
// to regular files (SPEC: a directory is every regular file under it,
// recursively; links to directories are not followed, links to files are
// read), byte-wise sorted, with their sizes. Built on one rank, serialized,
// broadcast; then every rank takes its contiguous share with split_stream.
//
// Inside directories, hidden entries (names starting with '.'), names
// matching an --exclude glob and binary files (a NUL byte in the first 4 KiB
// of the decoded bytes, grep's rule) are left out unless asked for; a path
// named on the command line is always read. "-", and a named FIFO or
// character device (/dev/stdin, <(...)), is a stream input: a thread of
// rank 0 reads it in pieces from planning on, and rank 0 shares them out as
// they come (stream_input.hpp). Compressed files
// (byte_source.hpp: magic bytes) are read whole by one thread of one rank.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/text_filters.hpp"
#include "spellcheck/input/detail/byte_source.hpp"

namespace spellcheck {

class StreamReader;  // stream_reader.hpp

struct InputFile {
  std::string path;
  uint64_t size = 0;          // bytes in the stream; compressed files: compressed_span(disk_bytes)
  Codec codec = Codec::none;  // compressed files: their format
  uint64_t disk_bytes = 0;    // compressed files: bytes on disk (how much work the file is)
  bool stream = false;        // "-", a FIFO or a device: rank 0 holds the bytes
  // A compressed file found in a folder walk: the reader skips it if binary
  // (its start is only decoded there, in parallel, not while planning).
  bool check_binary = false;
  // This rank's bytes of a stream input, from stream offset memory_origin on
  // (rank 0: all of them). Local: not serialized.
  HeldBytes memory;
  uint64_t memory_origin = 0;
  std::shared_ptr<StreamReader> reader;  // rank 0: a stream input being read, in pieces
  // The markup filter for this file (--filter; set_markup). Local: every
  // rank sets it from the same options.
  Markup markup = Markup::none;
  CorpusFormat format = CorpusFormat::text;  // --input-format (set_markup)

  // Compressed files cannot be cut: one thread reads each from its start.
  bool whole() const { return codec != Codec::none; }
  // Nor can marked-up files: a markup filter's state (inside a comment, a
  // code block, a WARC record) runs through the file.
  bool uncut() const { return whole() || markup != Markup::none || format == CorpusFormat::warc; }
  // What balancing counts: bytes on disk for compressed files.
  uint64_t weight() const { return whole() ? disk_bytes : size; }
};

// Stream positions of a compressed file: its decoded size is unknown when
// planning, so it gets 64 positions per compressed byte (positions past that
// are clamped to its last one; only --report locations could notice).
inline uint64_t compressed_span(uint64_t disk_bytes) { return std::max<uint64_t>(disk_bytes * 64, uint64_t{1} << 20); }

// grep's rule: a file is binary when its first block holds a NUL byte.
inline constexpr size_t kBinaryCheckBytes = 4096;

// What directory walks leave out (a path named on the command line is read).
struct PlanOptions {
  bool hidden = false;               // --hidden: walk into hidden files and folders too
  bool binary = false;               // --binary: read binary files found in folders too
  std::vector<std::string> exclude;  // --exclude GLOB: on the name, or on the whole path if it has a '/'
};

struct InputPlan {
  std::vector<InputFile> files;           // distinct paths, byte-wise (memcmp) ascending
  std::vector<uint64_t> offsets;          // offsets[i]: where files[i] starts in the stream; offsets.back(): total
  uint64_t skipped_binary = 0;            // binary files left out of directory walks
  uint64_t skipped_hidden = 0;            // hidden files and folders left out
  uint64_t skipped_excluded = 0;          // files and folders matching --exclude
  std::vector<std::string> binary_paths;  // the binary files left out (for --verbose; not serialized)
                                          // (compressed ones: by the reader, LocalWords)

  uint64_t total_bytes() const { return offsets.empty() ? 0 : offsets.back(); }
  // Index of the file holding stream position pos (pos < total_bytes()).
  size_t file_at(uint64_t pos) const;
};

// Expands INPUT paths. Throws InputError("cannot read 'PATH': reason") for a
// missing path, an unreadable file or directory, or a named path that is
// neither a regular file, a directory nor a stream. Inside directories,
// broken links and special files (FIFOs, sockets, devices) are skipped. A
// path named twice (or reached twice) is read once. Stream inputs start
// being read here, each by a thread (InputFile::reader), once every other
// input is checked; their size is 0 until they are read (finish_stream_reads,
// or the document reader's ingest_document_words).
InputPlan make_input_plan(std::span<const std::string> inputs, const PlanOptions& options = {});

// Reads the stream inputs to their ends (into InputFile::memory, compressed
// ones decoded), sets their sizes and the offsets. Throws the readers'
// InputError.
void finish_stream_reads(InputPlan& plan);

// Sets every file's markup filter and format: markup_of(filters, path),
// format_of(formats, path).
void set_markup(InputPlan& plan, const TextFilters& filters, const InputFormats& formats = {});

// Builds offsets from files (after filling files by hand).
void finish_input_plan(InputPlan& plan);

// Wire format for the broadcast. deserialize throws std::runtime_error on
// malformed bytes.
std::string serialize_input_plan(const InputPlan& plan);
InputPlan deserialize_input_plan(std::string_view bytes);

// [begin, end) of one file, in file offsets.
struct ByteRange {
  uint32_t file_index = 0;
  uint64_t begin = 0;
  uint64_t end = 0;
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

// The share of rank `rank`: the plan's weight (InputFile::weight) cut in
// `ranks` equal parts, as per-file ranges in stream order (empty
// intersections left out): big plain files are cut mid-file, small files
// grouped; a file that cannot be cut (InputFile::uncut) goes whole ({i, 0,
// size}) to the rank whose part holds the middle of its weight. Cuts are raw byte positions; the reader
// snaps them (document_reader.hpp).
std::vector<ByteRange> split_stream(const InputPlan& plan, int rank, int ranks);

// Stream bytes [begin, end) as per-file ranges (empty ones left out).
std::vector<ByteRange> stream_ranges(const InputPlan& plan, uint64_t begin, uint64_t end);

}  // namespace spellcheck
