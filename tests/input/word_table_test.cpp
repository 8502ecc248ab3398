// The word table against std::unordered_map: counts, first positions, the
// words themselves (inline up to 16 bytes, in the arena beyond), growth with
// marks kept, and partitions by top hash bits that cover every word once.
#include "spellcheck/input/detail/word_table.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace spellcheck;

namespace {

struct Expected {
  uint64_t count = 0;
  uint64_t first = UINT64_MAX;
  uint64_t mark = 0;
};

// Words of every length around the inline boundaries (8, 16), with bytes
// that differ only past the 8th or 16th so a comparison of too few bytes
// shows.
std::vector<std::string> random_words(std::mt19937_64& rng, size_t n) {
  std::vector<std::string> words;
  const std::string letters = "abcdefghijklmnopqrstuvwxyz'\xc3\xa9";
  for (size_t i = 0; i < n; ++i) {
    const size_t len = 1 + rng() % 40;
    std::string w;
    for (size_t j = 0; j < len; ++j) w += letters[rng() % letters.size()];
    words.push_back(w);
  }
  for (const size_t len : {7, 8, 9, 15, 16, 17, 24}) {
    words.push_back(std::string(len, 'x'));
    std::string y(len, 'x');
    y.back() = 'y';
    words.push_back(y);
  }
  return words;
}

// key_padded reads 16 bytes from p: the word in a buffer with noise after it.
WordKey padded_key(const std::string& w, std::string& buffer) {
  buffer = w + std::string(16, '\x7f');
  return key_padded(buffer.data(), w.size());
}

}  // namespace

TEST_CASE("the key of a word does not depend on the bytes after it") {
  std::mt19937_64 rng(7);
  std::string buffer;
  for (const std::string& w : random_words(rng, 500)) {
    const WordKey a = padded_key(w, buffer);
    const WordKey b = key_of(w);
    CHECK(a.w0 == b.w0);
    CHECK(a.w1 == b.w1);
    CHECK(a.h == b.h);
    CHECK(a.len == w.size());
  }
}

TEST_CASE("counts, first positions and words equal a map's, through growth, with marks") {
  for (const uint64_t seed : {1, 2, 3}) {
    std::mt19937_64 rng(seed);
    const std::vector<std::string> vocabulary = random_words(rng, 3000);
    // Start tiny so the table grows many times; marks must follow their words.
    WordTable table(1, 0, /*marks=*/true);
    std::unordered_map<std::string, Expected> expected;
    std::string buffer;
    for (int i = 0; i < 40000; ++i) {
      // A skewed draw: some words are frequent (grow() moves those first).
      const std::string& w = vocabulary[std::min<size_t>(rng() % vocabulary.size(), rng() % vocabulary.size())];
      const uint64_t pos = rng() % 1000000;
      const uint64_t count = 1 + rng() % 3;
      const WordKey k = (i % 2) ? padded_key(w, buffer) : key_of(w);
      Expected& e = expected[w];
      const bool earlier = pos < e.first;
      WordTable::Slot* s = table.add(k, pos, count);
      e.count += count;
      CHECK((s != nullptr) == earlier);
      if (earlier) {
        e.first = pos;
        e.mark = pos * 3 + 1;
        table.set_mark(s, e.mark);
      }
    }
    REQUIRE(table.size() == expected.size());
    size_t bytes = 0;
    for (const auto& [w, e] : expected) bytes += w.size();
    CHECK(table.word_bytes() == bytes);
    size_t seen = 0;
    table.for_each([&](std::string_view w, const WordTable::Slot& s) {
      ++seen;
      const auto it = expected.find(std::string(w));
      REQUIRE(it != expected.end());
      CHECK(WordTable::count_of(s) == it->second.count);
      CHECK(s.first == it->second.first);
      CHECK(table.mark_of(s) == it->second.mark);
    });
    CHECK(seen == expected.size());
  }
}

TEST_CASE("the partitions by top hash bits hold every word exactly once") {
  std::mt19937_64 rng(11);
  const std::vector<std::string> vocabulary = random_words(rng, 5000);
  WordTable table(16);
  for (size_t i = 0; i < vocabulary.size(); ++i) table.add(key_of(vocabulary[i]), i);
  for (const int bits : {1, 3, 6, 12}) {
    std::map<std::string, int> times;
    for (size_t k = 0; k < (size_t{1} << bits); ++k)
      table.for_each_in_part(k, bits, [&](const WordKey& key, const WordTable::Slot& s) {
        CHECK((key.h >> (64 - bits)) == k);
        ++times[std::string(table.word_of(s))];
      });
    CHECK(times.size() == table.size());
    CHECK(std::all_of(times.begin(), times.end(), [](const auto& t) { return t.second == 1; }));
  }
}

TEST_CASE("a zero array is zero, big or small, and moves") {
  for (const size_t n : {size_t{0}, size_t{10}, size_t{1} << 20}) {  // 8 MiB: the mapped path
    ZeroArray<uint64_t> a(n);
    REQUIRE(a.size() == n);
    bool zero = true;
    for (size_t i = 0; i < n; ++i) zero = zero && a[i] == 0;
    CHECK(zero);
    if (n) a[n - 1] = 42;
    ZeroArray<uint64_t> b = std::move(a);
    CHECK(b.size() == n);
    CHECK(a.size() == 0);
    if (n) CHECK(b[n - 1] == 42);
  }
}

TEST_CASE("per document: each document's words and counts equal a map's, through growth; known words left out") {
  for (const uint64_t seed : {4, 5}) {
    std::mt19937_64 rng(seed);
    const std::vector<std::string> vocabulary = random_words(rng, 2000);
    WordTable table(1, 0, /*marks=*/false, /*documents=*/true);  // tiny: grows inside documents
    if (seed == 5) table.set_count_limit(3);                     // counts carried past the limit
    std::string buffer;
    // Words of even length are "known": never given (end_document decides
    // a word the first time it ends a document holding it).
    std::map<std::string, bool> decided;
    const auto known = [&](const std::string_view* words, size_t n, uint8_t* out) {
      for (size_t j = 0; j < n; ++j) {
        const std::string w(words[j]);
        CHECK(decided.count(w) == 0);  // each word decided once
        decided[w] = true;
        out[j] = w.size() % 2 == 0;
      }
    };
    for (int doc = 0; doc < 60; ++doc) {
      std::map<std::string, uint64_t> expected;
      const int tokens = static_cast<int>(rng() % 3000);
      for (int i = 0; i < tokens; ++i) {
        const std::string& w = vocabulary[std::min<size_t>(rng() % vocabulary.size(), rng() % vocabulary.size())];
        table.add_in_document(i % 2 ? padded_key(w, buffer) : key_of(w), rng() % 1000000);
        if (w.size() % 2 != 0) ++expected[w];
      }
      std::map<std::string, uint64_t> got;
      table.end_document(known, [&](std::string_view w, uint64_t n) {
        CHECK(got.count(std::string(w)) == 0);
        got[std::string(w)] = n;
      });
      CAPTURE(doc);
      CHECK(got == expected);
    }
  }
}
