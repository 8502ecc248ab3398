#pragma once
// Run statistics: the counters the phases report, summed over ranks; the
// summary line on stderr and the --stats JSON; a small JSON writer (no
// dependency).
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/output/detail/json.hpp"
#include "spellcheck/output/timing.hpp"
#include "spellcheck/suggest/context.hpp"

namespace spellcheck {

struct Options;

// {"messages_sent":..,"bytes_sent":..,"messages_received":..,"bytes_received":..}
JsonObject traffic_json(const mpi::Traffic& t);
// Per phase (summarize's order): rank r's traffic in the phase, and over all
// ranks in "all".
JsonObject phase_traffic_json(const std::vector<PhaseSummary>& phases, size_t rank);
JsonObject phase_traffic_totals_json(const std::vector<PhaseSummary>& phases);

// Collective: a struct of uint64_t counters summed over ranks field by
// field, as one array (one reduction, and no counter known by position).
template <class Counts>
void allreduce_counts(const mpi::Comm& comm, Counts& c) {
  static_assert(std::is_trivially_copyable_v<Counts> && sizeof(Counts) % sizeof(uint64_t) == 0);
  std::vector<uint64_t> v(sizeof(Counts) / sizeof(uint64_t));
  std::memcpy(v.data(), &c, sizeof c);
  mpi::allreduce_sum(comm, v);
  std::memcpy(static_cast<void*>(&c), v.data(), sizeof c);
}

// Collective: every rank's struct of uint64_t figures, in rank order.
template <class Figures>
std::vector<Figures> allgather_figures(const mpi::Comm& comm, const Figures& mine) {
  static_assert(std::is_trivially_copyable_v<Figures> && sizeof(Figures) % sizeof(uint64_t) == 0);
  constexpr size_t n = sizeof(Figures) / sizeof(uint64_t);
  std::vector<uint64_t> words(n), all(n * static_cast<size_t>(comm.size()));
  std::memcpy(words.data(), &mine, sizeof mine);
  mpi::allgather_words(comm, words.data(), n, all.data());
  std::vector<Figures> out(static_cast<size_t>(comm.size()));
  std::memcpy(static_cast<void*>(out.data()), all.data(), all.size() * sizeof(uint64_t));
  return out;
}

// The SPEC mode's counters (summed over ranks).
struct SpecCounts {
  uint64_t tokens = 0, skipped_too_long = 0, skipped_numbers = 0, input_bytes = 0;
  uint64_t binary_files_read = 0;  // compressed files found binary as they were read
  uint64_t distinct = 0, misspelled = 0;
  uint64_t generated = 0, pruned = 0, filter_rejected = 0, local_lookups = 0, remote_lookups = 0;
  uint64_t hits = 0;                           // local and remote
  uint64_t messages_sent = 0, bytes_sent = 0;  // the lookup service's included
};

// One rank's figures, for the per-rank part of --stats.
struct RankFigures {
  uint64_t messages_sent = 0, bytes_sent = 0, messages_received = 0, bytes_received = 0;
  uint64_t peak_rss_bytes = 0;
  uint64_t shard_bytes = 0;         // SPEC: the dictionary shard's words
  uint64_t ranked_index_bytes = 0;  // ranked: the symmetric-delete index
};

// Everything a SPEC run reports, at rank 0 after the reductions.
// Hunspell dictionaries: the load's totals and the checks' rounds (summed
// over ranks; hunspell_dictionary.hpp, hunspell_judge.hpp).
struct HunspellFigures {
  uint64_t stems = 0, entries = 0, forms = 0, keys = 0, suggestable = 0;
  uint64_t checks = 0, rechecks = 0, rounds = 0, keys_asked = 0, keys_served = 0;
};

struct SpecRun {
  int ranks = 1, threads = 1;
  std::vector<PhaseSummary> phases;
  SpecCounts counts;
  std::vector<RankFigures> per_rank;
  uint64_t dictionary_entries = 0, shard_entries_min = 0, shard_entries_max = 0;
  uint64_t input_files = 0, skipped_binary_in_walk = 0, skipped_hidden = 0, skipped_excluded = 0;
  uint64_t filter_bytes_per_rank = 0, affix_filter_bytes = 0;
  bool hunspell = false;  // a hunspell dictionary: hunspell_figures holds its figures
  HunspellFigures hunspell_figures;
};

// The ranked mode's counters (summed over ranks).
struct RankedTotals {
  uint64_t distinct = 0;
  uint64_t unknown = 0;           // not entries as spelled
  uint64_t accepted_by_case = 0;  // of those, entries in another case
  uint64_t delete_lookups = 0, deletes_filtered = 0, entries_checked = 0, entries_found = 0, index_entries = 0,
           postings = 0, buckets_asked = 0;
  uint64_t sound_words = 0;  // words whose sound-alikes were looked up (--sound-gate)
  uint64_t index_cache_read = 0,
           index_cache_written = 0;  // --index-cache: the compiled file read from it, written to it (0 or 1)
};

struct RankedRun {
  int ranks = 1, threads = 1;
  std::vector<PhaseSummary> phases;
  RankedTotals counts;
  std::vector<RankFigures> per_rank;
  std::vector<ContextFigures> context;  // --context: each rank's (empty: not in context)
  uint64_t input_bytes = 0;             // the collection's bytes (documents)
  bool hunspell = false;
  HunspellFigures hunspell_figures;
};

// The one-line summary on stderr ("[spellcheck] ranks=... total=...s").
std::string summary_line(const SpecRun& r);
std::string summary_line(const RankedRun& r);
// The --stats document (one JSON object and a newline).
std::string stats_json(const SpecRun& r, const Options& opt);
std::string stats_json(const RankedRun& r, const Options& opt);

}  // namespace spellcheck
