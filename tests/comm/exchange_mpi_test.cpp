// route_by_owner delivers every word, with its values, to its owner.
#include <doctest/doctest.h>

#include <string>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/common/word_hash.hpp"

using namespace spellcheck;

TEST_CASE("every word reaches its owner once, with its values") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  WordList words;
  std::vector<uint64_t> hashes, values;
  // Rank r sends words r, r+1, ... r+99 (so neighbours overlap) and Apple/apple.
  for (int i = 0; i < 100; ++i) {
    const std::string w = "w" + std::to_string(me + i);
    words.push_back(w);
    hashes.push_back(word_hash(w));
    values.push_back(static_cast<uint64_t>(me));
    values.push_back(static_cast<uint64_t>(i));
  }
  for (auto w : {"Apple", "apple"}) {
    words.push_back(w);
    hashes.push_back(word_hash(w));
    values.push_back(static_cast<uint64_t>(me));
    values.push_back(1000);
  }
  std::vector<std::vector<uint64_t>> columns(2);
  for (size_t i = 0; i < values.size(); ++i) columns[i % 2].push_back(values[i]);
  const Routed got = route_by_owner(comm, words, hashes, columns);
  // No REQUIRE before the collective below: a rank that left this test
  // early would leave the others waiting in it forever. Every check here is
  // a CHECK, and the loop runs only on well-formed columns.
  const bool shaped = got.values.size() == 2 && got.values[0].size() == got.words.size() &&
                      got.values[1].size() == got.words.size() && got.hashes.size() == got.words.size();
  CHECK(shaped);
  size_t wrong_owner = 0, wrong_value = 0, wrong_hash = 0;
  for (size_t i = 0; shaped && i < got.words.size(); ++i) {
    const std::string w(got.words[i]);
    wrong_owner += owner_of(word_hash(w), p) == me ? 0 : 1;
    wrong_hash += got.hashes[i] == word_hash(w) ? 0 : 1;
    const auto from = got.values[0][i], idx = got.values[1][i];
    if (idx != 1000) wrong_value += w == "w" + std::to_string(from + idx) ? 0 : 1;
  }
  CHECK(wrong_owner == 0);
  CHECK(wrong_hash == 0);
  CHECK(wrong_value == 0);
  // Apple and apple meet on one rank.
  CHECK(owner_of(word_hash("Apple"), p) == owner_of(word_hash("apple"), p));
  // Every rank gets here, whatever its checks found.
  const uint64_t total = mpi::allreduce_sum(comm, static_cast<uint64_t>(got.words.size()));
  const uint64_t bad = mpi::allreduce_sum(comm, static_cast<uint64_t>(shaped ? 0 : 1));
  CHECK(total == static_cast<uint64_t>(102 * p));
  CHECK(bad == 0);  // also on the ranks whose own columns were fine
}
