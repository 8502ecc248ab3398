// RankedIndex over 1-4 ranks against brute force: the dictionary and the
// frequency list are spread over the ranks (some entries on two ranks), each
// rank asks about its share of the words, and every answer must be what
// rank_suggestions says about ALL entries within the distance (found here by
// brute force over the whole dictionary, which every rank can make), with
// the same words, scores, distances and order. Only CHECKs between
// collectives, so a failure on one rank never leaves the others waiting.
#include <doctest/doctest.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "folded.hpp"
#include "sanitized.hpp"
#include "spellcheck/common/code_points.hpp"
#include "spellcheck/common/errors.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/osa_distance.hpp"
#include "spellcheck/suggest/ranked_lookup.hpp"
#include "spellcheck/suggest/ranking.hpp"

using namespace spellcheck;
using spellcheck::testing::kSweepStride;

namespace {

std::string text(const std::u32string& w) {
  std::string s;
  for (char32_t c : w) append_utf8(s, c);
  return s;
}

const std::vector<std::string> kLetters = {"a", "b", "c", "d", "e", "o", "t", "h", "r", "'", "é", "ß", "α"};

std::string random_word(std::mt19937& rng, size_t min_len, size_t max_len) {
  const size_t n = min_len + rng() % (max_len - min_len + 1);
  std::string w;
  for (size_t i = 0; i < n; ++i) w += kLetters[rng() % kLetters.size()];
  return w;
}

std::string capitalise(const std::string& w, bool all) {
  std::u32string c(w.size() + 1, 0);
  c.resize(decode_utf8(w, c.data()));
  for (size_t i = 0; i < c.size(); ++i)
    if (all || i == 0) c[i] = upper_case(c[i]);
  return text(c);
}

std::string mutate(std::mt19937& rng, const std::string& word) {
  std::u32string c(word.size() + 1, 0);
  c.resize(decode_utf8(word, c.data()));
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const std::u32string l = folded(kLetters[rng() % kLetters.size()]);
    const size_t pos = c.empty() ? 0 : rng() % c.size();
    switch (rng() % 4) {
      case 0:
        if (!c.empty()) c.erase(pos, 1);
        break;
      case 1: c.insert(c.empty() ? 0 : rng() % (c.size() + 1), l); break;
      case 2:
        if (!c.empty()) c[pos] = l[0];
        break;
      default:
        if (c.size() >= 2) std::swap(c[pos + 1 < c.size() ? pos : pos - 1], c[pos + 1 < c.size() ? pos + 1 : pos]);
    }
  }
  return text(c);
}

struct World {
  std::vector<std::string> dict;                       // distinct entries
  std::vector<std::pair<std::string, uint64_t>> freq;  // the frequency list
  std::vector<std::string> words;                      // words to look up
  // The collection's correct words and their counts (document mode): case
  // variants and repeats add up, words not in the dictionary count for none.
  std::vector<std::pair<std::string, uint64_t>> collection;
};

World make_world() {
  std::mt19937 rng(31337);
  World w;
  std::set<std::string> d;
  while (d.size() < 1500) {
    std::string x = random_word(rng, 1, 8);
    const unsigned r = rng() % 20;
    if (r == 0) x = capitalise(x, false);  // proper nouns
    if (r == 1) x = capitalise(x, true);   // acronyms
    d.insert(x);
  }
  // Words that differ only in case, and a few long ones.
  d.insert("the");
  d.insert("The");
  d.insert("paris");
  d.insert("Paris");
  d.insert("école");
  d.insert("abcdefghijklmnopqrst");
  w.dict.assign(d.begin(), d.end());
  for (size_t i = 0; i < w.dict.size(); i += 3) w.freq.emplace_back(w.dict[i], (i * 7919) % 100000);
  // Case variants in the frequency list add up; words not in the dictionary
  // are ignored; a huge count is capped.
  w.freq.emplace_back("THE", 500);
  w.freq.emplace_back("the", 700);
  w.freq.emplace_back("zzzz", 5);
  w.freq.emplace_back("École", kMaxFrequency);
  w.freq.emplace_back("école", kMaxFrequency);
  std::set<std::string> words;
  for (int i = 0; i < 250; ++i) {
    std::string q = mutate(rng, w.dict[rng() % w.dict.size()]);
    const unsigned r = rng() % 6;
    if (r == 0) q = capitalise(q, false);
    if (r == 1) q = capitalise(q, true);
    words.insert(q);
  }
  for (const char* q : {"teh", "Teh", "TEH", "THE", "The", "PARIS", "Paris", "pAris", "ÉCOLE", "Ecole", "ecole",
                        "abcdefghijklmnopqrsx", "qqqqqqqqqqqqqqqq", "'", "a"})
    words.insert(q);
  w.words.assign(words.begin(), words.end());
  for (size_t i = 0; i < w.dict.size(); i += 4) w.collection.emplace_back(w.dict[i], (i * 31) % 50);
  for (size_t i = 0; i < w.dict.size(); i += 8) w.collection.emplace_back(capitalise(w.dict[i], true), 5);
  w.collection.emplace_back("zzzz", 7);
  return w;
}

