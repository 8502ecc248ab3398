#pragma once
// Where the document reader gets an input's bytes: a file read with pread,
// bytes already in memory (standard input, shared out by rank 0), or a
// compressed file decoded on the fly (gzip, zstd, bzip2, xz through the
// Debian libraries). Compressed formats are recognised by their magic bytes,
// whatever the file is called.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace spellcheck {

enum class Codec : uint8_t { none = 0, gzip = 1, zstd = 2, bzip2 = 3, xz = 4 };

// The codec whose magic bytes begin p[0, n) (none if no format matches).
Codec detect_codec(const unsigned char* p, size_t n);
const char* codec_name(Codec c);

// An input's (decoded) bytes. read_at(off, p, n) reads up to n bytes at
// offset off, fewer only at the end. Decoders are sequential: off must be
// where the previous read ended (the reader and the location scan read in
// order). Throws InputError("cannot read 'PATH': ...") on read errors and on
// truncated or corrupt compressed data.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual size_t read_at(uint64_t off, unsigned char* p, size_t n) = 0;
};

// A plain file, read with pread.
std::unique_ptr<ByteSource> open_file_source(const std::string& path);

// bytes hold the input's bytes from offset `origin` on (reads below origin
// are a logic error); `name` is for messages. Not a copy: bytes must outlive
// the source.
std::unique_ptr<ByteSource> memory_source(std::string_view bytes, uint64_t origin, std::string name);

// The decoded bytes of `raw` (a source of compressed bytes, read in order
// from offset 0) in format `codec`; `name` is for messages.
std::unique_ptr<ByteSource> decoding_source(std::unique_ptr<ByteSource> raw, Codec codec, std::string name);

// The decoded bytes of a file: open_file_source, decoded unless codec is none.
std::unique_ptr<ByteSource> open_input(const std::string& path, Codec codec);

// Reads the first up to n bytes of the file at path (decoded when codec is
// not none); fewer when the input is shorter. Throws as read_at does.
std::string read_head(const std::string& path, Codec codec, size_t n);

// Every byte of source from offset 0 (whole-buffer decoding of a stream).
std::string read_all(ByteSource& source);

// Bytes in memory and what keeps them alive (a stream input's bytes, a
// rank's share of them). Empty owner: none.
struct HeldBytes {
  std::shared_ptr<const void> owner;
  std::string_view bytes;
};

// n writable bytes, not zeroed (an anonymous mapping: no memset, no copy
// when grown).
HeldBytes allocate_bytes(size_t n, char** data);
HeldBytes hold(std::string s);

}  // namespace spellcheck
