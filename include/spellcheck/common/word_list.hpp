#pragma once
// WordList: words packed back to back, each followed by '\n'. No word holds a
// '\n' (SPEC splits lines on it and the tokenizer never keeps one), so the
// bytes are also the wire format of an all-to-all exchange as they are.
#include <cstddef>
#include <cstdint>
#include <cstring>
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
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    for (const char* b = p; b < end;) {
      const void* nl = std::memchr(b, '\n', static_cast<size_t>(end - b));
      if (nl == nullptr) break;
      starts.push_back(static_cast<uint64_t>(b - p));
      b = static_cast<const char*>(nl) + 1;
    }
  }
};

}  // namespace spellcheck
