#pragma once
// Run statistics for --stats: a small JSON writer (no dependency) and the
// counters the phases report.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spellcheck/output_file.hpp"  // write_file_atomically

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

}  // namespace spellcheck