// Every entry within max_d (an entry without a frequency: within the rare
// distance in force, when there is a frequency list at all), or, with a
// frequency, sounding alike within reach (phonetic keys equal, or at most
// sound_distance apart and the same first letter), ranked.
RankedWord brute_force(const World& w, const std::map<std::string, uint64_t>& count_of,
                       const std::map<std::string, uint64_t>& collection_of, const std::string& q,
                       const RankedParams& params, bool any_frequency, const ChannelWeights& weights) {
  const std::u32string fq = folded(q);
  const std::string key_q = phonetic_key(fq.data(), fq.size());
  const std::u32string kq(key_q.begin(), key_q.end());
  // A typo shorter than two_edits_from: one edit.
  const int max_d =
      fq.size() < params.two_edits_from ? std::min(1, params.deletes.max_distance) : params.deletes.max_distance;
  const int rare = any_frequency ? std::min(params.rare_distance, max_d) : max_d;
  const int reach = params.sound_distance >= 0 ? std::max(max_d, sound_alike_reach(fq.size())) : max_d;
  std::vector<FoundEntry> found;
  for (const auto& e : w.dict) {
    const std::u32string fe = folded(e);
    const int d = osa_distance(fq.data(), fq.size(), fe.data(), fe.size(), reach);
    const auto it = any_frequency ? count_of.find(text(fe)) : count_of.end();
    const uint64_t count = it == count_of.end() ? 0 : it->second;
    bool keep = d <= max_d && (d <= rare || (count > 0 && count >= params.far_min_count));
    if (d > max_d && d <= reach && params.sound_distance >= 0 && count > 0) {
      const std::string key_e = phonetic_key(fe.data(), fe.size());
      const std::u32string ke(key_e.begin(), key_e.end());
      const int kd = osa_distance(kq.data(), kq.size(), ke.data(), ke.size(), params.sound_distance);
      const bool same_first = !fq.empty() && !fe.empty() && fq[0] == fe[0];
      keep = kd == 0 || (kd <= params.sound_distance && same_first && count >= params.sound_min_count);
    }
    if (!keep) continue;
    const auto used = collection_of.find(text(fe));
    found.push_back(FoundEntry{e, count, used == collection_of.end() ? 0 : used->second, static_cast<uint8_t>(d), {}});
  }
  if (params.sound_gate == kNoSoundGate) return rank_suggestions(q, found, params.top, weights);
  // With a sound gate, sound-alikes count only for a word whose best entry
  // within max_d scores below the gate.
  std::vector<FoundEntry> near;
  for (const auto& f : found)
    if (f.distance <= max_d) near.push_back(f);
  RankedWord by_distance = rank_suggestions(q, near, params.top, weights);
  if (by_distance.accepted || (!by_distance.best.empty() && by_distance.best.front().score >= params.sound_gate))
    return by_distance;
  return rank_suggestions(q, found, params.top, weights);
}

std::string show(const RankedWord& r) {
  std::string s = r.accepted ? "accepted;" : "";
  for (const auto& c : r.best) s += c.word + "/" + std::to_string(c.score) + "/" + std::to_string(c.distance) + " ";
  return s;
}

