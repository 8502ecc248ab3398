#include "spellcheck/output/timing.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace spellcheck {

void Timings::add(const std::string& phase, double seconds, const mpi::Traffic& traffic) {
  for (size_t i = 0; i < phases_.size(); ++i)
    if (phases_[i].first == phase) {
      phases_[i].second += seconds;
      traffic_[i] += traffic;
      return;
    }
  phases_.emplace_back(phase, seconds);
  traffic_.push_back(traffic);
}

std::vector<PhaseSummary> summarize(const mpi::Comm& comm, const Timings& t) {
  const auto& ph = t.phases();
  std::vector<double> sum(ph.size()), lo(ph.size()), hi(ph.size());
  for (size_t i = 0; i < ph.size(); ++i) sum[i] = lo[i] = hi[i] = ph[i].second;
  mpi::allreduce_sum(comm, sum);
  mpi::allreduce_min(comm, lo);
  mpi::allreduce_max(comm, hi);
  std::vector<double> own(ph.size());
  for (size_t i = 0; i < ph.size(); ++i) own[i] = ph[i].second;
  const auto all =
      mpi::gather(comm, std::string(reinterpret_cast<const char*>(own.data()), own.size() * sizeof(double)));
  static_assert(sizeof(mpi::Traffic) == 4 * sizeof(uint64_t));
  const auto traffic = mpi::gather(
      comm, std::string(reinterpret_cast<const char*>(t.traffic().data()), t.traffic().size() * sizeof(mpi::Traffic)));
  std::vector<PhaseSummary> out(ph.size());
  for (size_t i = 0; i < ph.size(); ++i) {
    out[i].phase = ph[i].first;
    out[i].avg = sum[i] / comm.size();
    out[i].min = lo[i];
    out[i].max = hi[i];
    for (const auto& bytes : all) {
      double v = 0;
      std::memcpy(&v, bytes.data() + i * sizeof(double), sizeof v);
      out[i].per_rank.push_back(v);
    }
    for (const auto& bytes : traffic) {
      mpi::Traffic v;
      std::memcpy(&v, bytes.data() + i * sizeof(mpi::Traffic), sizeof v);
      out[i].traffic_per_rank.push_back(v);
    }
  }
  return out;
}

std::string timing_lines(const std::vector<PhaseSummary>& s) {
  std::string out;
  char line[256];
  for (const auto& p : s) {
    std::snprintf(line, sizeof line, "[spellcheck][timing] %s avg=%.6fs min=%.6fs max=%.6fs\n", p.phase.c_str(), p.avg,
                  p.min, p.max);
    out += line;
  }
  return out;
}

}  // namespace spellcheck
