#pragma once
// Run statistics for --stats: a small JSON writer (no dependency) and the
// counters the phases report.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spellcheck/output_file.hpp"  // write_file_atomically

#include "spellcheck/mpi.hpp"
#include "spellcheck/timing.hpp"

namespace spellcheck {

// Builds one JSON object; values are numbers, strings or nested objects.
class JsonObject {
 public:
  JsonObject& add(const std::string& key, double v);
  JsonObject& add(const std::string& key, uint64_t v);
  JsonObject& add(const std::string& key, int v) { return add(key, static_cast<uint64_t>(v)); }
  JsonObject& add(const std::string& key, const std::string& v);
  JsonObject& add(const std::string& key, const char* v) { return add(key, std::string(v)); }
  JsonObject& add(const std::string& key, bool v);
  JsonObject& add(const std::string& key, const JsonObject& v);
  JsonObject& add(const std::string& key, const std::vector<JsonObject>& v);
  std::string str() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  // key, encoded value
};

std::string json_string(const std::string& s);

// {"messages_sent":..,"bytes_sent":..,"messages_received":..,"bytes_received":..}
JsonObject traffic_json(const mpi::Traffic& t);
// Per phase (summarize's order): rank r's traffic in the phase, and over all
// ranks in "all".
JsonObject phase_traffic_json(const std::vector<PhaseSummary>& phases, size_t rank);
JsonObject phase_traffic_totals_json(const std::vector<PhaseSummary>& phases);

}  // namespace spellcheck
