#pragma once
// What the markup filters' tests share: a filter run over a whole text, or
// over pieces cut where the test says as the document reader feeds them
// (the bytes from the returned k on come again with the next piece), with
// the contract checked at every call; gzip'd real files; tokens.
#include <doctest/doctest.h>
#include <zlib.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/input/markup_filter.hpp"
#include "spellcheck/input/tokenizer.hpp"

namespace spellcheck::testing {

template <class Make>
std::string filter_whole(Make make, std::string s) {
  auto f = make();
  const size_t k = f->filter(reinterpret_cast<unsigned char*>(s.data()), s.size(), true);
  REQUIRE(k == s.size());
  return s;
}

template <class Make>
std::string filter_pieces(Make make, const std::string& s, const std::vector<size_t>& cuts) {
  auto f = make();
  std::string out, held;
  size_t from = 0;
  for (size_t i = 0; i <= cuts.size(); ++i) {
    const size_t to = i < cuts.size() ? cuts[i] : s.size();
    held += s.substr(from, to - from);
    from = to;
    const bool at_end = to == s.size();
    const size_t k = f->filter(reinterpret_cast<unsigned char*>(held.data()), held.size(), at_end);
    REQUIRE(k <= held.size());
    if (at_end) REQUIRE(k == held.size());
    else REQUIRE(held.size() - k <= kMarkupMaxHeld);
    out += held.substr(0, k);
    held.erase(0, k);
  }
  return out;
}

inline std::string gunzip(const std::string& path) {
  gzFile g = gzopen(path.c_str(), "rb");
  REQUIRE_MESSAGE(g != nullptr, "cannot open ", path);
  std::string out;
  char buf[65536];
  for (int got; (got = gzread(g, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(got));
  gzclose(g);
  return out;
}

inline std::vector<std::string> tokens(const std::string& s) {
  std::vector<std::string> out;
  for_each_token(s, [&](std::string_view t, size_t) { out.emplace_back(t); });
  return out;
}

}  // namespace spellcheck::testing