// Collective: this rank's share of the world's words looked up, shown a
// line each.
std::string answers_of(const mpi::Comm& comm, const RankedIndex& index, const World& w, const ChannelWeights& weights) {
  const int p = comm.size(), me = comm.rank();
  WordList mine;
  for (size_t i = 0; i < w.words.size(); ++i)
    if (static_cast<int>(i % static_cast<size_t>(p)) == me) mine.push_back(w.words[i]);
  RankedCounts counts;
  std::string all;
  const RankedResults got = index.suggest(comm, mine, weights, counts);
  for (size_t i = 0; i < got.size(); ++i) all += show(got[i]) + "\n";
  return all;
}

}  // namespace

TEST_CASE("RankedIndex::suggest equals brute force over the whole dictionary, on any number of ranks") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  const World w = make_world();
  std::map<std::string, uint64_t> count_of;  // folded word -> summed count
  for (const auto& [word, c] : w.freq) {
    uint64_t& x = count_of[text(folded(word))];
    x = std::min(kMaxFrequency, x + c);
  }
  const ChannelWeights weights{};

  struct Setting {
    int max_distance;
    size_t prefix_length;
    int sound_distance;
    size_t top;
    size_t per_round;
    int rare_distance;
    bool with_frequencies;
    uint64_t far_min_count = 1;  // frequency tiers: counts are (i * 7919) % 100000
    uint64_t sound_min_count = 1;
    int64_t sound_gate = kNoSoundGate;
    bool with_collection = false;
    size_t two_edits_from = 0;
  };
  const Setting settings[] = {
      {2, 7, -1, 1000, 16384, 2, true},
      {2, 7, -1, 1000, 16384, 1, true},
      {1, 5, -1, 1000, 5, 0, true},
      {2, 3, -1, 3, 4, 1, false},
      {2, 7, 1, 1000, 64, 1, true},
      {1, 64, 0, 10, 7, 1, true},
      {2, 5, 2, 10, 100, 0, true},
      {2, 7, 1, 1000, 64, 1, true, 50000, 1},
      {2, 7, 1, 10, 64, 1, true, 1, 60000},
      {2, 6, 2, 1000, 33, 0, true, 30000, 70000},
      // Sound gates: below the scores of this world's words, amid them, and
      // one no candidate reaches (the second pass then takes every word).
      {2, 7, 1, 10, 64, 1, true, 1, 1, -20000},
      {2, 7, 1, 10, 16, 1, true, 1, 1, 0},
      {2, 7, 1, 10, 5, 1, true, 1, 60000, 100000000},
      // The collection's counts in the prior.
      {2, 7, 1, 10, 64, 1, true, 1, 1, kNoSoundGate, true},
      {1, 5, -1, 5, 9, 0, false, 1, 1, kNoSoundGate, true},
      {2, 7, 1, 3, 64, 1, true, 1, 60000, 0, true},
      // Short typos within one edit (this world's words have 1-9 letters).
      {2, 7, 1, 10, 64, 1, true, 1, 1, kNoSoundGate, false, 6},
      {2, 5, 2, 1000, 33, 0, true, 30000, 70000, 0, true, 5},
      {2, 3, -1, 3, 4, 2, false, 1, 1, kNoSoundGate, false, 7},
      {1, 7, 1, 10, 64, 1, true, 1, 1, kNoSoundGate, false, 100},
  };
  for (const Setting& s : settings) {
    CAPTURE(s.max_distance);
    CAPTURE(s.prefix_length);
    CAPTURE(s.sound_distance);
    CAPTURE(s.top);
    CAPTURE(s.per_round);
    CAPTURE(s.rare_distance);
    CAPTURE(s.with_frequencies);
    CAPTURE(s.far_min_count);
    CAPTURE(s.sound_min_count);
    CAPTURE(s.sound_gate);
    CAPTURE(s.with_collection);
    CAPTURE(s.two_edits_from);
    RankedParams params;
    params.deletes.max_distance = s.max_distance;
    params.deletes.prefix_length = s.prefix_length;
    params.sound_distance = s.sound_distance;
    params.top = s.top;
    params.words_per_round = s.per_round;
    params.rare_distance = s.rare_distance;
    params.far_min_count = s.far_min_count;
    params.sound_min_count = s.sound_min_count;
    params.sound_gate = s.sound_gate;
    params.two_edits_from = s.two_edits_from;

    // This rank's share: every p-th entry, and every 10th entry again on
    // the next rank (a dictionary may repeat lines across shares).
    WordList entries;
    for (size_t i = 0; i < w.dict.size(); ++i) {
      if (static_cast<int>(i % static_cast<size_t>(p)) == me) entries.push_back(w.dict[i]);
      if (i % 10 == 0 && static_cast<int>((i + 1) % static_cast<size_t>(p)) == me) entries.push_back(w.dict[i]);
    }
    FrequencyList freq;
    for (size_t i = 0; i < w.freq.size(); ++i)
      if (s.with_frequencies && static_cast<int>((i * 7) % static_cast<size_t>(p)) == me) {
        freq.words.push_back(w.freq[i].first);
        freq.counts.push_back(w.freq[i].second);
      }
    // The collection's words come from any rank (here every 3rd one from
    // the next rank), counted per folded entry like frequencies.
    FrequencyList collection;
    std::map<std::string, uint64_t> collection_of;
    if (s.with_collection)
      for (size_t i = 0; i < w.collection.size(); ++i) {
        if (static_cast<int>((i / 3 + 1) % static_cast<size_t>(p)) == me) {
          collection.words.push_back(w.collection[i].first);
          collection.counts.push_back(w.collection[i].second);
        }
        uint64_t& x = collection_of[text(folded(w.collection[i].first))];
        x = std::min(kMaxFrequency, x + w.collection[i].second);
      }
    RankedIndex index;
    index.build(comm, std::move(entries), std::move(freq), params, std::move(collection));
    // A spelling given twice, on one rank or on two, is one entry. (The
    // program's shards keep each spelling on one rank; this test repeats
    // some across shares.)
    CHECK(mpi::allreduce_sum(comm, index.entries()) == std::set<std::string>(w.dict.begin(), w.dict.end()).size());

    // Uneven shares of the words: rank 0 asks about more, so ranks take
    // part in rounds with nothing of their own.
    WordList mine;
    for (size_t i = 0; i < w.words.size(); ++i)
      if (static_cast<int>(i % static_cast<size_t>(p + 1)) == std::max(0, me) ||
          (me == 0 && static_cast<int>(i % static_cast<size_t>(p + 1)) == p))
        mine.push_back(w.words[i]);
    RankedCounts counts;
    const RankedResults got = index.suggest(comm, mine, weights, counts);
    CHECK(got.size() == mine.size());
    // (accepted: as the index says, for every word; the brute force's
    // word for word where compared.)
    uint64_t with_candidates = 0, accepted = 0, same = 0, compared = 0;
    for (size_t i = 0; i < got.size(); ++i) accepted += got.accepted(i);
    for (size_t i = 0; i < std::min(got.size(), mine.size()); i += kSweepStride) {
      ++compared;
      const std::string q(mine[i]);
      const RankedWord want = brute_force(w, count_of, collection_of, q, params, s.with_frequencies, weights);
      with_candidates += !want.best.empty();
      same += show(got[i]) == show(want);
      if (show(got[i]) != show(want)) {
        CAPTURE(q);
        CHECK(show(got[i]) == show(want));
      }
    }
    // The comparison means something: many words have candidates, some are
    // accepted by case.
    const uint64_t all_with = mpi::allreduce_sum(comm, with_candidates);
    const uint64_t all_accepted = mpi::allreduce_sum(comm, accepted);
    const uint64_t all_words = mpi::allreduce_sum(comm, mine.size());
    CHECK(all_words == w.words.size());
    const uint64_t all_compared = mpi::allreduce_sum(comm, compared);
    CHECK(all_compared >= w.words.size() / kSweepStride);
    CHECK(mpi::allreduce_sum(comm, same) == all_compared);
    CHECK(all_with > all_compared / 4);
    CHECK(all_accepted >= 3);
    // A gate lets some words skip the sound lookups (one below every score:
    // all words with a candidate), and not every word (except one above
    // every score: all but the accepted).
    const uint64_t sound_words = mpi::allreduce_sum(comm, counts.sound_words);
    if (s.sound_distance >= 0 && s.sound_gate != kNoSoundGate) {
      CHECK(sound_words > 0);
      if (s.sound_gate <= 0) CHECK(sound_words < all_words - all_accepted);
      else CHECK(sound_words == all_words - all_accepted);
    }
    // Deletes that no rank holds are not sent (the delete filter); the
    // answers above show that none held was dropped.
    CHECK(mpi::allreduce_sum(comm, counts.deletes_filtered) > 0);
  }
}

