#pragma once
// Where an output goes (-o, --report, --stats): stdout, a file replaced
// atomically, or a device or FIFO written directly.
//
// * "" or "-": stdout. "/dev/stdout", "/dev/stderr", "/dev/fd/N" and
//   "/proc/self/fd/N": that descriptor, as it is (an appending redirection
//   keeps appending). Other paths through /proc are opened and written.
// * Symbolic links are followed to their final target (realpath semantics:
//   also when that target does not exist yet); the links stay as they are.
// * A target that exists and is not a regular file (character or block
//   device, FIFO) is opened and written directly: nothing is created beside
//   it or renamed over it, so `-o /dev/null` leaves /dev/null a device. A
//   FIFO's open waits for a reader, as a shell redirection does.
// * A directory is an InputError ("Is a directory").
// * A regular file, or none yet, is written to an unnamed temporary file
//   (O_TMPFILE) in the target's own directory, which commit() links under
//   TARGET.tmp.<pid> and renames over the target: the target changes in one
//   step, and a process killed before commit leaves nothing behind. Where
//   the file system has no O_TMPFILE, the file is TARGET.tmp.<pid> from the
//   start, removed by the destructor unless committed.
// * A temporary file's name is registered for removal on a termination
//   signal (removal_on_signal.hpp) while it exists.
// * Mode: a new file gets 0666 & ~umask (what a shell redirection gives);
//   a file that is replaced keeps its permission bits.
//
// Writes are buffered (append), in blocks of a few hundred KB.
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "spellcheck/common/removal_on_signal.hpp"

namespace spellcheck {

class OutputFile {
 public:
  enum class Kind {
    standard,  // stdout, or an inherited descriptor (/dev/stdout, /dev/fd/N)
    direct,    // a device, FIFO or /proc file, opened and written in place
    unnamed,   // O_TMPFILE in the target's directory, linked and renamed on commit
    named,     // TARGET.tmp.<pid>, renamed on commit
  };

  // Opens the destination now, so that an unwritable one fails before any
  // work (InputError with the path and the system's reason).
  // unnamed_temporary = false: the named temporary file even where
  // O_TMPFILE works (for tests of that path).
  explicit OutputFile(std::string path, bool unnamed_temporary = true);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void append(std::string_view bytes) {
    if (buffer_.size() + bytes.size() > kBuffer) flush();
    if (bytes.size() > kBuffer) {
      write(bytes);
      return;
    }
    buffer_.append(bytes);
  }
  void write(std::string_view bytes);  // unbuffered (flushes the buffer first)
  void flush();
  // Flushes; a file target is then closed and put in place, a device or
  // FIFO closed. Throws std::runtime_error when a write or the rename fails.
  void commit();

  Kind kind() const { return kind_; }
  // The file written or replaced, symbolic links resolved ("" for stdout).
  const std::string& target() const { return target_; }
  // Kind::named: the temporary file, which other processes may write too
  // (every rank's slice of the output) before commit() renames it.
  const std::string& temporary() const { return tmp_; }
  // A file target's temporary file by name, for other processes to write
  // into: an unnamed one is linked beside the target now (it becomes
  // Kind::named). "" for stdout, a device or a FIFO.
  const std::string& shared_temporary();

 private:
  static constexpr size_t kBuffer = size_t{256} << 10;
  void write_all(std::string_view bytes);
  void link_unnamed();                    // Kind::unnamed -> named: TARGET.tmp.<pid>
  [[noreturn]] void fail(int err) const;  // InputError: cannot write 'path': reason
  std::string path_;                      // as given, for messages
  std::string target_;                    // after symbolic links
  std::string tmp_;                       // a named temporary file to remove unless committed
  RemovalOnSignal removal_;               // tmp_, while it exists
  std::string buffer_;
  int fd_ = -1;
  bool own_fd_ = false;
  bool committed_ = false;
  Kind kind_ = Kind::standard;
};

// Writes text to path through an OutputFile (atomically for a file).
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace spellcheck
