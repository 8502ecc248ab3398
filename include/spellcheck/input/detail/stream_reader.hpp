#pragma once
// A stream input ("-" is standard input; a FIFO or device path) read by a
// thread of its own, in pieces that can be tokenized alone: each ends right
// before its last line end (a JSON Lines record is one line), else white
// space in its last 64 KiB (no URL spans two pieces), else a safe split
// byte (tokenizer.hpp), or at the end of the stream: no token spans two
// pieces. Compressed streams are decoded. The thread
// makes no MPI call: the thread that initialised MPI takes the pieces with
// next() and hands them on (stream_input.hpp). At most max_held pieces are
// held (read and not given back); then the thread waits, and so does the
// writer of the pipe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace spellcheck {

// A piece's bytes, kPieceHeaderBytes after the start of its buffer (room
// for a header in front, so it can be sent as it is).
inline constexpr size_t kPieceHeaderBytes = 16;

struct StreamPiece {
  uint64_t origin = 0;  // stream offset of its first byte
  size_t size = 0;      // bytes in the piece
  size_t capacity = 0;  // of buffer, header included
  std::unique_ptr<char[]> buffer;
  char* header() const { return buffer.get(); }
  char* data() const { return buffer.get() + kPieceHeaderBytes; }
};

// Bytes a piece aims at: 8 MiB, or SPELLCHECK_STREAM_PIECE_BYTES (at least
// 64; tests set a small one to cut small streams into many pieces).
size_t stream_piece_bytes();

class StreamReader {
 public:
  // Starts reading `path` now.
  StreamReader(std::string path, size_t piece_bytes, size_t max_held);
  // A reader still running is left to end with the process (a terminal may
  // never end its stream); it stops at its next piece.
  ~StreamReader();
  StreamReader(const StreamReader&) = delete;
  StreamReader& operator=(const StreamReader&) = delete;

  // Blocks until the next piece, or nullopt at the end of the stream;
  // rethrows the reader's InputError ("cannot read 'PATH': ..."). With
  // wait_ms >= 0, returns nullopt after that long without a piece (then
  // at_end() tells the end from a timeout).
  std::optional<StreamPiece> next(int wait_ms = -1);
  bool at_end() const;
  // A piece done with: its buffer is reused.
  void give_back(StreamPiece piece);
  // Bytes in the stream (decoded); valid once next() has returned the end.
  uint64_t size() const;

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace spellcheck
