#include "spellcheck/output/ranked_report.hpp"

#include <algorithm>
#include <cstdio>
#include <span>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/output/detail/json.hpp"

namespace spellcheck {

std::string make_ranked_run(const WordList& words, const RankedResults& ranked, OutputFormat format,
                            const std::vector<uint64_t>& occurrences, const ExtraFn& extra, const LineOrder& order,
                            const ExtraFn& json_fields) {
  // The lines' order first, from each word's count and bytes (read in word
  // order); then each line is made straight into the run in that order.
  // Ranked results are stored in the lookup's order, near the SPEC order
  // within a count, so what that pass reads out of order (the word's
  // record, its bytes) is fetched a few lines ahead.
  struct Line {
    uint64_t key = 0;
    uint64_t at = 0;                         // the word in words.bytes
    uint32_t size = 0, word = 0, order = 0;  // order: LineOrder::key
    std::string_view spelled(const WordList& w) const { return std::string_view(w.bytes).substr(at, size); }
  };
  std::vector<Line> lines;
  lines.reserve(words.size());
  size_t bytes = 0;  // the run's size in text format, but for the candidates
  for (uint32_t i = 0; i < words.size(); ++i) {
    if (ranked.accepted(i)) continue;
    const std::string_view w = words[i];
    Line l;
    l.at = words.starts[i];
    l.size = static_cast<uint32_t>(w.size());
    l.word = i;
    l.order = order.key(i, static_cast<uint32_t>(ranked.candidates(i)));
    l.key = spec_order_key(l.order, w, order.wide());
    lines.push_back(l);
    bytes += 16 + 2 * w.size() + 3;  // header, word, "word: ", '\n'
  }
  std::sort(lines.begin(), lines.end(), [&](const Line& a, const Line& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.order != b.order) return a.order < b.order;
    return a.spelled(words) < b.spelled(words);
  });
  std::string run;
  // Text format: at most one space per stored candidate and its spelling
  // (an upper bound costs address space only).
  run.reserve(bytes + ranked.stored_candidates() + ranked.stored_bytes());
  constexpr size_t kAhead = 8;
  for (size_t r = 0; r < lines.size(); ++r) {
    if (r + 2 * kAhead < lines.size()) {
      ranked.prefetch_word(lines[r + 2 * kAhead].word);
      __builtin_prefetch(words.bytes.data() + lines[r + 2 * kAhead].at);
    }
    if (r + kAhead < lines.size()) ranked.prefetch_candidates(lines[r + kAhead].word);
    if (r + kAhead / 2 < lines.size()) ranked.prefetch_spellings(lines[r + kAhead / 2].word);
    const Line& l = lines[r];
    const size_t i = l.word;
    const size_t n = ranked.candidates(i);
    const std::string_view w = l.spelled(words);
    RunLineWriter line(run, l.order, w);
    if (format == OutputFormat::text) {
      run.append(w);
      run.append(": ");
      for (size_t k = 0; k < n; ++k) {
        run.push_back(' ');
        run.append(ranked.word(i, k));
      }
    } else {
      run += "{\"word\":";
      append_json_string(run, w);
      if (!occurrences.empty()) run += ",\"occurrences\":" + std::to_string(occurrences[i]);
      run += ",\"suggestions\":[";
      for (size_t k = 0; k < n; ++k) {
        char score[32];
        std::snprintf(score, sizeof score, "%.3f", static_cast<double>(ranked.score(i, k)) / 1000.0);
        run += k ? ",{\"word\":" : "{\"word\":";
        append_json_string(run, ranked.word(i, k));
        run += ",\"distance\":" + std::to_string(ranked.distance(i, k)) + ",\"score\":" + score + "}";
      }
      run += ']';
      if (json_fields) json_fields(i, run);
      run += '}';
    }
    run.push_back('\n');
    line.line_done();
    if (extra) extra(i, run);
    line.done();
  }
  return run;
}

void append_in_context(std::string& out, const InContext& context, const LineTable& lines, const RankedResults& ranked,
                       size_t word) {
  out += ",\"in_context\":[";
  bool first = true;
  std::string at;
  for (const ContextOccurrence& o : context.of(word)) {
    out += first ? "{\"at\":" : ",{\"at\":";
    first = false;
    at.clear();
    append_location(at, lines.locate(o.position, o.mark));
    append_json_string(out, at);
    out += ",\"best\":";
    append_json_string(out, ranked.word(word, o.best));
    char margin[32];
    std::snprintf(margin, sizeof margin, "%.3f", static_cast<double>(o.margin) / 1000.0);
    out += ",\"margin\":";
    out += o.margin == ContextOccurrence::kAlone ? "null" : margin;
    out += '}';
  }
  out += ']';
}

void append_bests_by_place(std::string& out, const InContext& context, const LineTable& lines,
                           const RankedResults& ranked, size_t word) {
  const std::span<const ContextOccurrence> occ = context.of(word);
  std::vector<uint32_t> bests;
  for (const ContextOccurrence& o : occ) bests.push_back(o.best);
  std::sort(bests.begin(), bests.end());
  bests.erase(std::unique(bests.begin(), bests.end()), bests.end());
  for (size_t b = 0; b < bests.size(); ++b) {
    out += b ? "; " : "";
    out.append(ranked.word(word, bests[b]));
    out += " at";
    for (const ContextOccurrence& o : occ)
      if (o.best == bests[b]) {
        out += ' ';
        append_location(out, lines.locate(o.position, o.mark));
      }
  }
}

}  // namespace spellcheck
