// The pieces of --context that need no ranks: the evidence of one side
// (stupid backoff's ratio to the word's own probability), the count table
// against a std::map, and the tokens' context keys (a capital first letter
// lowered, words over 16 bytes as written). tests/context.sh runs the whole
// against the serial reference.
#include "spellcheck/suggest/context.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>

#include "spellcheck/input/token_observer.hpp"
#include "spellcheck/suggest/detail/count_table.hpp"

using namespace spellcheck;

TEST_CASE("context_side: the pair's conditional over the word's own probability, else the backoff") {
  CHECK(context_side(0, 10, 5, 1000, 0.4) == doctest::Approx(std::log(0.4)));
  CHECK(context_side(3, 0, 5, 1000, 0.4) == doctest::Approx(std::log(0.4)));
  CHECK(context_side(2, 10, 5, 1000, 0.4) == doctest::Approx(std::log(0.2) - std::log(5.5 / 1000)));
  // A word never seen alone still has a probability (half a count).
  CHECK(std::isfinite(context_side(1, 1, 0, 1000, 0.4)));
  // More evidence for the pair, more gain.
  CHECK(context_side(4, 10, 5, 1000, 0.4) > context_side(2, 10, 5, 1000, 0.4));
}

TEST_CASE("CountTable counts as a map does, across growth and key 0") {
  detail::CountTable t(4);
  std::map<uint64_t, uint64_t> want;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t k = rng() % 3000 == 0 ? 0 : (rng() % 5000) * 0x9E3779B97F4A7C15ULL;
    const uint64_t n = 1 + rng() % 3;
    t.add(k, n);
    want[k == 0 ? 1 : k] += n;  // (0 is kept as 1)
  }
  CHECK(t.size() == want.size());
  for (const auto& [k, n] : want) CHECK(t.count(k) == n);
  CHECK(t.count(12345) == 0);
  uint64_t seen = 0;
  t.for_each([&](uint64_t k, uint64_t n) {
    CHECK(want.at(k) == n);
    ++seen;
  });
  CHECK(seen == want.size());
}

TEST_CASE("context keys: a capital first letter lowered, long words as written") {
  CHECK(context_token_hash(std::string_view("The")) == context_token_hash(std::string_view("the")));
  CHECK(exact_token_hash(std::string_view("The")) != exact_token_hash(std::string_view("the")));
  CHECK(context_token_hash(std::string_view("THE")) != context_token_hash(std::string_view("the")));
  CHECK(context_token_hash(std::string_view("Élan")) != context_token_hash(std::string_view("élan")));
  const std::string long_word = "Internationalisations", lower = "internationalisations";
  CHECK(context_token_hash(std::string_view(long_word)) != context_token_hash(std::string_view(lower)));
  CHECK(context_token_hash(std::string_view("Sixteen-letters!")) ==
        context_token_hash(std::string_view("sixteen-letters!")));
}