// Words with the same prefix (and typo distance) share one record of
// deletes. Here the prefix is 3 letters and typos of 7 or more get two
// edits: "abcde" (one edit) sorts next to "abcdefgh" (two: "xycdefgh" needs
// a delete of both prefix letters), and "zzzdefgh" next to that, whose
// prefix is another one. Sharing across either line loses a candidate.
TEST_CASE("Words that share a prefix share their lookups, each at its own distance") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  World w;
  w.dict = {"abcdx", "abcdefgz", "xycdefgh", "zzzdefgz", "Abcdefgh", "abcdefghik", "zzzdxxxx", "zzzdefghxj"};
  w.words = {"ABCDE", "abcde", "abcdefgh", "abcdefghij", "Abcdefghijk", "zzzdefgh", "zzzdefghij"};
  // Without sound-alikes (one pass), and with a gate (a pass of buckets,
  // then one of sound keys, whose records are a word's own).
  for (const int sound_distance : {-1, 1}) {
    CAPTURE(sound_distance);
    RankedParams params;
    params.deletes.max_distance = 2;
    params.deletes.prefix_length = 3;
    params.sound_distance = sound_distance;
    params.sound_gate = sound_distance < 0 ? kNoSoundGate : 0;
    params.top = 10;
    params.rare_distance = 2;
    params.two_edits_from = 7;
    const ChannelWeights weights{};
    WordList entries;
    for (size_t i = 0; i < w.dict.size(); ++i)
      if (static_cast<int>(i % static_cast<size_t>(p)) == me) entries.push_back(w.dict[i]);
    RankedIndex index;
    index.build(comm, std::move(entries), {}, params);
    // Every rank asks every word, in one round, in its own order.
    WordList mine;
    for (size_t i = 0; i < w.words.size(); ++i) mine.push_back(w.words[(i + static_cast<size_t>(me)) % w.words.size()]);
    RankedCounts counts;
    const RankedResults got = index.suggest(comm, mine, weights, counts);
    REQUIRE(got.size() == mine.size());
    const std::map<std::string, uint64_t> none;
    size_t with_candidates = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const std::string q(mine[i]);
      const RankedWord want = brute_force(w, none, none, q, params, false, weights);
      with_candidates += !want.best.empty();
      CAPTURE(q);
      CHECK(show(got[i]) == show(want));
    }
    CHECK(with_candidates == w.words.size());
  }
}

