// libFuzzer target: the JSON Lines filter on arbitrary bytes. Checks the
// contract of jsonl_filter.hpp: a call returns k <= n, ending after a '\n'
// (or at the end), holding back only an unfinished line without '\n', and
// takes every byte at the end; the length never changes, '\n' stays where
// it is and no other byte becomes one; and the bytes fed in pieces, cut
// anywhere, come out as when fed whole, with the same malformed records and
// record ids.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spellcheck/input/detail/jsonl_filter.hpp"

using namespace spellcheck;

namespace {

struct Run {
  std::string out;
  std::vector<uint64_t> malformed;
  uint64_t malformed_count = 0;
  std::string records;  // "offset:id\n" per record
  bool operator==(const Run&) const = default;
};

// The filter over text in pieces ending at cuts (ascending, then the end),
// the held-back bytes carried over as a reader does.
Run run(std::string text, std::vector<size_t> cuts) {
  Run r;
  auto f = make_jsonl_filter("text");
  f->on_record(
      [&r](uint64_t off, std::string_view id) {
        r.records += std::to_string(off) + ':';
        r.records += id;
        r.records += '\n';
      },
      "id");
  cuts.push_back(text.size());
  size_t done = 0;
  for (size_t k = 0; k < cuts.size(); ++k) {
    const size_t end = cuts[k] < done ? done : cuts[k];
    const bool at_end = k + 1 == cuts.size();
    const size_t n = end - done;
    auto* p = reinterpret_cast<unsigned char*>(text.data()) + done;
    const size_t got = f->filter(p, n, at_end);
    if (got > n) std::abort();
    if (at_end && got != n) std::abort();
    if (!at_end && got > 0 && p[got - 1] != '\n') std::abort();
    if (std::string_view(text).substr(done + got, n - got).find('\n') != std::string_view::npos) std::abort();
    done += got;
  }
  r.malformed = f->malformed().first;
  r.malformed_count = f->malformed().count;
  if (r.malformed.size() != std::min<uint64_t>(r.malformed_count, MarkupFilter::kMalformedKept)) std::abort();
  r.out = std::move(text);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
  const size_t a = text.empty() ? 0 : data[0] * text.size() / 256, b = text.empty() ? 0 : data[1] * text.size() / 256;
  const Run whole = run(text, {});
  if (whole.out.size() != text.size()) std::abort();
  for (size_t i = 0; i < text.size(); ++i)
    if ((text[i] == '\n') != (whole.out[i] == '\n')) std::abort();
  if (run(text, {a}) != whole) std::abort();
  if (run(text, {a < b ? a : b, a < b ? b : a}) != whole) std::abort();
  return 0;
}
