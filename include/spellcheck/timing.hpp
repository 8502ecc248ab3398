#pragma once
// Phase timing (SPEC: `[spellcheck][timing] <phase> avg=..s min=..s max=..s`,
// reduced over ranks) and the progress line.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/mpi.hpp"

namespace spellcheck {

class Timings {
 public:
  // The phase's seconds and the traffic (mpi::traffic) it caused.
  void add(const std::string& phase, double seconds, const mpi::Traffic& traffic = {});
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }
  const std::vector<mpi::Traffic>& traffic() const { return traffic_; }  // per phase

 private:
  std::vector<std::pair<std::string, double>> phases_;
  std::vector<mpi::Traffic> traffic_;
};

// Times a scope into a phase (a phase timed twice adds up), with what this
// rank sent and received meanwhile.
class PhaseTimer {
 public:
  PhaseTimer(Timings& t, std::string phase)
      : t_(t), phase_(std::move(phase)), start_(mpi::now()), traffic_(mpi::traffic()) {}
  ~PhaseTimer() { t_.add(phase_, mpi::now() - start_, mpi::traffic() - traffic_); }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  Timings& t_;
  std::string phase_;
  double start_;
  mpi::Traffic traffic_;
};

struct PhaseSummary {
  std::string phase;
  double avg = 0, min = 0, max = 0;
  std::vector<double> per_rank;               // at rank 0 only
  std::vector<mpi::Traffic> traffic_per_rank;  // at rank 0 only
};

// Collective: every rank timed the same phases in the same order.
std::vector<PhaseSummary> summarize(const mpi::Comm& comm, const Timings& t);
std::string timing_lines(const std::vector<PhaseSummary>& s);

// A progress line on stderr, redrawn at most 5 times a second; silent unless
// enabled (rank 0, stderr a terminal, or --progress). Thread-safe advance().
class Progress {
 public:
  Progress(bool enabled, std::string what, uint64_t total, std::string unit);
  ~Progress();
  void advance(uint64_t n);
  void advance_to(uint64_t count);
  void set_total(uint64_t total) { total_ = total; }
  void done();

 private:
  bool enabled_;
  std::string what_, unit_;
  std::atomic<uint64_t> total_;
  std::atomic<uint64_t> count_{0};
  std::atomic<int64_t> next_draw_us_{0};
  int64_t start_us_;
  std::atomic<bool> drawn_{false};
};

}  // namespace spellcheck
