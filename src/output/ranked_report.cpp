#include "spellcheck/output/ranked_report.hpp"

#include <algorithm>
#include <cstdio>

#include "spellcheck/output/json.hpp"
#include "spellcheck/suggest/code_points.hpp"

namespace spellcheck {

std::string make_ranked_run(const WordList& words, const std::vector<RankedWord>& ranked, OutputFormat format,
                            const std::vector<uint64_t>& occurrences, const ExtraFn& extra) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < words.size(); ++i)
    if (!ranked[i].accepted) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (ranked[a].best.size() != ranked[b].best.size()) return ranked[a].best.size() < ranked[b].best.size();
    return words[a] < words[b];
  });
  std::string run, line, x;
  for (const uint32_t i : order) {
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
