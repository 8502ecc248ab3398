#include "spellcheck/output/ranked_report.hpp"

#include <algorithm>
#include <cstdio>

#include "spellcheck/output/json.hpp"
#include "spellcheck/suggest/code_points.hpp"

namespace spellcheck {

std::string make_ranked_run(const WordList& words, const RankedResults& ranked, OutputFormat format,
                            const std::vector<uint64_t>& occurrences, const ExtraFn& extra) {
  // Every line (and its extra) is made in one pass in word order, into one
  // buffer; the lines then go into the run in SPEC order, by a key deciding
  // most comparisons (report.hpp).
  struct Line {
    uint64_t key = 0;
    uint32_t word = 0, candidates = 0;
    size_t at = 0;  // into text: the line, then its extra
    uint32_t line_size = 0, extra_size = 0;
  };
  std::vector<Line> lines;
  lines.reserve(words.size());
  std::string text;
  for (uint32_t i = 0; i < words.size(); ++i) {
    if (ranked.accepted(i)) continue;
    const size_t n = ranked.candidates(i);
    Line l;
    l.word = i;
    l.candidates = static_cast<uint32_t>(n);
    l.key = spec_order_key(l.candidates, words[i]);
    l.at = text.size();
    if (format == OutputFormat::text) {
      text.append(words[i]);
      text.append(": ");
      for (size_t k = 0; k < n; ++k) {
        text.push_back(' ');
        text.append(ranked.word(i, k));
      }
    } else {
      text += "{\"word\":";
      append_json_string(text, words[i]);
      if (!occurrences.empty()) text += ",\"occurrences\":" + std::to_string(occurrences[i]);
      text += ",\"suggestions\":[";
      for (size_t k = 0; k < n; ++k) {
        char score[32];
        std::snprintf(score, sizeof score, "%.3f", static_cast<double>(ranked.score(i, k)) / 1000.0);
        text += k ? ",{\"word\":" : "{\"word\":";
        append_json_string(text, ranked.word(i, k));
        text += ",\"distance\":" + std::to_string(ranked.distance(i, k)) + ",\"score\":" + score + "}";
      }
      text += "]}";
    }
    text.push_back('\n');
    l.line_size = static_cast<uint32_t>(text.size() - l.at);
    if (extra) extra(i, text);
    l.extra_size = static_cast<uint32_t>(text.size() - l.at - l.line_size);
    lines.push_back(l);
  }
  std::sort(lines.begin(), lines.end(), [&](const Line& a, const Line& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.candidates != b.candidates) return a.candidates < b.candidates;
    return words[a.word] < words[b.word];
  });
  size_t bytes = 0;
  for (const Line& l : lines) bytes += 16 + words[l.word].size() + l.line_size + l.extra_size;
  std::string run;
  run.reserve(bytes);
  const std::string_view all(text);
  for (const Line& l : lines)
    append_run_line(run, l.candidates, words[l.word], all.substr(l.at, l.line_size),
                    all.substr(l.at + l.line_size, l.extra_size));
  return run;
}

}  // namespace spellcheck
