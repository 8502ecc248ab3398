#pragma once
// WordList: words packed back to back, each followed by '\n'. No word holds a
// '\n' (SPEC splits lines on it and the tokenizer never keeps one), so the
// bytes are also the wire format of an all-to-all exchange as they are.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spellcheck {

struct WordList {
  std::string bytes;             // "w0\nw1\n..."
  std::vector<uint64_t> starts;  // starts[i]: offset of word i in bytes (64-bit: a rank may hold over 4 GiB)

  size_t size() const { return starts.size(); }
  bool empty() const { return starts.empty(); }
  std::string_view operator[](size_t i) const {
    const size_t b = starts[i];
    const size_t e = (i + 1 < starts.size() ? starts[i + 1] : bytes.size()) - 1;
    return std::string_view(bytes).substr(b, e - b);
  }
  void push_back(std::string_view w) {
    starts.push_back(bytes.size());
    bytes.append(w);
    bytes.push_back('\n');
  }
  // The words of other after these (other's buffers taken when this is empty).
  void append(WordList&& other) {
    if (empty()) {
      *this = std::move(other);
      return;
    }
    const uint64_t shift = bytes.size();
    bytes.append(other.bytes);
    starts.reserve(starts.size() + other.starts.size());
    for (uint64_t s : other.starts) starts.push_back(s + shift);
  }
  void clear() {
    bytes.clear();
    starts.clear();
  }
  // Rebuilds starts from bytes (after receiving bytes off the wire).
  void index() {
    starts.clear();
    size_t b = 0;
    for (size_t i = 0; i < bytes.size(); ++i)
      if (bytes[i] == '\n') {
        starts.push_back(b);
        b = i + 1;
      }
  }
};

}  // namespace spellcheck
