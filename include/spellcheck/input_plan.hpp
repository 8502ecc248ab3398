#pragma once
// The document collection as one virtual byte stream: INPUT paths expanded
// to regular files (SPEC: a directory is every regular file under it,
// recursively; links to directories are not followed, links to files are
// read), byte-wise sorted, with their sizes. Built on one rank, serialized,
// broadcast; then every rank takes its contiguous share with split_stream.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spellcheck {

struct InputFile {
  std::string path;
  uint64_t size = 0;
};

struct InputPlan {
  std::vector<InputFile> files;   // distinct paths, byte-wise (memcmp) ascending
  std::vector<uint64_t> offsets;  // offsets[i]: where files[i] starts in the stream; offsets.back(): total

  uint64_t total_bytes() const { return offsets.empty() ? 0 : offsets.back(); }
  // Index of the file holding stream position pos (pos < total_bytes()).
  size_t file_at(uint64_t pos) const;
};

// Expands INPUT paths. Throws InputError("cannot read 'PATH': reason") for a
// missing path, an unreadable file or directory, or a named path that is
// neither a regular file nor a directory. Inside directories, broken links
// and special files (FIFOs, sockets, devices) are skipped. A path named twice
// (or reached twice) is read once.
InputPlan make_input_plan(std::span<const std::string> inputs);

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

// Stream bytes [total*rank/ranks, total*(rank+1)/ranks) as per-file ranges in
// stream order (empty intersections left out): big files are cut mid-file,
// small files grouped. Cuts are raw byte positions; the reader snaps them
// (document_reader.hpp).
std::vector<ByteRange> split_stream(const InputPlan& plan, int rank, int ranks);

// Stream bytes [begin, end) as per-file ranges (empty ones left out).
std::vector<ByteRange> stream_ranges(const InputPlan& plan, uint64_t begin, uint64_t end);

}  // namespace spellcheck
