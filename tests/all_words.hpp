// Every word of 0..max_len letters over an alphabet, shortest first: the
// exhaustive inputs of the tests that compare a suggestion rule with brute
// force.
#pragma once

#include <string>
#include <vector>

inline std::vector<std::string> all_words(const std::string& alphabet, size_t max_len) {
  std::vector<std::string> out{""};
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].size() < max_len)
      for (const char c : alphabet) out.push_back(out[i] + c);
  return out;
}
