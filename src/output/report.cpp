#include "spellcheck/output/report.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "spellcheck/common/first_error.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/input/line_marks.hpp"
#include "spellcheck/suggest/candidates.hpp"
#include "spellcheck/suggest/judge.hpp"

namespace spellcheck {

namespace {}  // namespace

std::string make_run(const WordList& misspelled, const std::vector<Slot>& hits, const ExtraFn& extra,
                     const LineOrder& line_order) {
  const size_t n = misspelled.size();
  // Hits grouped by word with a counting sort (they arrive in no order).
  std::vector<uint32_t> first(n + 1, 0);
  for (const Slot& h : hits) ++first[h.word + 1];
  for (size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<EditRef> edits(hits.size());
  {
    std::vector<uint32_t> at(first.begin(), first.end() - 1);
    for (const Slot& h : hits) edits[at[h.word]++] = h.edit;
  }

  // Lines, built by threads over contiguous ranges of words into their own
  // buffers: word i's line is line_len[i] bytes at line_at[i] of
  // parts[part_of[i]]. The ranges follow the team OpenMP actually gives
  // (at most `threads`, fewer under a thread limit or a dynamic team).
  const int threads = omp_get_max_threads();
  std::vector<std::string> parts(static_cast<size_t>(threads));
  std::vector<uint64_t> line_at(n, 0);
  std::vector<uint32_t> line_len(n, 0), count(n, 0), part_of(n, 0);
  FirstError err;
#pragma omp parallel num_threads(threads)
  err.run([&] {
    const size_t t = static_cast<size_t>(omp_get_thread_num());
    const size_t nt = static_cast<size_t>(omp_get_num_threads());
    const size_t b = n * t / nt, e = n * (t + 1) / nt;
    std::string& text = parts[t];
    std::string spelled;  // the word's candidates, back to back
    std::vector<std::string_view> cands;
    for (size_t i = b; i < e; ++i) {
      const std::string_view w = misspelled[i];
      const size_t k = first[i + 1] - first[i];
      spelled.resize(k * (w.size() + 1));
      cands.clear();
      for (size_t j = 0; j < k; ++j)
        cands.push_back(spell_edit(w, edits[first[i] + j], spelled.data() + j * (w.size() + 1)));
      std::sort(cands.begin(), cands.end());
      // Candidates are generated once each; unique() is only a guard.
      cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
      count[i] = line_order.key(i, static_cast<uint32_t>(cands.size()));
      part_of[i] = static_cast<uint32_t>(t);
      line_at[i] = text.size();
      text.append(w);
      text.append(": ");
      for (const auto c : cands) {
        text.push_back(' ');
        text.append(c);
      }
      text.push_back('\n');
      line_len[i] = static_cast<uint32_t>(text.size() - line_at[i]);
    }
  });
  err.rethrow();
  auto line_of = [&](size_t i) { return std::string_view(parts[part_of[i]]).substr(line_at[i], line_len[i]); };

  // SPEC order.
  std::vector<std::pair<uint64_t, uint32_t>> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = {spec_order_key(count[i], misspelled[i], line_order.wide()), static_cast<uint32_t>(i)};
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (count[a.second] != count[b.second]) return count[a.second] < count[b.second];
    return misspelled[a.second] < misspelled[b.second];
  });

  size_t bytes = 0;
  for (const auto& p : parts) bytes += p.size();
  std::string run;
  run.reserve(bytes + n * 24 + misspelled.bytes.size());
  std::string x;
  for (const auto& [key, i] : order) {
    const std::string_view w = misspelled[i];
    const std::string_view l = line_of(i);
    x.clear();
    if (extra) extra(i, x);
    append_run_line(run, count[i], w, l, x);
  }
  return run;
}

std::string make_word_run(const WordList& misspelled, const LineOrder& line_order) {
  std::vector<uint32_t> order(misspelled.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const uint32_t ka = line_order.key(a, 0), kb = line_order.key(b, 0);
    return ka != kb ? ka < kb : misspelled[a] < misspelled[b];
  });
  std::string run, line;
  for (uint32_t i : order) {
    line.assign(misspelled[i]);
    line += '\n';
    append_run_line(run, line_order.key(i, 0), misspelled[i], line);
  }
  return run;
}

