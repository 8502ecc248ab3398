// The ranked lookup's messages (suggest/detail/ranked_messages.hpp): what
// each encoder writes, its decoder reads back, field by field, several
// messages back to back in one buffer as an exchange delivers them.
#include "spellcheck/suggest/detail/ranked_messages.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace spellcheck;
using namespace spellcheck::ranked_messages;

namespace {

std::vector<uint64_t> random_list(std::mt19937_64& rng, size_t max_size, uint64_t below) {
  std::vector<uint64_t> v(rng() % (max_size + 1));
  for (auto& x : v) x = rng() % below;
  return v;
}

WordList some_words() {
  WordList words;
  for (const char* w : {"teh", "thier", "", "naïve", "recieve", "a"}) words.push_back(w);
  return words;
}

// The words of a run as (number, word) pairs.
std::vector<std::pair<uint32_t, std::string>> read_run(const char* at) {
  WordRun run(at);
  std::vector<std::pair<uint32_t, std::string>> out;
  for (uint32_t k = 0; k < run.size(); ++k) {
    uint32_t number = 0;
    const std::string_view w = run.next(number);
    out.emplace_back(number, std::string(w));
  }
  return out;
}

}  // namespace

TEST_CASE("a word run keeps each word and its number in the round, and ends where skip says") {
  const WordList words = some_words();
  std::string s;
  encode_word_run(s, words, 1, 1, 4);  // round from word 1: numbers 1..3 are words 2..4
  const auto run = read_run(s.data());
  REQUIRE(run.size() == 3);
  CHECK(run[0] == std::pair<uint32_t, std::string>{1, ""});
  CHECK(run[1] == std::pair<uint32_t, std::string>{2, "naïve"});
  CHECK(run[2] == std::pair<uint32_t, std::string>{3, "recieve"});
  CHECK(WordRun::skip(s.data()) == s.data() + s.size());
  CHECK(WordRun::first_number(s.data()) == 1);
}

TEST_CASE("delete requests round-trip, back to back, with and without sound deletes") {
  std::mt19937_64 rng(7);
  const WordList words = some_words();
  struct Sent {
    size_t first, last;
    std::vector<uint64_t> all, frequent, sound;
    uint64_t key;
  };
  std::vector<Sent> sent;
  std::string s;
  for (int k = 0; k < 200; ++k) {
    const size_t first = rng() % words.size(), last = first + 1 + rng() % (words.size() - first);
    Sent m{first, last, random_list(rng, 40, ~0ULL), random_list(rng, 5, ~0ULL), random_list(rng, 3, ~0ULL), rng()};
    encode_delete_request(s, words, 0, first, last, DeleteLists{m.all, m.frequent, m.sound}, m.key);
    sent.push_back(std::move(m));
  }
  const char* c = s.data();
  for (const Sent& m : sent) {
    const DeleteRequest q = DeleteRequest::parse(c);
    const auto run = read_run(q.words);
    REQUIRE(run.size() == m.last - m.first);
    for (size_t j = 0; j < run.size(); ++j) {
      CHECK(run[j].first == m.first + j);
      CHECK(run[j].second == words[m.first + j]);
    }
    CHECK(q.words_bytes().size() == static_cast<size_t>(WordRun::skip(q.words) - q.words));
    REQUIRE(q.na == m.all.size());
    REQUIRE(q.nf == m.frequent.size());
    REQUIRE(q.ns == m.sound.size());
    uint64_t k = 0;
    for (const auto* list : {&m.all, &m.frequent, &m.sound})
      for (const uint64_t h : *list) CHECK(q.delete_at(k++) == h);
    CHECK(q.sound_key == (m.sound.empty() ? 0 : m.key));
    c = q.end;
  }
  CHECK(c == s.data() + s.size());
}

TEST_CASE("bucket forwards round-trip, carrying the request's word run as it came") {
  std::mt19937_64 rng(11);
  const WordList words = some_words();
  std::string run_bytes;
  encode_word_run(run_bytes, words, 0, 2, 5);
  std::string s;
  std::vector<std::tuple<uint32_t, std::vector<uint64_t>, std::vector<uint64_t>, std::vector<uint64_t>>> sent;
  for (int k = 0; k < 100; ++k) {
    const auto asker = static_cast<uint32_t>(rng() % 64);
    auto b = random_list(rng, 30, 1ULL << 32), f = random_list(rng, 4, 1ULL << 32), e = random_list(rng, 9, 1ULL << 32);
    encode_bucket_forward(s, asker, run_bytes, ForwardLists{b, f, e});
    sent.emplace_back(asker, b, f, e);
  }
  const char* c = s.data();
  for (const auto& [asker, b, f, e] : sent) {
    const BucketForward m = BucketForward::parse(c);
    CHECK(m.asker == asker);
    CHECK(BucketForward::request_key(c) == ((uint64_t{asker} << 32) | 2));
    CHECK(std::string_view(m.words, static_cast<size_t>(WordRun::skip(m.words) - m.words)) == run_bytes);
    REQUIRE(m.nb == b.size());
    REQUIRE(m.nf == f.size());
    REQUIRE(m.ne == e.size());
    uint64_t k = 0;
    for (const auto* list : {&b, &f, &e})
      for (const uint64_t x : *list) CHECK(m.ref_at(k++) == x);
    c = m.end;
  }
  CHECK(c == s.data() + s.size());
}

TEST_CASE("owner replies round-trip: head, candidates best first, end") {
  std::string s;
  encode_reply_head(s, 5, true, 0);
  encode_reply_head(s, 70000, false, 3);
  encode_reply_candidate(s, "their", -1234, 1);
  encode_reply_candidate(s, "", 0, 0);
  encode_reply_candidate(s, "thief", std::numeric_limits<int64_t>::min(), 2);
  const OwnerReply first = OwnerReply::parse(s.data());
  CHECK(first.number == 5);
  CHECK(first.accepted);
  CHECK(first.count == 0);
  const OwnerReply second = OwnerReply::parse(first.end);
  CHECK(second.number == 70000);
  CHECK_FALSE(second.accepted);
  CHECK(second.end == s.data() + s.size());
  CHECK(OwnerReply::head(first.end).count == 3);
  std::vector<std::tuple<std::string, int64_t, int>> got;
  second.each_candidate(
      [&](std::string_view w, int64_t score, uint8_t d) { got.emplace_back(std::string(w), score, d); });
  const std::vector<std::tuple<std::string, int64_t, int>> want{
      {"their", -1234, 1}, {"", 0, 0}, {"thief", std::numeric_limits<int64_t>::min(), 2}};
  CHECK(got == want);
}
