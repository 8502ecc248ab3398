#pragma once
// Progress on stderr, for a person watching a terminal or a job log. On a
// terminal one line is redrawn in place (\r, at most 5 times a second).
// Otherwise, under mpirun or srun (rank 0's stderr is a pipe to the
// launcher, which forwards whole lines only) and in batch job logs, whole
// lines at a steady pace: phase, done/total, rate, time left; and one line
// when the phase is done.
#include <atomic>
#include <cstdint>
#include <string>

namespace spellcheck {

enum class ProgressMode { off, redraw, lines };

// How to show progress for --progress (1), --no-progress (0) or neither
// (-1: shown when stderr is a terminal, or, as lines, when this process has
// a controlling terminal: started by mpirun or srun from one).
ProgressMode progress_mode(int option);

// Thread-safe advance(); silent when off.
class Progress {
 public:
  // interval_s: seconds between lines (lines mode).
  Progress(ProgressMode mode, std::string what, uint64_t total, std::string unit, double interval_s = 5.0);
  Progress(bool enabled, std::string what, uint64_t total, std::string unit)
      : Progress(enabled ? ProgressMode::redraw : ProgressMode::off, std::move(what), total, std::move(unit)) {}
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(uint64_t n);
  void advance_to(uint64_t count);
  void set_total(uint64_t total) { total_ = total; }
  // Ends the display (lines mode: the phase's done line). Idempotent.
  void done();

 private:
  void line(bool finished, int64_t now_us);

  ProgressMode mode_;
  std::string what_, unit_;
  std::atomic<uint64_t> total_;
  std::atomic<uint64_t> count_{0};
  std::atomic<int64_t> next_draw_us_{0};
  int64_t start_us_;
  int64_t interval_us_;
  std::atomic<bool> drawn_{false};
};

}  // namespace spellcheck
