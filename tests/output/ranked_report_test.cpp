// Lines of ranked suggestions: SPEC line order, accepted words dropped, the
// text and jsonl formats, read back as a run.
#include "spellcheck/output/ranked_report.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace spellcheck;

namespace {

RankedWord ranked(std::vector<std::string> best, bool accepted = false) {
  RankedWord r;
  r.accepted = accepted;
  int64_t score = -1000;
  uint8_t d = 1;
  for (auto& w : best) {
    r.best.push_back(RankedCandidate{w, score, d});
    score -= 2500;
    d = 2;
  }
  return r;
}

// Lines are views into the run: the run must outlive them, so no temporaries.
std::vector<LineView> read_run(std::string&& run) = delete;
std::vector<LineView> read_run(const std::string& run) {
  std::vector<LineView> out;
  RunReader r(run);
  while (!r.done()) out.push_back(r.next());
  return out;
}

}  // namespace

TEST_CASE("make_ranked_run: SPEC line order, accepted words dropped, text format") {
  WordList words;
  std::vector<RankedWord> r;
  words.push_back("teh");  // 0: two
  r.push_back(ranked({"the", "tea"}));
  words.push_back("qzxw");  // 1: none
  r.push_back(ranked({}));
  words.push_back("ABOVE");  // 2: accepted
  r.push_back(ranked({}, true));
  words.push_back("abt");  // 3: two
  r.push_back(ranked({"about", "abet"}));
  words.push_back("Zebr");  // 4: one
  r.push_back(ranked({"Zebra"}));
  words.push_back("aaa");  // 5: none
  r.push_back(ranked({}));
  words.push_back("\xC3\xA9t");  // 6: one (é sorts after ASCII byte-wise)
  r.push_back(ranked({"\xC3\xA9t\xC3\xA9"}));
  words.push_back("zz");  // 7: one
  r.push_back(ranked({"z"}));
  const std::string run = make_ranked_run(words, RankedResults(r), OutputFormat::text, {},
                                          [](size_t i, std::string& x) { x += "#" + std::to_string(i); });
  const auto lines = read_run(run);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0].line == "aaa: \n");
  CHECK(lines[1].line == "qzxw: \n");
  CHECK(lines[2].line == "Zebr:  Zebra\n");
  CHECK(lines[3].line == "zz:  z\n");
  CHECK(lines[4].line == "\xC3\xA9t:  \xC3\xA9t\xC3\xA9\n");
  CHECK(lines[5].line == "abt:  about abet\n");  // candidates by rank, not byte-wise
  CHECK(lines[6].line == "teh:  the tea\n");
  CHECK(lines[0].candidates == 0);
  CHECK(lines[2].candidates == 1);
  CHECK(lines[6].candidates == 2);
  CHECK(lines[2].word == "Zebr");
  CHECK(lines[0].extra == "#5");
  CHECK(lines[6].extra == "#0");
  for (size_t i = 1; i < lines.size(); ++i) CHECK(spec_less(lines[i - 1], lines[i]));
}

TEST_CASE("make_ranked_run: no words, or all accepted: an empty run") {
  WordList words;
  CHECK(make_ranked_run(words, RankedResults(), OutputFormat::text, {}).empty());
  words.push_back("PARIS");
  CHECK(make_ranked_run(words, RankedResults({ranked({"x"}, true)}), OutputFormat::jsonl, {}).empty());
}

TEST_CASE("make_ranked_run: jsonl") {
  WordList words;
  std::vector<RankedWord> r;
  words.push_back("teh");
  r.push_back(ranked({"the", "tea"}));
  words.push_back("say\"hi\\");
  r.push_back(ranked({}));
  SUBCASE("word-list mode: no occurrences") {
    const std::string run = make_ranked_run(words, RankedResults(r), OutputFormat::jsonl, {});
    const auto lines = read_run(run);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].line == "{\"word\":\"say\\\"hi\\\\\",\"suggestions\":[]}\n");
    CHECK(lines[1].line ==
          "{\"word\":\"teh\",\"suggestions\":[{\"word\":\"the\",\"distance\":1,\"score\":-1.000},"
          "{\"word\":\"tea\",\"distance\":2,\"score\":-3.500}]}\n");
    CHECK(lines[1].word == "teh");
    CHECK(lines[1].candidates == 2);
  }
  SUBCASE("document mode: occurrences") {
    const std::string run = make_ranked_run(words, RankedResults(r), OutputFormat::jsonl, {3, 12});
    const auto lines = read_run(run);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].line == "{\"word\":\"say\\\"hi\\\\\",\"occurrences\":12,\"suggestions\":[]}\n");
    CHECK(lines[1].line.substr(0, 35) == "{\"word\":\"teh\",\"occurrences\":3,\"sugg");
  }
  SUBCASE("scores: sign and rounding of thousandths") {
    WordList w1;
    w1.push_back("x");
    RankedWord one;
    one.best.push_back(RankedCandidate{"a", 12345, 1});
    one.best.push_back(RankedCandidate{"b", -5, 2});
    one.best.push_back(RankedCandidate{"c", 0, 2});
    const std::string run = make_ranked_run(w1, RankedResults({one}), OutputFormat::jsonl, {});
    const auto lines = read_run(run);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].line ==
          "{\"word\":\"x\",\"suggestions\":[{\"word\":\"a\",\"distance\":1,\"score\":12.345},"
          "{\"word\":\"b\",\"distance\":2,\"score\":-0.005},{\"word\":\"c\",\"distance\":2,\"score\":0.000}]}\n");
  }
}