// A bucket holds its entries most frequent first, and an owner stops
// reading one once no later entry can enter the top. A word in capitals is
// accepted by its entry at distance 0 however rare it is: here a full top of
// frequent words one edit away comes first in the same bucket.
TEST_CASE("A word in capitals is accepted by a rare entry behind a full top of frequent ones") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  World w;
  w.dict = {"zqxabcdefgh"};  // no count
  for (const char c : std::string("abcdefghijkl")) w.dict.push_back("zqxabcdefgh" + std::string(1, c));
  std::map<std::string, uint64_t> count_of;
  for (size_t i = 1; i < w.dict.size(); ++i) count_of[w.dict[i]] = 1000000000 + i;
  w.words = {"ZQXABCDEFGH", "Zqxabcdefgh", "zqxabcdefghh"};
  RankedParams params;
  params.deletes.max_distance = 2;
  params.deletes.prefix_length = 8;
  params.sound_distance = -1;
  params.top = 3;
  params.rare_distance = 1;
  // No bonus for a case-only difference: the rare entry's bound is then
  // below the frequent ones' scores.
  ChannelWeights weights;
  weights.case_only = 0;
  WordList entries;
  FrequencyList freq;
  for (size_t i = 0; i < w.dict.size(); ++i)
    if (static_cast<int>(i % static_cast<size_t>(p)) == me) {
      entries.push_back(w.dict[i]);
      if (count_of.count(w.dict[i]) != 0) {
        freq.words.push_back(w.dict[i]);
        freq.counts.push_back(count_of[w.dict[i]]);
      }
    }
  RankedIndex index;
  index.build(comm, std::move(entries), std::move(freq), params);
  WordList mine;
  for (const auto& q : w.words) mine.push_back(q);
  RankedCounts counts;
  const RankedResults got = index.suggest(comm, mine, weights, counts);
  REQUIRE(got.size() == mine.size());
  const std::map<std::string, uint64_t> none;
  for (size_t i = 0; i < got.size(); ++i) {
    const std::string q(mine[i]);
    CAPTURE(q);
    const RankedWord want = brute_force(w, count_of, none, q, params, true, weights);
    CHECK(want.accepted == (i < 2));
    CHECK(show(got[i]) == show(want));
  }
}

