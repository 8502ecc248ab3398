#include "spellcheck/stats.hpp"

#include <cmath>
#include <cstdio>

namespace spellcheck {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out + "\"";
}

JsonObject& JsonObject::add(const std::string& key, double v) {
  char buf[64];
  if (std::isfinite(v))
    std::snprintf(buf, sizeof buf, "%.9g", v);
  else
    std::snprintf(buf, sizeof buf, "null");
  fields_.emplace_back(key, buf);
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, uint64_t v) {
  fields_.emplace_back(key, std::to_string(v));
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const std::string& v) {
  fields_.emplace_back(key, json_string(v));
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, bool v) {
  fields_.emplace_back(key, v ? "true" : "false");
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const JsonObject& v) {
  fields_.emplace_back(key, v.str());
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const std::vector<JsonObject>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += v[i].str();
  }
  s += ']';
  fields_.emplace_back(key, std::move(s));
  return *this;
}

std::string JsonObject::str() const {
  std::string s = "{";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) s += ',';
    s += json_string(fields_[i].first);
    s += ':';
    s += fields_[i].second;
  }
  s += '}';
  return s;
}

JsonObject traffic_json(const mpi::Traffic& t) {
  return JsonObject()
      .add("messages_sent", t.messages)
      .add("bytes_sent", t.bytes)
      .add("messages_received", t.messages_received)
      .add("bytes_received", t.bytes_received);
}

JsonObject phase_traffic_json(const std::vector<PhaseSummary>& phases, size_t rank) {
  JsonObject o;
  for (const auto& p : phases) o.add(p.phase, traffic_json(p.traffic_per_rank.at(rank)));
  return o;
}

JsonObject phase_traffic_totals_json(const std::vector<PhaseSummary>& phases) {
  JsonObject o;
  for (const auto& p : phases) {
    mpi::Traffic sum;
    for (const auto& t : p.traffic_per_rank) sum += t;
    o.add(p.phase, traffic_json(sum));
  }
  return o;
}

}  // namespace spellcheck
