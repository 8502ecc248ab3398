// Compiled dictionary files: what each rank reads back is exactly the
// entries it owns (owner_of), on any number of ranks up to the buckets; the
// file does not depend on the entries' order; every damaged file is refused
// with an InputError naming it.
#include "spellcheck/dictionary/compiled_dictionary.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/word_hash.hpp"

using namespace spellcheck;

namespace {

struct Dictionary {
  WordList entries;
  std::vector<uint64_t> hashes;
  BloomFilter bloom{1, 64};
  TrigramFilter trigrams;
  AffixFilter affixes{1000};
};

Dictionary make_dictionary(size_t n, uint32_t seed) {
  Dictionary d;
  std::mt19937 rng(seed);
  for (size_t i = 0; i < n; ++i) {
    std::string w;
    const size_t len = 1 + rng() % 12;
    for (size_t k = 0; k < len; ++k)
      w.push_back(static_cast<char>((k == 0 && rng() % 5 == 0 ? 'A' : 'a') + rng() % 26));
    d.entries.push_back(w);
    if (rng() % 10 == 0) d.entries.push_back(w);  // duplicates stay
  }
  for (size_t i = 0; i < d.entries.size(); ++i) {
    d.hashes.push_back(word_hash(d.entries[i]));
    d.bloom.insert(d.hashes.back(), 0);
    d.trigrams.add_entry(d.entries[i]);
    d.affixes.add_key(d.entries[i]);
  }
  return d;
}

std::string bytes_of(const Dictionary& d, uint32_t buckets) {
  return compiled_dictionary_bytes(d.entries, d.hashes, {&d.bloom, &d.trigrams, &d.affixes}, buckets, "test\n");
}

CompiledShare read_share(const std::string& file, int rank, int ranks) {
  const ReadAt read = [&](uint64_t offset, size_t n, char* dest) {
    if (offset > file.size() || n > file.size() - offset) return false;
    std::memcpy(dest, file.data() + offset, n);
    return true;
  };
  return read_compiled_share(read, file.size(), "dict.scd", rank, ranks);
}

// The entries (word, hash) as a sorted multiset.
std::multimap<std::string, uint64_t> multiset(const WordList& w, const std::vector<uint64_t>& h) {
  std::multimap<std::string, uint64_t> m;
  for (size_t i = 0; i < w.size(); ++i) m.emplace(std::string(w[i]), h[i]);
  return m;
}

std::string error_of(const std::string& file, int rank, int ranks) {
  try {
    read_share(file, rank, ranks);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("owned_buckets: the ranks' ranges tile the buckets and hold their owners' hashes") {
  for (const uint32_t buckets : {1u, 2u, 64u, 4096u})
    for (int ranks = 1; ranks <= 9 && static_cast<uint32_t>(ranks) <= buckets; ++ranks) {
      uint32_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const BucketRange b = owned_buckets(r, ranks, buckets);
        CHECK(b.first <= next);  // a boundary bucket may be shared
        CHECK(b.first < b.last);
        next = b.last;
      }
      CHECK(next == buckets);
      std::mt19937_64 rng(buckets * 31 + static_cast<uint32_t>(ranks));
      for (int i = 0; i < 2000; ++i) {
        const uint64_t h = rng();
        const BucketRange b = owned_buckets(owner_of(h, ranks), ranks, buckets);
        const uint32_t k = compiled_bucket(h, buckets);
        CHECK((k >= b.first && k < b.last));
      }
    }
}

TEST_CASE("compiled file: each rank reads back exactly the entries it owns") {
  const Dictionary d = make_dictionary(5000, 7);
  const std::string file = bytes_of(d, 64);
  for (int ranks = 1; ranks <= 9; ++ranks) {
    WordList all;
    std::vector<uint64_t> all_hashes;
    for (int r = 0; r < ranks; ++r) {
      const CompiledShare s = read_share(file, r, ranks);
      CHECK(s.total_entries == d.entries.size());
      REQUIRE(s.entries.size() == s.hashes.size());
      for (size_t i = 0; i < s.entries.size(); ++i) {
        CHECK(owner_of(s.hashes[i], ranks) == r);
        CHECK(word_hash(s.entries[i]) == s.hashes[i]);
        all.push_back(s.entries[i]);
        all_hashes.push_back(s.hashes[i]);
      }
      CHECK(s.description == "test\n");
    }
    CHECK(multiset(all, all_hashes) == multiset(d.entries, d.hashes));
  }
  const CompiledShare s = read_share(file, 0, 1);
  CHECK(std::memcmp(s.bloom.data(), d.bloom.data(), d.bloom.bytes()) == 0);
  CHECK(std::memcmp(s.trigrams.data(), d.trigrams.data(), d.trigrams.words() * 8) == 0);
  REQUIRE(s.affixes.words() == d.affixes.words());
  CHECK(std::memcmp(s.affixes.data(), d.affixes.data(), d.affixes.bytes()) == 0);
}

TEST_CASE("compiled file: the same bytes whatever the entries' order") {
  Dictionary d = make_dictionary(3000, 11);
  const std::string file = bytes_of(d, 128);
  std::vector<size_t> order(d.entries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(3));
  Dictionary shuffled = make_dictionary(0, 0);
  for (size_t i : order) {
    shuffled.entries.push_back(d.entries[i]);
    shuffled.hashes.push_back(d.hashes[i]);
  }
  CHECK(compiled_dictionary_bytes(shuffled.entries, shuffled.hashes, {&d.bloom, &d.trigrams, &d.affixes}, 128,
                                  "test\n") == file);
}

TEST_CASE("compiled file: an empty dictionary and empty buckets read back") {
  const Dictionary d = make_dictionary(0, 1);
  const std::string file = bytes_of(d, 16);
  for (int ranks = 1; ranks <= 4; ++ranks) CHECK(read_share(file, ranks - 1, ranks).entries.empty());
}

TEST_CASE("compiled file: damage is refused with the file's name") {
  const Dictionary d = make_dictionary(2000, 5);
  const std::string file = bytes_of(d, 32);
  SUBCASE("truncated anywhere") {
    for (size_t n : {size_t{16}, size_t{40}, size_t{63}, size_t{64}, size_t{65}, file.size() / 2, file.size() - 1}) {
      const std::string e = error_of(file.substr(0, n), 0, 1);
      CHECK(e.find("dict.scd: a truncated compiled dictionary") == 0);
    }
  }
  SUBCASE("a flipped byte anywhere past the header is found by the rank that reads it") {
    for (size_t at = 64; at < file.size(); at += 97) {
      std::string bad = file;
      bad[at] = static_cast<char>(bad[at] ^ 0x40);
      const std::string e = error_of(bad, 0, 1);
      CHECK_MESSAGE(e.find("dict.scd: a damaged compiled dictionary") == 0, "byte ", at, ": ", e);
    }
  }
  SUBCASE("another format, another magic, a bucket count that is no power of two") {
    std::string bad = file;
    bad[16] = 3;
    CHECK(error_of(bad, 0, 1).find("format 3") != std::string::npos);
    bad = file;
    bad[3] = 'X';
    CHECK(error_of(bad, 0, 1) == "dict.scd: not a compiled dictionary");
    bad = file;
    bad[20] = 3;
    CHECK(error_of(bad, 0, 1).find("damaged") != std::string::npos);
    for (size_t at : {20, 24, 25, 48, 56}) {  // buckets (another power of two), entries, ranked bytes, digest
      bad = file;
      bad[at] = static_cast<char>(bad[at] ^ (at == 20 ? 0x30 : 0x01));
      CHECK_MESSAGE(error_of(bad, 0, 1).find("damaged") != std::string::npos, "header byte ", at);
    }
  }
  SUBCASE("more ranks than buckets") {
    CHECK(error_of(file, 0, 33).find("compiled with 32 buckets, it serves at most 32 ranks (this run has 33)") !=
          std::string::npos);
    CHECK(error_of(file, 31, 32).empty());
  }
}