TEST_CASE("An index read from a compiled section answers exactly as the one built, on any number of ranks") {
  mpi::Comm comm;
  const int p = comm.size(), me = comm.rank();
  const World w = make_world();
  const ChannelWeights weights{};
  RankedParams params;
  params.deletes.prefix_length = 7;
  params.sound_distance = 1;
  params.rare_distance = 1;
  params.far_min_count = 50000;
  auto share = [&](const std::vector<std::pair<std::string, uint64_t>>& list, bool all) {
    FrequencyList f;
    for (size_t i = 0; i < list.size(); ++i)
      if (all || static_cast<int>(i % static_cast<size_t>(p)) == me) {
        f.words.push_back(list[i].first);
        f.counts.push_back(list[i].second);
      }
    return f;
  };
  auto answers = [&](const RankedIndex& index) { return answers_of(comm, index, w, weights); };
  WordList mine, all;
  for (size_t i = 0; i < w.dict.size(); ++i) {
    all.push_back(w.dict[i]);
    if (static_cast<int>(i % static_cast<size_t>(p)) == me) mine.push_back(w.dict[i]);
  }
  RankedIndex built;
  built.build(comm, std::move(mine), share(w.freq, false), params, share(w.collection, false));
  const std::string want = answers(built);
  CHECK(want.find('/') != std::string::npos);

  constexpr uint64_t kDigest = 0x5EED;
  // One bucket (one rank only), four (uneven ranges on 3 ranks), 64.
  for (const unsigned bits : {p == 1 ? 0U : 2U, 6U}) {
    CAPTURE(bits);
    // Every rank compiles the same bytes (the build is one rank's alone).
    std::string section = RankedIndex::compiled_section(all, share(w.freq, true), params, bits, kDigest);
    const uint64_t digest = XXH3_64bits(section.data(), section.size());
    CHECK(mpi::allreduce_min(comm, digest) == mpi::allreduce_max(comm, digest));
    const CompiledSection s{[&](uint64_t at, size_t n, char* dest) {
                              if (at > section.size() || n > section.size() - at) return false;
                              std::memcpy(dest, section.data() + at, n);
                              return true;
                            },
                            "f.scd", 0, section.size()};
    const int too_many = (1 << bits) + 1;
    CHECK_THROWS_WITH_AS(RankedIndex().read_compiled(s, 0, too_many, params, kDigest),
                         doctest::Contains("it serves at most"), InputError);
    RankedIndex read;
    CHECK(read.read_compiled(s, me, p, params, kDigest).empty());
    read.add_collection(comm, share(w.collection, false));
    CHECK(answers(read) == want);
    if (bits != 6) continue;

    // Other parameters or another frequency list: not read, and why.
    RankedParams other = params;
    other.deletes.prefix_length = 6;
    CHECK(RankedIndex().read_compiled(s, me, p, other, kDigest) == "--prefix-length 7 there, 6 here");
    other = params;
    other.far_min_count = 7;
    CHECK(RankedIndex().read_compiled(s, me, p, other, kDigest) == "--far-min-count 50000 there, 7 here");
    CHECK(RankedIndex().read_compiled(s, me, p, params, kDigest + 1) == "compiled with another frequency list");
    // A flipped byte in the header, the meta, or the delete filter (the
    // last array, which every rank reads): refused.
    for (const size_t at : {size_t{30}, size_t{700}, section.size() - 9}) {
      CAPTURE(at);
      section[at] ^= 0x04;
      CHECK_THROWS_WITH_AS(RankedIndex().read_compiled(s, me, p, params, kDigest),
                           doctest::Contains("f.scd: a damaged"), InputError);
      section[at] ^= 0x04;
    }
    // Cut short: refused.
    const CompiledSection cut{s.read, s.name, 0, section.size() - 1};
    CHECK_THROWS_AS(RankedIndex().read_compiled(cut, me, p, params, kDigest), InputError);
  }
}
