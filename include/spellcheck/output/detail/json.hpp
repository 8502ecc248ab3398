#pragma once
// JSON output without a dependency: strings escaped (invalid UTF-8 bytes
// become U+FFFD, so the document stays valid whatever the words or paths
// hold) and objects built field by field (--stats, --format jsonl).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spellcheck {

// Appends s as a JSON string: quotes, backslashes and control characters
// escaped, valid UTF-8 as it is, each invalid byte as U+FFFD.
void append_json_string(std::string& out, std::string_view s);

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

}  // namespace spellcheck