std::string make_run_of_lists(const WordList& misspelled, std::vector<std::vector<std::string>> candidates,
                              const ExtraFn& extra, const LineOrder& line_order) {
  const size_t n = misspelled.size();
  std::vector<std::pair<uint64_t, uint32_t>> order(n);
  std::vector<uint32_t> keys(n);
  for (size_t i = 0; i < n; ++i) {
    std::sort(candidates[i].begin(), candidates[i].end());
    keys[i] = line_order.key(i, static_cast<uint32_t>(candidates[i].size()));
    order[i] = {spec_order_key(keys[i], misspelled[i], line_order.wide()), static_cast<uint32_t>(i)};
  }
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (keys[a.second] != keys[b.second]) return keys[a.second] < keys[b.second];
    return misspelled[a.second] < misspelled[b.second];
  });
  std::string run, line, x;
  for (const auto& [key, i] : order) {
    const std::string_view w = misspelled[i];
    line.assign(w);
    line += ": ";
    for (const std::string& c : candidates[i]) {
      line += ' ';
      line += c;
    }
    line += '\n';
    x.clear();
    if (extra) extra(i, x);
    append_run_line(run, keys[i], w, line, x);
  }
  return run;
}

void append_run_line(std::string& run, uint32_t candidates, std::string_view word, std::string_view line,
                     std::string_view extra) {
  RunLineWriter w(run, candidates, word);
  run.append(line);
  w.line_done();
  run.append(extra);
  w.done();
}

RunLineWriter::RunLineWriter(std::string& run, uint32_t candidates, std::string_view word)
    : run_(run), head_(run.size()) {
  wire::append_le<uint32_t>(run, candidates);
  wire::append_le<uint32_t>(run, static_cast<uint32_t>(word.size()));
  run.append(8, '\0');  // the line's and the extra's lengths: done()
  run.append(word);
  line_at_ = run.size();
}

void RunLineWriter::done() {
  const uint32_t sizes[2] = {static_cast<uint32_t>(extra_at_ - line_at_),
                             static_cast<uint32_t>(run_.size() - extra_at_)};
  std::memcpy(run_.data() + head_ + 8, sizes, sizeof sizes);
}

LineView RunReader::next() {
  uint32_t h[4];
  std::memcpy(h, run_.data() + pos_, sizeof h);
  pos_ += sizeof h;
  LineView v;
  v.candidates = h[0];
  v.word = run_.substr(pos_, h[1]);
  pos_ += h[1];
  v.line = run_.substr(pos_, h[2]);
  pos_ += h[2];
  v.extra = run_.substr(pos_, h[3]);
  pos_ += h[3];
  return v;
}

void merge_runs(const std::vector<std::string_view>& runs, const std::function<void(const LineView&)>& emit) {
  // A binary heap of the runs' current lines, smallest first; ties between
  // equal lines (impossible: each word has one owner) would go to the lower
  // rank.
  struct Head {
    LineView line;
    size_t run;
  };
  auto after = [](const Head& a, const Head& b) {
    if (spec_less(b.line, a.line)) return true;
    if (spec_less(a.line, b.line)) return false;
    return a.run > b.run;
  };
  std::vector<RunReader> readers;
  std::vector<Head> heap;
  for (size_t r = 0; r < runs.size(); ++r) {
    readers.emplace_back(runs[r]);
    if (!readers.back().done()) heap.push_back(Head{readers.back().next(), r});
  }
  std::make_heap(heap.begin(), heap.end(), after);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    Head& h = heap.back();
    emit(h.line);
    if (readers[h.run].done()) {
      heap.pop_back();
    } else {
      h.line = readers[h.run].next();
      std::push_heap(heap.begin(), heap.end(), after);
    }
  }
}

void append_occurrences(std::string& x, const Judged& judged, const LineTable& lines, size_t i) {
  x += std::to_string(judged.occurrences[i]);
  x += '\t';
  append_location(x, lines.locate(judged.first_position[i], judged.first_mark[i]));
}

void append_report_row(std::string& tsv, const LineView& l, bool candidates_in_extra) {
  tsv.append(l.word);
  tsv += '\t';
  tsv.append(l.extra);
  if (!candidates_in_extra) {
    tsv += '\t';
    const size_t from = std::min(l.word.size() + 3, l.line.size() - 1);  // past "word:  "
    tsv.append(l.line.substr(from, l.line.size() - 1 - from));
  }
  tsv += '\n';
}

}  // namespace spellcheck
