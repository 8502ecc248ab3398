#include "spellcheck/output/ranked_report.hpp"

#include <algorithm>
#include <cstdio>

#include "spellcheck/output/json.hpp"
#include "spellcheck/suggest/code_points.hpp"

namespace spellcheck {

std::string make_ranked_run(const WordList& words, const std::vector<RankedWord>& ranked, OutputFormat format,
                            const std::vector<uint64_t>& occurrences, const ExtraFn& extra) {
  // SPEC order: by a key deciding most comparisons (report.hpp), and the
  // run's size known, so it grows once.
  const bool sized = format == OutputFormat::text && !extra;  // (other lines' sizes are not known here)
  std::vector<std::pair<uint64_t, uint32_t>> order;
  size_t bytes = 0;
  for (uint32_t i = 0; i < words.size(); ++i) {
    if (ranked[i].accepted) continue;
    const auto k = static_cast<uint32_t>(ranked[i].best.size());
    order.emplace_back(spec_order_key(k, words[i]), i);
    if (!sized) continue;
    bytes += 16 + 2 * words[i].size() + 3;  // header, word, line's word and ": ", newline
    for (const auto& c : ranked[i].best) bytes += 1 + c.word.size();
  }
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (ranked[a.second].best.size() != ranked[b.second].best.size())
      return ranked[a.second].best.size() < ranked[b.second].best.size();
    return words[a.second] < words[b.second];
  });
  std::string run, line, x;
  run.reserve(bytes);
  for (const auto& [key, i] : order) {
    const RankedWord& r = ranked[i];
    line.clear();
    if (format == OutputFormat::text) {
      line.append(words[i]);
      line.append(": ");
      for (const auto& c : r.best) {
        line.push_back(' ');
        line.append(c.word);
      }
    } else {
      line += "{\"word\":";
      append_json_string(line, words[i]);
      if (!occurrences.empty()) line += ",\"occurrences\":" + std::to_string(occurrences[i]);
      line += ",\"suggestions\":[";
      for (size_t k = 0; k < r.best.size(); ++k) {
        char score[32];
        std::snprintf(score, sizeof score, "%.3f", static_cast<double>(r.best[k].score) / 1000.0);
        line += k ? ",{\"word\":" : "{\"word\":";
        append_json_string(line, r.best[k].word);
        line += ",\"distance\":" + std::to_string(r.best[k].distance) + ",\"score\":" + score + "}";
      }
      line += "]}";
    }
    line.push_back('\n');
    x.clear();
    if (extra) extra(i, x);
    append_run_line(run, static_cast<uint32_t>(r.best.size()), words[i], line, x);
  }
  return run;
}

}  // namespace spellcheck
