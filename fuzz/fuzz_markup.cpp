// libFuzzer target: the text filters (url, html, markdown, tex, nroff) on
// arbitrary bytes. Checks the contract of markup_filter.hpp: a call returns
// k <= n, holds back at most kMarkupMaxHeld bytes (whole-file filters: all
// until the end), takes every byte at the end; the length never changes,
// '\n' stays where it is and no other byte becomes one; and the bytes fed
// in pieces, cut anywhere, come out as when fed whole.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "spellcheck/input/detail/url_filter.hpp"
#include "spellcheck/input/markup_filter.hpp"

using namespace spellcheck;

namespace {

std::unique_ptr<MarkupFilter> make(uint8_t kind) {
  switch (kind % 5) {
    case 0: return make_url_filter();
    case 1: return make_markup_filter(Markup::html);
    case 2: return make_markup_filter(Markup::markdown);
    case 3: return make_markup_filter(Markup::tex);
    default: return make_markup_filter(Markup::nroff);
  }
}

// The filter over text in pieces ending at cuts (ascending, then the end).
std::string run(uint8_t kind, std::string text, std::vector<size_t> cuts) {
  auto f = make(kind);
  if (!f) return text;
  cuts.push_back(text.size());
  size_t done = 0;
  for (size_t k = 0; k < cuts.size(); ++k) {
    const size_t end = cuts[k] < done ? done : cuts[k];
    const bool at_end = k + 1 == cuts.size();
    const size_t n = end - done;
    const size_t got = f->filter(reinterpret_cast<unsigned char*>(text.data()) + done, n, at_end);
    if (got > n) std::abort();
    if (at_end && got != n) std::abort();
    if (!at_end && !f->whole_file() && got + kMarkupMaxHeld < n) std::abort();
    done += got;
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const uint8_t kind = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 3), size - 3);
  const size_t a = text.empty() ? 0 : data[1] * text.size() / 256, b = text.empty() ? 0 : data[2] * text.size() / 256;
  const std::string whole = run(kind, text, {});
  if (whole.size() != text.size()) std::abort();
  for (size_t i = 0; i < text.size(); ++i)
    if ((text[i] == '\n') != (whole[i] == '\n')) std::abort();
  if (run(kind, text, {a}) != whole) std::abort();
  if (run(kind, text, {a < b ? a : b, a < b ? b : a}) != whole) std::abort();
  return 0;
}
