// rank_tune: the candidates of misspellings from a public list, with the
// features the noisy-channel ranking scores, for fitting its weights
// (bench/tune_channel.py). One process, no MPI: the same PrefixBuckets and
// DeleteTable the ranked mode shards, built whole.
//
//   rank_tune DICT FREQ CORPUS.tsv [MAX_DISTANCE] > features.tsv
//
// Output, per distinct misspelling whose correct word is an entry:
//   T <typo> <correct,...> <accepted 0|1>
//   C <candidate> <right 0|1> <frequency> <distance> <transpositions>
//     <substitutions> <keyboard> <vowel> <insertions> <double_ins>
//     <deletions> <double_del> <first_letter> <sound_distance>
// and on stderr the words/s of the lookup alone.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/suggest/delete_index.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/osa_distance.hpp"
#include "spellcheck/suggest/ranking.hpp"

using namespace spellcheck;

static std::string fold(std::string_view w) {
  std::vector<char32_t> c(w.size() + 1);
  const size_t n = decode_utf8(w, c.data());
  std::string s;
  for (size_t i = 0; i < n; ++i) append_utf8(s, fold_case(c[i]));
  return s;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: rank_tune DICT FREQ CORPUS.tsv [MAX_DISTANCE]\n");
    return 2;
  }
  DeleteParams p;
  if (argc > 4) p.max_distance = std::atoi(argv[4]);
  std::unordered_map<std::string, uint64_t> freq;
  {
    std::ifstream f(argv[2]);
    std::string w;
    uint64_t c;
    while (f >> w >> c) freq[fold(w)] += c;
  }
  WordList entries;
  std::vector<uint64_t> counts;
  std::unordered_set<std::string> dict;
  {
    std::ifstream f(argv[1]);
    std::string line;
    while (std::getline(f, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
      if (line.empty() || !dict.insert(line).second) continue;
      entries.push_back(line);
      const auto it = freq.find(fold(line));
      counts.push_back(it == freq.end() ? 0 : it->second);
    }
  }
  PrefixBuckets buckets;
  buckets.build(std::move(entries), std::move(counts), p);
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  buckets.for_each_delete(p, [&](size_t bucket, uint64_t del) { pairs.emplace_back(del, bucket); });
  DeleteTable table;
  table.build(std::move(pairs));
  std::fprintf(stderr, "rank_tune: %zu entries, %zu deletes, %zu postings, %.1f MB\n", buckets.size(), table.deletes(),
               table.postings(), (buckets.bytes() + table.bytes()) / 1e6);
  // Sound-alike index: deletes of each entry's phonetic key -> entry.
  const int sound_max = argc > 5 ? std::atoi(argv[5]) : 1;
  DeleteParams sp{sound_max, 64};
  DeleteTable sounds;
  std::vector<std::u32string> keys(buckets.size());
  {
    std::vector<std::pair<uint64_t, uint64_t>> sp_pairs;
    std::vector<uint64_t> d;
    for (uint32_t e = 0; e < buckets.size(); ++e) {
      if (buckets.frequency(e) == 0) continue;  // as the ranked index does
      const std::string k = phonetic_key(buckets.folded(e), buckets.folded_size(e));
      keys[e] = std::u32string(k.begin(), k.end());
      prefix_deletes(keys[e].data(), keys[e].size(), sp, d);
      for (const uint64_t h : d) sp_pairs.emplace_back(h, e);
    }
    sounds.build(std::move(sp_pairs));
  }
  std::fprintf(stderr, "rank_tune: sound table %zu deletes, %zu postings, %.1f MB\n", sounds.deletes(),
               sounds.postings(), sounds.bytes() / 1e6);

  std::map<std::string, std::vector<std::string>> corpus;
  {
    std::ifstream f(argv[3]);
    std::string line;
    while (std::getline(f, line)) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      corpus[line.substr(0, tab)].push_back(line.substr(tab + 1));
    }
  }
  auto spec_correct = [&](const std::string& w) {
    if (dict.count(w)) return true;
    if (!w.empty() && w[0] >= 'A' && w[0] <= 'Z') {
      std::string l = w;
      l[0] = static_cast<char>(l[0] + 32);
      return dict.count(l) > 0;
    }
    return false;
  };
  const auto t0 = std::chrono::steady_clock::now();
  size_t looked_up = 0;
  std::vector<uint64_t> dels, prefixes;
  for (const auto& [typo, rights] : corpus) {
    bool any = false;
    for (const auto& r : rights) any |= dict.count(r) > 0;
    if (!any) continue;
    std::vector<char32_t> raw(typo.size() + 1), q(typo.size() + 1);
    const size_t n = decode_utf8(typo, raw.data());
    for (size_t i = 0; i < n; ++i) q[i] = fold_case(raw[i]);
    prefix_deletes(q.data(), n, p, dels);
    prefixes.clear();
    for (const uint64_t d : dels) {
      const auto [b, e] = table.find(d);
      prefixes.insert(prefixes.end(), b, e);
    }
    std::sort(prefixes.begin(), prefixes.end());
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    std::vector<FoundEntry> found;
    for (const uint64_t bucket : prefixes) {
      const auto [b, e] = buckets.group(bucket);
      for (uint32_t x = b; x != e; ++x) {
        const int d = osa_distance(q.data(), n, buckets.folded(x), buckets.folded_size(x), p.max_distance);
        if (d <= p.max_distance)
          found.push_back(FoundEntry{buckets.spelling(x), buckets.frequency(x), 0, static_cast<uint8_t>(d), {}});
      }
    }
    if (sound_max >= 0) {
      const std::string tk = phonetic_key(q.data(), n);
      const std::u32string key(tk.begin(), tk.end());
      prefix_deletes(key.data(), key.size(), sp, dels);
      std::vector<uint64_t> refs;
      for (const uint64_t d : dels) {
        const auto [b, e] = sounds.find(d);
        refs.insert(refs.end(), b, e);
      }
      std::sort(refs.begin(), refs.end());
      refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
      for (const uint64_t r : refs) {
        const uint32_t x = static_cast<uint32_t>(r);
        const std::string kx(keys[x].begin(), keys[x].end());
        if (!sounds_alike(tk, q[0], kx, buckets.folded(x)[0], sound_max)) continue;  // as the ranked index does
        const int reach = sound_alike_reach(n);
        const int d = osa_distance(q.data(), n, buckets.folded(x), buckets.folded_size(x), reach);
        if (d <= p.max_distance || d > reach) continue;  // found above, or too far
        found.push_back(FoundEntry{buckets.spelling(x), buckets.frequency(x), 0, static_cast<uint8_t>(d), {}});
      }
    }
    ++looked_up;
    const RankedWord ranked = rank_suggestions(typo, found, 1000000, channel_weights());
    const bool accepted = spec_correct(typo) || ranked.accepted;
    std::ostringstream line;
    line << "T\t" << typo << '\t';
    for (size_t i = 0; i < rights.size(); ++i) line << (i ? "," : "") << rights[i];
    line << '\t' << accepted << '\n';
    std::cout << line.str();
    if (accepted) continue;
    const std::string typo_sound = phonetic_key(q.data(), n);
    for (const FoundEntry& f : found) {
      std::vector<char32_t> ent(f.spelling.size() + 1);
      const size_t m = decode_utf8(f.spelling, ent.data());
      for (size_t i = 0; i < m; ++i) ent[i] = fold_case(ent[i]);
      const EditProfile ep = edit_profile(q.data(), n, ent.data(), m);
      const std::string s = phonetic_key(ent.data(), m);
      std::vector<char32_t> a(typo_sound.begin(), typo_sound.end()), b(s.begin(), s.end());
      const int sd = osa_distance(a.data(), a.size(), b.data(), b.size(), 2);
      std::string shown;
      spell_in_case(ent.data(), m, case_pattern(raw.data(), n), shown);
      shown = std::string(f.spelling);
      bool right = false;
      for (const auto& r : rights) right |= r == f.spelling;
      std::cout << "C\t" << f.spelling << '\t' << right << '\t' << f.frequency << '\t' << int(ep.distance) << '\t'
                << int(ep.transpositions) << '\t' << int(ep.substitutions) << '\t' << int(ep.keyboard_substitutions)
                << '\t' << int(ep.vowel_substitutions) << '\t' << int(ep.insertions) << '\t'
                << int(ep.double_insertions) << '\t' << int(ep.deletions) << '\t' << int(ep.double_deletions) << '\t'
                << int(ep.first_letter) << '\t' << sd << '\n';
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "rank_tune: %zu misspellings in %.3f s (%.0f words/s, features included)\n", looked_up, secs,
               looked_up / secs);
  return 0;
}
