#include "spellcheck/bloom_filter.hpp"

#include <doctest/doctest.h>

#include <string>

#include "spellcheck/word_hash.hpp"

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

TEST_CASE("sizing") {
  CHECK(BloomFilter::blocks_for(0, 12.0) == 1);
  CHECK(BloomFilter::blocks_for(512, 8.0) == 16);
  BloomFilter f(2, 4);
  CHECK(f.words() == 2 * 4 * 4);
  CHECK(f.bytes() == 2 * 4 * 32);
  CHECK(f.fill_ratio() == 0.0);
}
