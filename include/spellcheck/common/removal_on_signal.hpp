#pragma once
// Temporary files removed when the process is ended by a signal or by
// abort_job, so that a killed job leaves nothing behind.
//
// Why: on several ranks the output is one named temporary file that every
// rank writes its slice into (sorted_output.hpp) before rank 0 renames it
// over the target. If a rank is killed (SIGKILL, OOM killer) mpirun and srun
// end the others with SIGTERM; if that is rank 0, the file's owner, another
// rank's handler removes it. Every rank that knows the name registers it.
// Only a job whose ranks are all killed with SIGKILL at once can still leave
// it (nothing runs then).
//
// The handlers (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE's default is kept)
// only unlink(2) the registered paths, restore the default action and raise
// the signal again: async-signal-safe, and the exit status still tells the
// signal.
#include <string>

namespace spellcheck {

// Installs the handlers; idempotent. Called once by main, after MPI_Init (so
// that they replace any the MPI library set for these signals).
void install_removal_on_signal();

// Removes every registered path now (abort_job, before MPI_Abort).
// Async-signal-safe.
void remove_registered_files() noexcept;

// Registers a path for removal while it lives (RAII); release() or
// destruction unregisters it without removing the file (its owner renames or
// removes it). At most a few at once: registering more throws.
class RemovalOnSignal {
 public:
  RemovalOnSignal() = default;
  explicit RemovalOnSignal(const std::string& path);
  ~RemovalOnSignal() { release(); }
  RemovalOnSignal(RemovalOnSignal&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }
  RemovalOnSignal& operator=(RemovalOnSignal&& other) noexcept;
  RemovalOnSignal(const RemovalOnSignal&) = delete;
  RemovalOnSignal& operator=(const RemovalOnSignal&) = delete;

  void release() noexcept;
  bool active() const { return slot_ >= 0; }

 private:
  int slot_ = -1;
};

}  // namespace spellcheck
