#include "spellcheck/dictionary/bloom_filter.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "spellcheck/common/word_hash.hpp"

using namespace spellcheck;

TEST_CASE("no false negatives, and a false-positive rate near the design point") {
  const size_t n = 100000;
  BloomFilter f(3, BloomFilter::blocks_for(n, 12.0));
  for (size_t i = 0; i < n; ++i) f.insert(word_hash("in" + std::to_string(i)), 1);
  size_t missed = 0;
  for (size_t i = 0; i < n; ++i) missed += f.maybe_contains(word_hash("in" + std::to_string(i)), 1) ? 0 : 1;
  CHECK(missed == 0);
  size_t fp = 0;
  const size_t probes = 200000;
  for (size_t i = 0; i < probes; ++i) fp += f.maybe_contains(word_hash("out" + std::to_string(i)), 1) ? 1 : 0;
  const double rate = static_cast<double>(fp) / probes;
  MESSAGE("false-positive rate at 12 bits/entry: " << rate);
  CHECK(rate < 0.02);
  // Other segments are untouched.
  size_t other = 0;
  for (size_t i = 0; i < 1000; ++i) other += f.maybe_contains(word_hash("in" + std::to_string(i)), 0) ? 1 : 0;
  CHECK(other == 0);
}

// The bits of a key are a fixed function of its hash, whatever the build
// (SSE2 or AVX2 code): lane i gets bit (salt[i] * x) >> 27, x = the hash's
// halves XORed. Ranks running differently built binaries share filters.
TEST_CASE("a key sets exactly its eight bits, one per lane, and needs all of them") {
  const uint32_t salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                            0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  bool saw_bit31 = false;
  for (int it = 0; it < 20000; ++it) {
    h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    BloomFilter f(1, 1);
    f.insert(h, 0);
    const uint32_t x = static_cast<uint32_t>(h ^ (h >> 32));
    uint32_t lanes[8];
    std::memcpy(lanes, f.data(), sizeof lanes);
    for (int i = 0; i < 8; ++i) {
      const uint32_t want = 1U << ((salt[i] * x) >> 27);
      REQUIRE(lanes[i] == want);
      saw_bit31 |= want == 0x80000000U;
    }
    REQUIRE(f.maybe_contains(h, 0));
    // Without any one of its bits the key is absent.
    for (int i = 0; i < 8; ++i) {
      BloomFilter g(1, 1);
      std::memcpy(g.data(), lanes, sizeof lanes);
      reinterpret_cast<uint32_t*>(g.data())[i] = ~lanes[i];
      REQUIRE_FALSE(g.maybe_contains(h, 0));
    }
  }
  CHECK(saw_bit31);  // the lane bit that converts from 2^31 in the SSE2 code
}

TEST_CASE("sizing") {
  CHECK(BloomFilter::blocks_for(0, 12.0) == 1);
  CHECK(BloomFilter::blocks_for(512, 8.0) == 16);
  BloomFilter f(2, 4);
  CHECK(f.words() == 2 * 4 * 4);
  CHECK(f.bytes() == 2 * 4 * 32);
  CHECK(f.fill_ratio() == 0.0);
}
