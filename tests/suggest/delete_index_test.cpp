// The symmetric-delete index finds exactly the entries within distance d:
// built whole in one process the way bench/rank_tune.cpp does (buckets,
// their prefix deletes, the delete table), looked up the way ranked_lookup
// does (the query's prefix deletes -> prefix hashes -> buckets -> OSA check),
// and compared with brute force over every entry.
#include "spellcheck/suggest/delete_index.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "folded.hpp"
#include "sanitized.hpp"
#include "spellcheck/common/code_points.hpp"
#include "spellcheck/suggest/osa_distance.hpp"

using namespace spellcheck;
using spellcheck::testing::kSweepStride;

namespace {

// Letters as UTF-8 strings: a small alphabet so that neighbours are common,
// with capitals (folding matters), an apostrophe and multi-byte letters.
const std::vector<std::string> kLetters = {"a", "b", "c", "d", "e", "A", "B", "'", "é", "É", "ß", "α", "Ω", "ж"};

std::string random_word(std::mt19937& rng, size_t min_len, size_t max_len) {
  const size_t n = min_len + rng() % (max_len - min_len + 1);
  std::string w;
  for (size_t i = 0; i < n; ++i) w += kLetters[rng() % kLetters.size()];
  return w;
}

// Up to `edits` random edits over code points (as letters of kLetters).
std::string mutate(std::mt19937& rng, const std::string& word, int edits) {
  std::vector<std::string> l;
  {
    std::u32string c(word.size() + 1, 0);
    c.resize(decode_utf8(word, c.data()));
    for (char32_t x : c) {
      std::string s;
      append_utf8(s, x);
      l.push_back(s);
    }
  }
  for (int e = 0; e < edits; ++e) {
    const int op = static_cast<int>(rng() % 5);
    const size_t pos = l.empty() ? 0 : rng() % l.size();
    if (op == 0 && !l.empty()) l.erase(l.begin() + static_cast<std::ptrdiff_t>(pos));
    else if (op == 1)
      l.insert(l.begin() + static_cast<std::ptrdiff_t>(l.empty() ? 0 : rng() % (l.size() + 1)),
               kLetters[rng() % kLetters.size()]);
    else if (op == 2 && !l.empty()) l[pos] = kLetters[rng() % kLetters.size()];
    else if (op == 3 && l.size() >= 2) {
      const size_t p = pos + 1 < l.size() ? pos : l.size() - 2;
      std::swap(l[p], l[p + 1]);
    } else if (op == 4 && !l.empty()) {  // change the case of a letter
      std::u32string c = folded(l[pos]);
      std::string s;
      for (char32_t x : c) append_utf8(s, upper_case(x));
      l[pos] = s;
    }
  }
  std::string w;
  for (auto& s : l) w += s;
  return w;
}

struct Index {
  PrefixBuckets buckets;
  DeleteTable table;
};

void check_exact(const std::vector<std::string>& dict, int d, size_t prefix_length, uint32_t seed) {
  CAPTURE(d);
  CAPTURE(prefix_length);
  const DeleteParams p{d, prefix_length};
  WordList entries;
  for (const auto& w : dict) entries.push_back(w);
  Index ix;
  ix.buckets.build(std::move(entries), std::vector<uint64_t>(dict.size(), 0), p);
  REQUIRE(ix.buckets.size() == dict.size());
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  ix.buckets.for_each_delete(p, [&](size_t g, uint64_t del) { pairs.emplace_back(del, g); });
  ix.table.build(std::move(pairs));

  std::vector<std::u32string> dict_folded;
  dict_folded.reserve(dict.size());
  for (const auto& w : dict) dict_folded.push_back(folded(w));

  std::mt19937 rng(seed);
  std::vector<uint64_t> dels;
  size_t nonempty = 0, total_found = 0;
  for (size_t t = 0; t < 700 / kSweepStride; ++t) {
    std::string q;
    if (t % 4 == 3) q = random_word(rng, 0, 10);
    else q = mutate(rng, dict[rng() % dict.size()], 1 + static_cast<int>(rng() % 3));
    const std::u32string fq = folded(q);

    // Through the index.
    std::set<std::string> got;
    prefix_deletes(fq.data(), fq.size(), p, dels);
    std::set<uint64_t> bucket_numbers;
    for (const uint64_t h : dels) {
      const auto [first, last] = ix.table.find(h);
      bucket_numbers.insert(first, last);
    }
    for (const uint64_t g : bucket_numbers) {
      const auto [first, last] = ix.buckets.bucket_range(ix.buckets.group_key(g));
      for (uint32_t e = first; e != last; ++e) {
        const int dist = osa_distance(fq.data(), fq.size(), ix.buckets.folded(e), ix.buckets.folded_size(e), d);
        if (dist <= d) got.insert(std::string(ix.buckets.spelling(e)));
      }
    }
    // Brute force.
    std::set<std::string> want;
    for (size_t i = 0; i < dict.size(); ++i)
      if (osa_distance(fq.data(), fq.size(), dict_folded[i].data(), dict_folded[i].size(), d) <= d)
        want.insert(dict[i]);
    if (got != want) {
      CAPTURE(q);
      std::string missing, extra;
      for (const auto& w : want)
        if (!got.count(w)) missing += w + " ";
      for (const auto& w : got)
        if (!want.count(w)) extra += w + " ";
      CAPTURE(missing);
      CAPTURE(extra);
      CHECK(got == want);
    }
    nonempty += !want.empty();
    total_found += want.size();
  }
  // The test means something: most queries have neighbours.
  CHECK(nonempty > 350 / kSweepStride);
  CHECK(total_found > 700 / kSweepStride);
}

std::vector<std::string> random_dictionary(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::set<std::string> s;
  while (s.size() < n) s.insert(random_word(rng, 1, 9));
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("prefix_deletes: the prefix and its deletes, distinct") {
  const std::u32string w = U"abcdef";
  std::vector<uint64_t> out;
  prefix_deletes(w.data(), w.size(), DeleteParams{0, 7}, out);
  CHECK(out == std::vector<uint64_t>{code_point_hash(w.data(), w.size())});
  prefix_deletes(w.data(), w.size(), DeleteParams{1, 3}, out);
  std::sort(out.begin(), out.end());
  // abc, bc, ac, ab
  std::vector<uint64_t> want;
  for (std::u32string_view s : {U"abc", U"bc", U"ac", U"ab"}) want.push_back(code_point_hash(s.data(), s.size()));
  std::sort(want.begin(), want.end());
  CHECK(out == want);
  const std::u32string aa = U"aab";
  prefix_deletes(aa.data(), aa.size(), DeleteParams{2, 7}, out);
  // aab, ab, aa, a, b (distinct)
  CHECK(out.size() == 5);
  CHECK(std::set<uint64_t>(out.begin(), out.end()).size() == 5);
  CHECK(prefix_hash(w.data(), w.size(), 3) == code_point_hash(w.data(), 3));
  CHECK(prefix_hash(w.data(), 2, 3) == code_point_hash(w.data(), 2));
}

TEST_CASE("prefix_deletes: every string 0..d deletions away, against subsets of positions") {
  // Short alphabets, so that runs of equal letters are common.
  std::mt19937 rng(44);
  int differ = 0;
  for (int t = 0; t < 3000; ++t) {
    // Latin-1 letters (prefixes of up to 8 are packed in a word), and
    // some past it (hashed as code points), and longer prefixes.
    std::u32string w(rng() % 12, U'a');
    const char32_t* alphabet = t % 4 == 0 ? U"ab\u0101" : U"abé";
    for (auto& c : w) c = alphabet[rng() % 3];
    const DeleteParams p{static_cast<int>(rng() % 3), 3 + rng() % 8};
    const size_t n = std::min(w.size(), p.prefix_length);
    std::set<uint64_t> want;
    for (uint32_t mask = 0; mask < (1U << n); ++mask) {  // mask: the positions deleted
      if (std::popcount(mask) > p.max_distance) continue;
      std::u32string kept;
      for (size_t x = 0; x < n; ++x)
        if (!(mask >> x & 1)) kept.push_back(w[x]);
      want.insert(code_point_hash(kept.data(), kept.size()));
    }
    std::vector<uint64_t> got;
    prefix_deletes(w.data(), w.size(), p, got);
    std::sort(got.begin(), got.end());  // (each once: no repeats to hide)
    differ += got != std::vector<uint64_t>(want.begin(), want.end());
  }
  CHECK(differ == 0);
}

TEST_CASE("the delete index finds exactly the entries within distance d") {
  const std::vector<std::string> dict = random_dictionary(11, 3000);
  uint32_t seed = 100;
  for (int d : {1, 2})
    for (size_t prefix_length : {size_t{3}, size_t{5}, size_t{7}, size_t{64}})
      check_exact(dict, d, prefix_length, ++seed);
}

TEST_CASE("the delete index: entries that fold alike, short words, the empty query") {
  // Case variants of one word share a bucket; one-letter entries; words
  // longer than the prefix that differ only after it.
  const std::vector<std::string> dict = {
      "a", "A",  "b",   "ab",  "Ab",  "AB", "abcdefgh", "abcdefgx", "abcdefghij", "ÉCOLE",     "école",   "ecole",
      "'", "''", "a'b", "αβγ", "ΑΒΓ", "ßß", "bacdefgh", "abdcefgh", "abcdefhg",   "xabcdefgh", "bcdefgh", "aabbccdd"};
  uint32_t seed = 500;
  for (int d : {1, 2})
    for (size_t prefix_length : {size_t{1}, size_t{3}, size_t{7}, size_t{64}}) {
      CAPTURE(d);
      CAPTURE(prefix_length);
      const DeleteParams p{d, prefix_length};
      WordList entries;
      for (const auto& w : dict) entries.push_back(w);
      PrefixBuckets buckets;
      buckets.build(std::move(entries), {}, p);
      std::vector<std::pair<uint64_t, uint64_t>> pairs;
      buckets.for_each_delete(p, [&](size_t g, uint64_t del) { pairs.emplace_back(del, g); });
      DeleteTable table;
      table.build(std::move(pairs));
      std::mt19937 rng(++seed);
      std::vector<std::string> queries = {"", "x", "ba", "abcdefg", "bacdefgx", "ECOLE", "Écolé", "αγβ", "'a"};
      for (int t = 0; t < 300; ++t) queries.push_back(mutate(rng, dict[rng() % dict.size()], 1 + t % 3));
      std::vector<uint64_t> dels;
      for (const auto& q : queries) {
        CAPTURE(q);
        const std::u32string fq = folded(q);
        std::set<std::string> got, want;
        prefix_deletes(fq.data(), fq.size(), p, dels);
        std::set<uint64_t> bucket_numbers;
        for (const uint64_t h : dels) {
          const auto [first, last] = table.find(h);
          bucket_numbers.insert(first, last);
        }
        for (const uint64_t g : bucket_numbers) {
          const auto [first, last] = buckets.bucket_range(buckets.group_key(g));
          for (uint32_t e = first; e != last; ++e)
            if (osa_distance(fq.data(), fq.size(), buckets.folded(e), buckets.folded_size(e), d) <= d)
              got.insert(std::string(buckets.spelling(e)));
        }
        for (const auto& w : dict) {
          const std::u32string fw = folded(w);
          if (osa_distance(fq.data(), fq.size(), fw.data(), fw.size(), d) <= d) want.insert(w);
        }
        CHECK(got == want);
      }
    }
}

TEST_CASE("DeleteTable: every delete's postings, distinct, whether one or many") {
  // One posting sits in the delete's slot and more in a list: keys drawn
  // from a small pool give both, with repeats; hashes 0 and 1 are kept as
  // one key (the slots store 0 as 1), so they share their postings.
  std::mt19937_64 rng(77);
  for (const size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{3000}, size_t{60000}}) {
    CAPTURE(n);
    std::vector<uint64_t> pool = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
    while (pool.size() < 40 + n / 2) pool.push_back(rng());
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    std::map<uint64_t, std::set<uint64_t>> want;  // by stored key
    for (size_t i = 0; i < n; ++i) {
      const uint64_t key = pool[rng() % pool.size()];
      const uint64_t posting = i % 7 == 0 ? (uint64_t{1} << 63) - 1 - rng() % 4 : rng() % 1000;  // (< 2^63)
      pairs.emplace_back(key, posting);
      if (i % 5 == 0) pairs.emplace_back(key, posting);  // a repeat
      want[key == 0 ? 1 : key].insert(posting);
    }
    DeleteTable table;
    table.build(pairs);
    size_t postings = 0, single = 0;
    for (const auto& [key, set] : want) {
      postings += set.size();
      single += set.size() == 1;
    }
    CHECK(table.deletes() == want.size());
    CHECK(table.postings() == postings);
    if (n >= 3000) CHECK((single > 0 && single < want.size()));  // both kinds were built
    auto check_all = [&](const DeleteTable& t) {
      for (const uint64_t key : pool) {
        CAPTURE(key);
        const auto [first, last] = t.find(key);
        const std::vector<uint64_t> got(first, last);
        const auto it = want.find(key == 0 ? 1 : key);
        const std::set<uint64_t> expected = it == want.end() ? std::set<uint64_t>{} : it->second;
        CHECK(std::set<uint64_t>(got.begin(), got.end()) == expected);
        CHECK(got.size() == expected.size());  // distinct
      }
      size_t keys = 0;
      t.for_each_key([&](uint64_t k) {
        ++keys;
        CHECK(want.count(k) == 1);
      });
      CHECK(keys == want.size());
    };
    check_all(table);
  }
  DeleteTable table;
  CHECK_THROWS_AS(table.build({{5, uint64_t{1} << 63}}), std::invalid_argument);
}

TEST_CASE("PrefixBuckets keeps spellings, folded code points and frequencies") {
  WordList entries;
  entries.push_back("École");
  entries.push_back("the");
  PrefixBuckets b;
  b.build(std::move(entries), {7, 9}, DeleteParams{2, 7});
  REQUIRE(b.size() == 2);
  const std::u32string want = U"école";
  bool seen = false;
  for (uint32_t e = 0; e < 2; ++e)
    if (b.spelling(e) == "École") {
      seen = true;
      CHECK(std::u32string(b.folded(e), b.folded_size(e)) == want);
      CHECK(b.frequency(e) == 7);
    } else {
      CHECK(b.spelling(e) == "the");
      CHECK(b.frequency(e) == 9);
    }
  CHECK(seen);
  const auto [first, last] = b.bucket_range(prefix_hash(want.data(), want.size(), 7));
  REQUIRE(last - first == 1);
  CHECK(b.spelling(first) == "École");
  CHECK(b.has_capital(first));
  CHECK(!b.has_capital(1 - first));
  const auto [f2, l2] = b.bucket_range(12345);
  CHECK(f2 == l2);
}

TEST_CASE("packed phonetic keys: the same verdicts as the keys themselves") {
  // The sound table's owner and the entries' owners compare packed keys;
  // they must agree with the plain OSA distance of the keys.
  std::mt19937 rng(31);
  const std::string letters = "KSTPF0X";
  auto random_key = [&](size_t max_len) {
    std::string k(rng() % (max_len + 1), 'K');
    for (char& c : k) c = letters[rng() % letters.size()];
    return k;
  };
  auto plain = [](const std::string& a, const std::string& b) {
    const std::u32string x(a.begin(), a.end()), y(b.begin(), b.end());
    return osa_distance(x.data(), x.size(), y.data(), y.size(), 3);
  };
  size_t wrong = 0, alike = 0;
  for (int t = 0; t < 20000; ++t) {
    const std::string a = random_key(t % 4 == 0 ? 8 : 6);
    std::string b = t % 2 ? random_key(6) : a;
    if (t % 2 == 0 && !b.empty()) b[rng() % b.size()] = letters[rng() % letters.size()];
    if (t % 3 == 0 && b.size() >= 2) std::swap(b[0], b[1]);
    const char32_t fa = U'a' + rng() % 2, fb = U'a' + rng() % 2;
    const uint64_t pa = pack_sound_key(a, fa), pb = pack_sound_key(b, fb);
    const int d = plain(a, b);
    for (int max = 0; max <= 2; ++max) {
      const bool want = d == 0 || (d <= max && fa == fb);
      alike += want && d > 0;
      wrong += sounds_alike(a, fa, b, fb, max) != want;
      wrong += key_distance(a.data(), a.size(), b.data(), b.size(), max) != std::min(d, max + 1);
      // Long keys pass the packed filter (the exact test comes later).
      wrong += packed_sounds_alike(pa, pb, max) != (want || a.size() > 6 || b.size() > 6);
    }
    const int packed = packed_key_distance(pa, pb);
    wrong += packed != (a.size() > 6 || b.size() > 6 ? -1 : std::min(d, 2));
  }
  CHECK(alike > 1000);
  CHECK(wrong == 0);
}

TEST_CASE("sound_alike_runs: every posting that sounds alike and is not an equal key lies in the runs") {
  // Keys over a few letters, words beginning with a few letters (0 and
  // 0xFF among them: the ends of the order), some long keys; lists short
  // (scanned whole) and long (searched).
  std::mt19937 rng(57);
  const std::string letters = "KST";
  const char32_t firsts[] = {0, U'a', U'b', U'c', 0xFF, 0x1FF};
  auto random_key = [&]() {
    std::string k(rng() % 8, 'K');
    for (char& c : k) c = letters[rng() % letters.size()];
    return k;
  };
  size_t wrong = 0, kept = 0, left_out = 0;
  std::vector<std::pair<const SoundPosting*, const SoundPosting*>> runs;
  for (int t = 0; t < 2000; ++t) {
    std::vector<SoundPosting> list(t % 2 ? rng() % 16 : 17 + rng() % 200);
    for (size_t i = 0; i < list.size(); ++i) list[i] = SoundPosting{pack_sound_key(random_key(), firsts[rng() % 6]), i};
    std::sort(list.begin(), list.end());
    const uint64_t typo = pack_sound_key(random_key(), firsts[rng() % 6]);
    runs.clear();
    sound_alike_runs(list.data(), list.data() + list.size(), typo, runs);
    std::vector<int> in_runs(list.size(), 0);
    for (const auto& [first, last] : runs) {
      wrong += first < list.data() || last > list.data() + list.size() || first >= last;
      for (const SoundPosting* x = first; x < last; ++x) ++in_runs[static_cast<size_t>(x - list.data())];
    }
    for (size_t i = 0; i < list.size(); ++i) {
      wrong += in_runs[i] > 1;  // runs do not overlap
      const bool equal = (typo & 0xFF) != kLongSoundKey && ((typo ^ list[i].key) << 8) == 0;
      if (packed_sounds_alike(typo, list[i].key, 1) && !equal) wrong += in_runs[i] == 0;
      kept += in_runs[i];
      left_out += in_runs[i] == 0;
    }
  }
  CHECK(wrong == 0);
  CHECK(left_out > 10000);  // the long lists are narrowed: the test is not vacuous
  CHECK(kept > 10000);
}

TEST_CASE("sort_by_spread_hash: the order std::sort gives, for few and many pairs, repeats and crowded top bits") {
  std::mt19937_64 rng(20261205);
  for (const size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{65535}, size_t{65536}, size_t{300000}}) {
    for (const int crowd : {0, 1, 2}) {
      CAPTURE(n);
      CAPTURE(crowd);
      std::vector<std::pair<uint64_t, uint64_t>> pairs(n);
      for (auto& [h, v] : pairs) {
        h = rng();
        if (crowd == 1) h >>= 20;                         // every hash in the lowest runs
        if (crowd == 2) h = (h & 0xFF) << 56;             // 256 distinct hashes: long runs of equal hashes
        v = rng() % 4;                                    // values repeat within a hash
        if (rng() % 8 == 0 && n > 0) h = pairs[0].first;  // a hash many times
      }
      auto want = pairs;
      std::sort(want.begin(), want.end());
      sort_by_spread_hash(pairs);
      CHECK(pairs == want);
    }
  }
}
