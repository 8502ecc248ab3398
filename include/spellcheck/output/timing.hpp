#pragma once
// Phase timing (SPEC: `[spellcheck][timing] <phase> avg=..s min=..s max=..s`,
// reduced over ranks). Progress lines: progress.hpp.
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/progress.hpp"

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
  std::vector<double> per_rank;                // at rank 0 only
  std::vector<mpi::Traffic> traffic_per_rank;  // at rank 0 only
};

// Collective: every rank timed the same phases in the same order.
std::vector<PhaseSummary> summarize(const mpi::Comm& comm, const Timings& t);
std::string timing_lines(const std::vector<PhaseSummary>& s);

}  // namespace spellcheck
