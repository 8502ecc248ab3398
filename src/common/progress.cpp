#include "spellcheck/common/progress.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>

namespace spellcheck {

namespace {

int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A controlling terminal: the person who started mpirun (or srun) is watching
// one, though our stderr is a pipe to the launcher.
bool has_controlling_terminal() {
  const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// 3 significant digits at least, no more decimals than that needs.
std::string number_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  return b;
}

std::string seconds_text(double s) {
  char b[32];
  if (s < 60) std::snprintf(b, sizeof b, "%.1f s", s);
  else if (s < 3600) std::snprintf(b, sizeof b, "%d min %02d s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(b, sizeof b, "%d h %02d min", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return b;
}

}  // namespace

ProgressMode progress_mode(int option) {
  if (option == 0) return ProgressMode::off;
  if (::isatty(STDERR_FILENO)) return ProgressMode::redraw;
  if (option == 1 || has_controlling_terminal()) return ProgressMode::lines;
  return ProgressMode::off;
}

Progress::Progress(ProgressMode mode, std::string what, uint64_t total, std::string unit, double interval_s)
    : mode_(mode), what_(std::move(what)), unit_(std::move(unit)), total_(total), start_us_(now_us()) {
  interval_us_ = mode == ProgressMode::redraw ? 200000 : static_cast<int64_t>(std::llround(interval_s * 1e6));
  next_draw_us_ = start_us_ + interval_us_;
}

Progress::~Progress() { done(); }

void Progress::advance(uint64_t n) {
  if (mode_ == ProgressMode::off) return;
  advance_to(count_.fetch_add(n, std::memory_order_relaxed) + n);
}

void Progress::advance_to(uint64_t c) {
  if (mode_ == ProgressMode::off) return;
  count_.store(c, std::memory_order_relaxed);
  int64_t due = next_draw_us_.load(std::memory_order_relaxed);
  const int64_t t = now_us();
  if (t < due || !next_draw_us_.compare_exchange_strong(due, t + interval_us_)) return;
  line(false, t);
}

void Progress::line(bool finished, int64_t t) {
  const uint64_t c = count_.load(std::memory_order_relaxed);
  const uint64_t total = total_.load(std::memory_order_relaxed);
  const double secs = static_cast<double>(t - start_us_) / 1e6;
  const double pct = total ? 100.0 * static_cast<double>(c) / static_cast<double>(total) : 100.0;
  const double rate = secs > 0 ? static_cast<double>(c) / secs : 0.0;
  const auto n = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  if (mode_ == ProgressMode::redraw) {
    std::fprintf(stderr, "\r[spellcheck] %s: %llu/%llu %s (%.0f%%, %.1f s)\x1b[K", what_.c_str(), n(c), n(total),
                 unit_.c_str(), pct, secs);
  } else if (finished) {
    std::fprintf(stderr, "[spellcheck][progress] %s: done, %llu %s in %s (%s %s/s)\n", what_.c_str(), n(c),
                 unit_.c_str(), seconds_text(secs).c_str(), number_text(rate).c_str(), unit_.c_str());
  } else {
    const std::string left =
        rate > 0 && total > c ? seconds_text(static_cast<double>(total - c) / rate) + " left" : "time left unknown";
    std::fprintf(stderr, "[spellcheck][progress] %s: %llu/%llu %s (%.0f%%), %s %s/s, %s\n", what_.c_str(), n(c),
                 n(total), unit_.c_str(), pct, number_text(rate).c_str(), unit_.c_str(), left.c_str());
  }
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::done() {
  if (mode_ == ProgressMode::redraw && drawn_) {
    std::fprintf(stderr, "\r\x1b[K");
    std::fflush(stderr);
  } else if (mode_ == ProgressMode::lines) {
    line(true, now_us());
  }
  mode_ = ProgressMode::off;
}

}  // namespace spellcheck
