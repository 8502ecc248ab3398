#include "spellcheck/output/detail/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "spellcheck/common/code_points.hpp"

namespace spellcheck {

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  // Printable ASCII without quotes or backslashes (most words): as it is.
  if (std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; })) {
    out.append(s);
    out.push_back('"');
    return;
  }
  std::vector<char32_t> cps(s.size() + 1);
  const size_t n = decode_utf8(s, cps.data());
  for (size_t i = 0; i < n; ++i) {
    const char32_t c = cps[i];
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else if (c >= 0xDC80 && c <= 0xDCFF) {
      out += "\xEF\xBF\xBD";  // an invalid byte: U+FFFD
    } else {
      append_utf8(out, c);
    }
  }
  out.push_back('"');
}

JsonObject& JsonObject::add(const std::string& key, double v) {
  char buf[64];
  if (std::isfinite(v)) std::snprintf(buf, sizeof buf, "%.9g", v);
  else std::snprintf(buf, sizeof buf, "null");
  fields_.emplace_back(key, buf);
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, uint64_t v) {
  fields_.emplace_back(key, std::to_string(v));
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const std::string& v) {
  std::string s;
  append_json_string(s, v);
  fields_.emplace_back(key, std::move(s));
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
    append_json_string(s, fields_[i].first);
    s += ':';
    s += fields_[i].second;
  }
  s += '}';
  return s;
}

}  // namespace spellcheck
