#include "spellcheck/dictionary/trigram_filter.hpp"

#include <bit>
#include <string>

#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

namespace {
constexpr std::array<uint8_t, 256> make_symbols() {
  std::array<uint8_t, 256> s{};
  for (int c = 0; c < 256; ++c) s[c] = TrigramFilter::kOther;
  for (int c = 'a'; c <= 'z'; ++c) s[c] = static_cast<uint8_t>(c - 'a');
  for (int c = 'A'; c <= 'Z'; ++c) s[c] = static_cast<uint8_t>(26 + c - 'A');
  for (int c = '0'; c <= '9'; ++c) s[c] = static_cast<uint8_t>(52 + c - '0');
  return s;
}
}  // namespace

const std::array<uint8_t, 256> TrigramFilter::kSymbol = make_symbols();

void TrigramFilter::add_spelling(std::string_view w) {
  uint32_t a = kBoundary, b = kBoundary;
  for (unsigned char ch : w) {
    const uint32_t c = symbol(ch);
    set(a, b, c);
    a = b;
    b = c;
  }
  set(a, b, kBoundary);
}

void TrigramFilter::add_entry(std::string_view entry) {
  add_spelling(entry);
  const unsigned char first = static_cast<unsigned char>(entry[0]);
  if (first >= 'a' && first <= 'z') {
    // Only the triples holding the first byte differ in the capitalised form.
    const uint32_t up = symbol(static_cast<unsigned char>(first - 32));
    const uint32_t s1 = entry.size() > 1 ? symbol(static_cast<unsigned char>(entry[1])) : kBoundary;
    const uint32_t s2 = entry.size() > 2 ? symbol(static_cast<unsigned char>(entry[2])) : kBoundary;
    set(kBoundary, kBoundary, up);
    set(kBoundary, up, s1);
    set(up, s1, s2);
  }
}

bool TrigramFilter::may_contain(std::string_view w) const {
  uint32_t a = kBoundary, b = kBoundary;
  for (unsigned char ch : w) {
    const uint32_t c = symbol(ch);
    if (!has(a, b, c)) return false;
    a = b;
    b = c;
  }
  return has(a, b, kBoundary);
}

double TrigramFilter::density() const {
  uint64_t n = 0;
  for (size_t i = 0; i < kPlane; ++i) n += static_cast<uint64_t>(std::popcount(bits_[i]));
  return static_cast<double>(n) / kBits;
}

}  // namespace spellcheck
