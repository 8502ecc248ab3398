// libFuzzer target: the WARC filter on arbitrary bytes (seeds: WARC files).
// Checks the contract of markup_filter.hpp: a call returns k <= n, holds
// back at most kMarkupMaxHeld bytes, takes every byte at the end; the
// length never changes, '\n' stays where it is and no other byte becomes
// one. And the bytes fed in pieces, cut anywhere, come out as when fed
// whole, with the same malformed records and record callbacks.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "spellcheck/input/detail/warc_filter.hpp"

using namespace spellcheck;

namespace {

struct Run {
  std::string out;
  uint64_t malformed = 0;
  std::vector<uint64_t> first;
  std::vector<std::pair<uint64_t, std::string>> records;
  bool operator==(const Run&) const = default;
};

// The filter over text in pieces ending at cuts (ascending, then the end),
// the held-back bytes given again with the next piece.
Run run(std::string text, std::vector<size_t> cuts) {
  WarcFilter f;
  Run r;
  size_t done = 0;
  f.on_record([&](uint64_t offset, std::string_view uri) {
    if (done > offset + kMarkupMaxHeld) std::abort();  // announced after its payload began to be final
    r.records.emplace_back(offset, uri);
  });
  cuts.push_back(text.size());
  for (size_t k = 0; k < cuts.size(); ++k) {
    const size_t end = cuts[k] < done ? done : cuts[k];
    const bool at_end = k + 1 == cuts.size();
    const size_t n = end - done;
    const size_t got = f.filter(reinterpret_cast<unsigned char*>(text.data()) + done, n, at_end);
    if (got > n) std::abort();
    if (at_end && got != n) std::abort();
    if (!at_end && got + kMarkupMaxHeld < n) std::abort();
    done += got;
  }
  r.out = std::move(text);
  r.malformed = f.malformed().count;
  r.first = f.malformed().first;
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
  const size_t a = data[0] * text.size() / 256, b = data[1] * text.size() / 256;
  const Run whole = run(text, {});
  if (whole.out.size() != text.size()) std::abort();
  for (size_t i = 0; i < text.size(); ++i)
    if ((text[i] == '\n') != (whole.out[i] == '\n')) std::abort();
  if (!(run(text, {a}) == whole)) std::abort();
  if (!(run(text, {a < b ? a : b, a < b ? b : a}) == whole)) std::abort();
  std::vector<size_t> small;  // many small pieces: holding at every state
  for (size_t at = 1 + a % 61; at < text.size(); at += 1 + (at * 7 + b) % 61) small.push_back(at);
  if (!(run(text, small) == whole)) std::abort();
  return 0;
}
