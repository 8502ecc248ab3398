#include "spellcheck/output/stats.hpp"

#include "spellcheck/common/cpus.hpp"
#include "spellcheck/common/huge_pages.hpp"
#include "spellcheck/common/options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace spellcheck {

JsonObject traffic_json(const mpi::Traffic& t) {
  return JsonObject()
      .add("messages_sent", t.messages)
      .add("bytes_sent", t.bytes)
      .add("messages_received", t.messages_received)
      .add("bytes_received", t.bytes_received);
}

JsonObject phase_traffic_json(const std::vector<PhaseSummary>& phases, size_t rank) {
  JsonObject o;
  for (const auto& p : phases) o.add(p.phase, traffic_json(p.traffic_per_rank.at(rank)));
  return o;
}

JsonObject phase_traffic_totals_json(const std::vector<PhaseSummary>& phases) {
  JsonObject o;
  for (const auto& p : phases) {
    mpi::Traffic sum;
    for (const auto& t : p.traffic_per_rank) sum += t;
    o.add(p.phase, traffic_json(sum));
  }
  return o;
}

namespace {
JsonObject phases_json(const std::vector<PhaseSummary>& phases) {
  JsonObject ph;
  for (const auto& p : phases) ph.add(p.phase, JsonObject().add("avg", p.avg).add("min", p.min).add("max", p.max));
  return ph;
}

// The Bloom filter saw the candidates the trigram and affix filters kept; of
// those, the ones not in the dictionary that it let through are its false
// positives.
double filter_false_positive_rate(const SpecCounts& c) {
  const uint64_t probed = c.generated - c.pruned;
  const uint64_t passed = probed - c.filter_rejected;
  return probed > c.hits ? static_cast<double>(passed - c.hits) / static_cast<double>(probed - c.hits) : 0.0;
}

double percent(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string format(const char* fmt, auto... args) {
  const int n = std::snprintf(nullptr, 0, fmt, args...);
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(s.data(), s.size(), fmt, args...);
  s.pop_back();
  return s;
}

using ull = unsigned long long;

JsonObject hunspell_json(const HunspellFigures& h) {
  return JsonObject()
      .add("stems", h.stems)
      .add("entries", h.entries)
      .add("forms", h.forms)
      .add("keys", h.keys)
      .add("suggestable_forms", h.suggestable)
      .add("checks", h.checks)
      .add("rechecks", h.rechecks)
      .add("rounds", h.rounds)
      .add("keys_asked", h.keys_asked)
      .add("keys_served", h.keys_served);
}

// The --stats document around a mode's options, counts and per-rank parts.
std::string stats_document(const Options& opt, bool ranked, int ranks, int threads, const JsonObject& options,
                           const std::vector<PhaseSummary>& phases, const JsonObject& counts,
                           const std::vector<JsonObject>& per_rank) {
  JsonObject root;
  root.add("version", SPELLCHECK_VERSION).add("mode", opt.words_mode ? "words" : "documents");
  if (ranked) root.add("suggest", "ranked");
  // (Rank 0's: auto resolves per rank, from its CPUs.)
  else root.add("comm_thread", comm_thread_name(resolve_comm_thread(opt.comm_thread, cpus_available())));
  root.add("ranks", ranks)
      .add("threads", threads)
      .add("huge_pages", huge_pages())
      .add("malloc_huge_pages", malloc_huge_pages())
      .add("options", options)
      .add("phases", phases_json(phases))
      .add("counts", counts)
      .add("phase_traffic", phase_traffic_totals_json(phases))
      .add("per_rank", per_rank);
  return root.str() + "\n";
}
// --context: a rank's figures, and the totals beside the collection's size.
JsonObject context_json(const ContextFigures& f) {
  return JsonObject()
      .add("occurrences", f.occurrences)
      .add("wanted_keys", f.wanted_keys)
      .add("counted_keys", f.counted_keys)
      .add("filter_bytes", f.filter_bytes)
      .add("table_bytes", f.table_bytes)
      .add("split_cuts", f.split_cuts)
      .add("split_words", f.split_words)
      .add("merge_cuts", f.merge_cuts)
      .add("pairs_apart", f.pairs_apart)
      .add("merges", f.merges);
}
JsonObject context_totals_json(const RankedRun& r) {
  ContextFigures sum;
  uint64_t most = 0;
  for (const ContextFigures& f : r.context) {
    sum.occurrences += f.occurrences;
    sum.wanted_keys += f.wanted_keys;
    sum.counted_keys += f.counted_keys;
    sum.split_cuts += f.split_cuts;
    sum.split_words += f.split_words;
    sum.merge_cuts += f.merge_cuts;
    sum.pairs_apart += f.pairs_apart;
    sum.merges += f.merges;
    most = std::max(most, f.filter_bytes + f.table_bytes);
  }
  return JsonObject()
      .add("occurrences", sum.occurrences)
      .add("wanted_keys", sum.wanted_keys)
      .add("counted_keys", sum.counted_keys)
      .add("split_cuts", sum.split_cuts)
      .add("split_words", sum.split_words)
      .add("merge_cuts", sum.merge_cuts)
      .add("pairs_apart", sum.pairs_apart)
      .add("merges", sum.merges)
      .add("collection_bytes", r.input_bytes)
      .add("max_rank_bytes", most);
}

}  // namespace

std::string summary_line(const SpecRun& r) {
  const SpecCounts& c = r.counts;
  return format(
      "[spellcheck] ranks=%d threads=%d words=%llu distinct=%llu misspelled=%llu candidates=%llu "
      "pruned=%.2f%% bloom_rejected=%.2f%% sent=%llu hits=%llu too_long=%llu binary_skipped=%llu "
      "total=%.3fs\n",
      r.ranks, r.threads, static_cast<ull>(c.tokens), static_cast<ull>(c.distinct), static_cast<ull>(c.misspelled),
      static_cast<ull>(c.generated), percent(c.pruned, c.generated), percent(c.filter_rejected, c.generated),
      static_cast<ull>(c.remote_lookups), static_cast<ull>(c.hits), static_cast<ull>(c.skipped_too_long),
      static_cast<ull>(r.skipped_binary_in_walk) + static_cast<ull>(c.binary_files_read), r.phases.back().max);
}

std::string summary_line(const RankedRun& r) {
  const RankedTotals& c = r.counts;
  uint64_t max_index = 0;
  for (const RankFigures& f : r.per_rank) max_index = std::max(max_index, f.ranked_index_bytes);
  return format(
      "[spellcheck] ranks=%d threads=%d mode=ranked distinct=%llu misspelled=%llu accepted_by_case=%llu "
      "delete_lookups=%llu deletes_filtered=%llu postings=%llu asked=%llu checked=%llu found=%llu "
      "index_max_rank=%.1fMB total=%.3fs\n",
      r.ranks, r.threads, static_cast<ull>(c.distinct), static_cast<ull>(c.unknown - c.accepted_by_case),
      static_cast<ull>(c.accepted_by_case), static_cast<ull>(c.delete_lookups), static_cast<ull>(c.deletes_filtered),
      static_cast<ull>(c.postings), static_cast<ull>(c.buckets_asked), static_cast<ull>(c.entries_checked),
      static_cast<ull>(c.entries_found), static_cast<double>(max_index) / 1e6, r.phases.back().max);
}

std::string stats_json(const SpecRun& r, const Options& opt) {
  const SpecCounts& c = r.counts;
  JsonObject options, counts;
  options.add("words_mode", opt.words_mode)
      .add("threads", r.threads)
      .add("max_word_length", static_cast<uint64_t>(opt.max_word_length))
      .add("batch_bytes", static_cast<uint64_t>(opt.batch_bytes))
      .add("filter_bits", opt.filter_bits)
      .add("filter_exchange", opt.filter_exchange == FilterExchange::allgather ? "allgather" : "allreduce")
      .add("exchange", opt.exchange)
      .add("trigram_filter", opt.trigram_filter)
      .add("affix_filter", opt.affix_filter)
      .add("dictionary", opt.dictionary);
  counts.add("dictionary_entries", r.dictionary_entries)
      .add("shard_entries_min", r.shard_entries_min)
      .add("shard_entries_max", r.shard_entries_max)
      .add("words", c.tokens)
      .add("skipped_too_long", c.skipped_too_long)
      .add("skipped_numbers", c.skipped_numbers)
      .add("input_bytes", c.input_bytes)
      .add("input_files", r.input_files)
      .add("skipped_binary_files", r.skipped_binary_in_walk + c.binary_files_read)
      .add("skipped_hidden", r.skipped_hidden)
      .add("skipped_excluded", r.skipped_excluded)
      .add("distinct", c.distinct)
      .add("misspelled", c.misspelled)
      .add("candidates_generated", c.generated)
      .add("prefilter_pruned", c.pruned)
      .add("filter_rejected", c.filter_rejected)
      .add("local_lookups", c.local_lookups)
      .add("sent_to_other_ranks", c.remote_lookups)
      .add("messages_sent", c.messages_sent)
      .add("bytes_sent", c.bytes_sent)
      .add("true_hits", c.hits)
      .add("filter_false_positive_rate", filter_false_positive_rate(c))
      .add("filter_bytes_per_rank", r.filter_bytes_per_rank)
      .add("affix_filter_bytes", r.affix_filter_bytes);
  std::vector<JsonObject> per_rank;
  for (size_t i = 0; i < r.per_rank.size(); ++i) {
    const RankFigures& f = r.per_rank[i];
    JsonObject secs;
    for (const auto& p : r.phases) secs.add(p.phase, p.per_rank[i]);
    per_rank.push_back(JsonObject()
                           .add("rank", static_cast<uint64_t>(i))
                           .add("messages_sent", f.messages_sent)
                           .add("bytes_sent", f.bytes_sent)
                           .add("messages_received", f.messages_received)
                           .add("bytes_received", f.bytes_received)
                           .add("phase_traffic", phase_traffic_json(r.phases, i))
                           .add("peak_rss_bytes", f.peak_rss_bytes)
                           .add("shard_bytes", f.shard_bytes)
                           .add("phase_seconds", secs));
  }
  if (r.hunspell) counts.add("hunspell", hunspell_json(r.hunspell_figures));
  return stats_document(opt, false, r.ranks, r.threads, options, r.phases, counts, per_rank);
}

std::string stats_json(const RankedRun& r, const Options& opt) {
  const RankedTotals& c = r.counts;
  JsonObject options, counts;
  options.add("words_mode", opt.words_mode)
      .add("suggest", "ranked")
      .add("max_distance", opt.max_distance)
      .add("top", static_cast<uint64_t>(opt.top))
      .add("sound_distance", static_cast<double>(opt.sound_distance))
      .add("prefix_length", static_cast<uint64_t>(opt.prefix_length))
      .add("index_cache", opt.index_cache)
      .add("rare_distance", opt.rare_distance)
      .add("far_min_count", opt.far_min_count)
      .add("two_edits_from", static_cast<uint64_t>(opt.two_edits_from))
      .add("sound_min_count", opt.sound_min_count);
  if (opt.sound_gate_off) options.add("sound_gate", "off");
  else options.add("sound_gate", opt.sound_gate);
  options.add("format", opt.jsonl ? "jsonl" : "text").add("exchange", opt.exchange).add("dictionary", opt.dictionary);
  counts.add("distinct", c.distinct)
      .add("misspelled", c.unknown - c.accepted_by_case)
      .add("accepted_by_case", c.accepted_by_case)
      .add("delete_lookups", c.delete_lookups)
      .add("deletes_filtered", c.deletes_filtered)
      .add("postings", c.postings)
      .add("buckets_asked", c.buckets_asked)
      .add("entries_checked", c.entries_checked)
      .add("entries_found", c.entries_found)
      .add("index_entries", c.index_entries)
      .add("sound_words", c.sound_words)
      .add("index_cache_read", c.index_cache_read)
      .add("index_cache_written", c.index_cache_written);
  std::vector<JsonObject> per_rank;
  for (size_t i = 0; i < r.per_rank.size(); ++i) {
    per_rank.push_back(JsonObject()
                           .add("rank", static_cast<uint64_t>(i))
                           .add("ranked_index_bytes", r.per_rank[i].ranked_index_bytes)
                           .add("peak_rss_bytes", r.per_rank[i].peak_rss_bytes)
                           .add("phase_traffic", phase_traffic_json(r.phases, i)));
    if (i < r.context.size()) per_rank.back().add("context", context_json(r.context[i]));
  }
  if (r.hunspell) counts.add("hunspell", hunspell_json(r.hunspell_figures));
  if (!r.context.empty()) counts.add("context", context_totals_json(r));
  return stats_document(opt, true, r.ranks, r.threads, options, r.phases, counts, per_rank);
}

}  // namespace spellcheck
