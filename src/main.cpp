// spellcheck: wires the phases together and maps failures to exit codes.
// A phase's local work runs in Run::step, which ends with an agreement over
// ranks: when one rank fails there, all of them stop together and only one
// prints the error. A step holds no collective unless its collectives are
// balanced on every path (a rank that throws has still made the same calls
// as the others: read_line_share, suggest); any other failure, one between
// collectives, ends the whole job at once (mpi::abort_job in main), so no
// rank is ever left waiting in a collective.
#include <malloc.h>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "spellcheck/bloom_filter.hpp"
#include "spellcheck/data_files.hpp"
#include "spellcheck/document_reader.hpp"
#include "spellcheck/input_plan.hpp"
#include "spellcheck/errors.hpp"
#include "spellcheck/exchange.hpp"
#include "spellcheck/fault.hpp"
#include "spellcheck/judge.hpp"
#include "spellcheck/line_marks.hpp"
#include "spellcheck/mpi.hpp"
#include "spellcheck/frequencies.hpp"
#include "spellcheck/options.hpp"
#include "spellcheck/ranked_lookup.hpp"
#include "spellcheck/ranked_report.hpp"
#include "spellcheck/reader.hpp"
#include "spellcheck/removal_on_signal.hpp"
#include "spellcheck/report.hpp"
#include "spellcheck/shard.hpp"
#include "spellcheck/sorted_output.hpp"
#include "spellcheck/stats.hpp"
#include "spellcheck/stream_input.hpp"
#include "spellcheck/suggest.hpp"
#include "spellcheck/timing.hpp"
#include "spellcheck/word_hash.hpp"

using namespace spellcheck;

namespace {

// Thrown on every rank once the ranks agreed that the run failed.
struct Stop {
  int code;
};

class Run {
 public:
  Run(mpi::Comm& comm) : comm_(comm) {}

  // Runs local work; then all ranks agree. On failure the lowest failing
  // rank prints its one-line error and every rank throws Stop.
  template <class F>
  void step(F&& f) {
    int code = kExitOk;
    std::string msg;
    try {
      f();
    } catch (const std::exception& e) {
      code = exit_code_of(e);
      msg = e.what();
    }
    const auto worst = static_cast<int>(mpi::allreduce_max(comm_, static_cast<uint64_t>(code)));
    if (worst == kExitOk) return;
    if (mpi::lowest_rank_with(comm_, code != kExitOk) == comm_.rank())
      std::fprintf(stderr, "spellcheck: error: %s\n", msg.c_str());
    throw Stop{worst};
  }

 private:
  mpi::Comm& comm_;
};

uint64_t peak_rss_bytes() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

// Hashes words in parallel (the one hash each word ever gets on this rank).
std::vector<uint64_t> hash_words(const WordList& w) {
  std::vector<uint64_t> h(w.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < w.size(); ++i) h[i] = word_hash(w[i]);
  return h;
}

// One row of the --report TSV (word, occurrences, first location,
// candidates). The owners wrote "occurrences<TAB>location" into each line's
// extra, followed by "<TAB>candidates" in ranked mode; SPEC lines give
// their candidates.
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

// "occurrences<TAB>path:line:column" of misspelled word i, resolved here,
// at the word's owner, from the line marks (no input is read again).
void append_occurrences(std::string& x, const Judged& judged, const LineTable& lines, size_t i) {
  x += std::to_string(judged.occurrences[i]);
  x += '\t';
  append_location(x, lines.locate(judged.first_position[i], judged.first_mark[i]));
}

// The ranks' runs into the global SPEC order, each rank with a slice
// (sorted_output.hpp), written in rank order: the output and, with a
// report, the occurrence TSV (out and report exist on rank 0 only); both
// committed once every rank has written.
void write_runs(mpi::Comm& comm, Run& run, bool ranked, bool with_report, std::string run_bytes, OutputFile* out,
                OutputFile* report) {
  std::string text, tsv;
  if (with_report && comm.rank() == 0) tsv = "word\toccurrences\tfirst_location\tcandidates\n";
  sort_runs(comm, std::move(run_bytes), [&](const LineView& l) {
    text.append(l.line);
    if (with_report) append_report_row(tsv, l, ranked);
  });
  // Held until rank 0 committed: if it is killed first, this rank removes
  // the temporary files on its way out.
  RemovalOnSignal text_file, report_file;
  run.step([&] { text_file = write_slices(comm, text, out); });
  text = std::string();
  if (with_report) run.step([&] { report_file = write_slices(comm, tsv, report); });
  run.step([&] {
    fault::point("gather", comm.rank());
    if (comm.rank() != 0) return;
    out->commit();
    if (report) report->commit();
  });
}

// The shipped frequency list: next to an installed binary, beside the
// sources, or where the build said it would be installed.
std::string default_frequencies() { return find_data_file("freq/en-80k.txt"); }

// --suggest ranked, from the judged words on: the ranked index (built only
// in this mode), the lookups, the lines. The SPEC path stays as it was.
int run_ranked(mpi::Comm& comm, Run& run, const Options& opt, const LineTable& line_table, Timings& t, double t0,
               const mpi::Traffic& traffic0,
               WordList entries, const Judged& judged, std::unique_ptr<OutputFile>& out,
               std::unique_ptr<OutputFile>& report) {
  const int rank = comm.rank();
  RankedParams params;
  params.deletes.max_distance = opt.max_distance;
  params.deletes.prefix_length = opt.prefix_length;
  params.sound_distance = opt.sound_distance;
  params.rare_distance = opt.rare_distance;
  params.top = opt.top;
  // --batch-bytes bounds a lookup round too: about 16 bytes of requests per
  // word and delete (--batch-bytes 1: one word per round, for tests).
  params.words_per_round = std::max<size_t>(1, opt.batch_bytes / 16);
  RankedIndex index;
  {
    PhaseTimer pt(t, "rank-index");
    std::string freq_path = opt.frequencies.empty() ? default_frequencies() : opt.frequencies;
    FrequencyList freq;
    run.step([&] {
      if (freq_path.empty()) {
        if (rank == 0 && !opt.quiet)
          std::fputs("spellcheck: warning: no frequency list found (--frequencies FILE); ranking without word priors\n",
                     stderr);
        return;
      }
      require_readable_file(freq_path, "frequency file");
    });
    if (!freq_path.empty()) {
      TextChunk chunk = read_line_share(comm, freq_path);
      run.step([&] { freq = parse_frequencies(chunk.bytes, freq_path); });
    }
    index.build(comm, std::move(entries), std::move(freq), params);
  }
  RankedCounts counts;
  std::vector<RankedWord> ranked;
  {
    PhaseTimer pt(t, "ranked");
    // Not a step: its rounds of exchanges are not balanced when a rank throws
    // half-way (main aborts the job then).
    ranked = index.suggest(comm, judged.misspelled, channel_weights(), counts);
  }
  uint64_t accepted = 0;
  for (const auto& r : ranked) accepted += r.accepted;
  {
    PhaseTimer pt(t, "report");
    const bool with_report = !opt.report.empty();
    ExtraFn extra;
    if (with_report)
      extra = [&](size_t i, std::string& x) {
        append_occurrences(x, judged, line_table, i);
        x += '\t';
        for (size_t k = 0; k < ranked[i].best.size(); ++k) {
          if (k) x += ' ';
          x += ranked[i].best[k].word;
        }
      };
    std::string run_bytes;
    run.step([&] {
      fault::point("report", rank);
      run_bytes = make_ranked_run(judged.misspelled, ranked, opt.jsonl ? OutputFormat::jsonl : OutputFormat::text,
                                  opt.words_mode ? std::vector<uint64_t>{} : judged.occurrences, extra);
    });
    write_runs(comm, run, true, with_report, std::move(run_bytes), out.get(), report.get());
  }
  t.add("total", mpi::now() - t0, mpi::traffic() - traffic0);

  const auto phases = summarize(comm, t);
  std::vector<uint64_t> sums = {judged.distinct, judged.misspelled.size(), accepted, counts.delete_lookups,
                                counts.entries_checked, counts.found, index.entries(), counts.postings,
                                counts.buckets_asked};
  mpi::allreduce_sum(comm, sums);
  const auto index_bytes = mpi::allgather(comm, static_cast<uint64_t>(index.bytes()));
  const auto rss_per_rank = mpi::allgather(comm, peak_rss_bytes());
  if (rank != 0) return kExitOk;
  const uint64_t misspelled = sums[1] - sums[2];
  if (!opt.quiet) {
    std::fputs(timing_lines(phases).c_str(), stderr);
    uint64_t max_index = 0;
    for (auto b : index_bytes) max_index = std::max(max_index, b);
    std::fprintf(stderr,
                 "[spellcheck] ranks=%d threads=%d mode=ranked distinct=%llu misspelled=%llu accepted_by_case=%llu "
                 "delete_lookups=%llu postings=%llu asked=%llu checked=%llu found=%llu index_max_rank=%.1fMB "
                 "total=%.3fs\n",
                 comm.size(), omp_get_max_threads(), static_cast<unsigned long long>(sums[0]),
                 static_cast<unsigned long long>(misspelled), static_cast<unsigned long long>(sums[2]),
                 static_cast<unsigned long long>(sums[3]), static_cast<unsigned long long>(sums[7]),
                 static_cast<unsigned long long>(sums[8]), static_cast<unsigned long long>(sums[4]),
                 static_cast<unsigned long long>(sums[5]), static_cast<double>(max_index) / 1e6, phases.back().max);
  }
  if (!opt.stats.empty()) {
    JsonObject options, ph, c;
    options.add("words_mode", opt.words_mode)
        .add("suggest", "ranked")
        .add("max_distance", opt.max_distance)
        .add("top", static_cast<uint64_t>(opt.top))
        .add("sound_distance", static_cast<double>(opt.sound_distance))
        .add("prefix_length", static_cast<uint64_t>(opt.prefix_length))
        .add("rare_distance", opt.rare_distance)
        .add("format", opt.jsonl ? "jsonl" : "text")
        .add("dictionary", opt.dictionary);
    for (const auto& p : phases) ph.add(p.phase, JsonObject().add("avg", p.avg).add("min", p.min).add("max", p.max));
    c.add("distinct", sums[0])
        .add("misspelled", misspelled)
        .add("accepted_by_case", sums[2])
        .add("delete_lookups", sums[3])
        .add("postings", sums[7])
        .add("buckets_asked", sums[8])
        .add("entries_checked", sums[4])
        .add("entries_found", sums[5])
        .add("index_entries", sums[6]);
    std::vector<JsonObject> per_rank;
    per_rank.reserve(static_cast<size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r)
      per_rank.push_back(JsonObject()
                             .add("rank", r)
                             .add("ranked_index_bytes", index_bytes[static_cast<size_t>(r)])
                             .add("peak_rss_bytes", rss_per_rank[static_cast<size_t>(r)])
                             .add("phase_traffic", phase_traffic_json(phases, static_cast<size_t>(r))));
    JsonObject root;
    root.add("version", SPELLCHECK_VERSION)
        .add("mode", opt.words_mode ? "words" : "documents")
        .add("suggest", "ranked")
        .add("ranks", comm.size())
        .add("threads", omp_get_max_threads())
        .add("options", options)
        .add("phases", ph)
        .add("counts", c)
        .add("phase_traffic", phase_traffic_totals_json(phases))
        .add("per_rank", per_rank);
    try {
      write_file_atomically(opt.stats, root.str() + "\n");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "spellcheck: error: --stats: %s\n", e.what());
      return kExitFailure;
    }
  }
  return kExitOk;
}

int run(int argc, char** argv, int provided) {
  mpi::Comm comm;
  const int rank = comm.rank();
  Run run(comm);
  Options opt;
  run.step([&] { opt = parse_options(argc, argv); });
  if (opt.help || opt.version) {
    if (rank == 0) std::fputs(opt.help ? usage_text().c_str() : "spellcheck " SPELLCHECK_VERSION "\n", stdout);
    return kExitOk;
  }
  run.step([&] {
    if (provided < MPI_THREAD_SERIALIZED)
      throw UsageError("this MPI library does not provide MPI_THREAD_SERIALIZED (the lookup thread needs it)");
    if (opt.threads > 0) omp_set_num_threads(opt.threads);
    require_readable_file(opt.dictionary, "dictionary");
  });
  // The input plan (files in byte-wise path order, sizes) is made once and
  // broadcast, so every rank cuts the same stream.
  // Rank 0 keeps its own plan: it holds the stream inputs' bytes.
  InputPlan plan;
  std::string plan_bytes;
  run.step([&] {
    if (rank != 0) return;
    plan = make_input_plan(opt.inputs, PlanOptions{opt.hidden, opt.binary, opt.exclude});
    if (opt.verbose)
      for (const std::string& path : plan.binary_paths) std::fprintf(stderr, "spellcheck: skipped binary file '%s'\n", path.c_str());
    plan_bytes = serialize_input_plan(plan);
  });
  plan_bytes = mpi::broadcast(comm, plan_bytes);
  if (rank != 0) plan = deserialize_input_plan(plan_bytes);
  const ProgressMode progress_on = rank == 0 ? progress_mode(opt.progress) : ProgressMode::off;

  Timings t;
  const double t0 = mpi::now();
  const mpi::Traffic traffic0 = mpi::traffic();
  std::unique_ptr<OutputFile> out, report;
  run.step([&] {
    if (rank != 0) return;
    // Unnamed until the output is written (on several ranks every rank then
    // writes its slice into it by name, sorted_output.hpp).
    out = std::make_unique<OutputFile>(opt.output);
    if (!opt.report.empty()) report = std::make_unique<OutputFile>(opt.report);
  });

  // Dictionary: read a share, ship entries to their owners, index.
  WordList entries;
  std::vector<uint64_t> entry_hashes;
  uint64_t dictionary_entries = 0;
  {
    PhaseTimer pt(t, "read");
    run.step([&] {
      TextChunk chunk = read_line_share(comm, opt.dictionary);
      fault::point("read", rank);
      entries = lines_to_words(std::move(chunk.bytes), SIZE_MAX, nullptr);
      entry_hashes = hash_words(entries);
    });
  }
  dictionary_entries = mpi::allreduce_sum(comm, entries.size());
  run.step([&] {
    if (dictionary_entries == 0) throw InputError("dictionary '" + opt.dictionary + "' has no entry");
  });
  Routed shard_words;
  {
    PhaseTimer pt(t, "shuffle");
    fault::point("shuffle", rank);
    shard_words = route_by_owner(comm, std::move(entries), std::move(entry_hashes));
    entries = WordList();
    entry_hashes = {};
  }
  WordList ranked_entries;  // the shard's entries as spelled, for the ranked index
  if (opt.ranked) ranked_entries = shard_words.words;
  Shard shard;
  {
    PhaseTimer pt(t, "index");
    run.step([&] {
      fault::point("index", rank);
      shard.build(std::move(shard_words.words), std::move(shard_words.hashes));
    });
  }
  BloomFilter filter;
  TrigramFilter trigrams;
  AffixFilter affixes;
  {
    PhaseTimer pt(t, "filter");
    fault::point("filter", rank);
    filter = build_filter(comm, shard, opt.filter_bits, opt.filter_exchange);
    trigrams = build_trigram_filter(comm, shard);
    if (opt.affix_filter) affixes = build_affix_filter(comm, shard);
  }

  // Input words: each rank takes a share of the input, and every word goes
  // to its owner (in document mode with its occurrence count and first
  // position, summed and minimised at the owner).
  uint64_t tokens = 0, skipped_long = 0, skipped_numbers = 0, input_bytes = 0, binary_here = 0;
  Routed routed;
  LineTable line_table;  // with --report: where each first occurrence is
  // Rank 0 read the stream inputs meanwhile, in threads: wait for them.
  run.step([&] {
    if (rank == 0) finish_stream_reads(plan);
  });
  if (opt.words_mode) {
    WordList words;
    {
      PhaseTimer pt(t, "read");
      // One step per file: every rank opens (collectively) the same files,
      // and a rank that fails leaves no collective behind.
      for (const auto& file : plan.files) {
        TextChunk chunk;
        const bool at_rank0 = file.stream || file.whole();  // only rank 0 has (or decodes) the bytes
        if (at_rank0) {
          HeldBytes all;
          run.step([&] {
            if (rank == 0) all = whole_input(file);
          });
          chunk = share_lines(comm, all.bytes);
        }
        run.step([&] {
          if (!at_rank0) chunk = read_line_share(comm, file.path);
          fault::point("read", rank);
          input_bytes += chunk.bytes.size();
          WordList part = lines_to_words(std::move(chunk.bytes), opt.max_word_length, &skipped_long);
          if (words.empty())
            words = std::move(part);
          else
            for (size_t i = 0; i < part.size(); ++i) words.push_back(part[i]);
        });
      }
    }
    tokens = words.size();
    PhaseTimer pt(t, "route");
    fault::point("route", rank);
    auto hashes = hash_words(words);
    routed = route_by_owner(comm, std::move(words), std::move(hashes));
  } else {
    LocalWords local;
    {
      PhaseTimer pt(t, "ingest");
      share_stream_inputs(comm, plan);
      Progress progress(progress_on, comm.size() > 1 ? "reading (rank 0's share)" : "reading", 0, "MB",
                        opt.progress_interval);
      ReaderTuning tuning;
      tuning.line_marks = !opt.report.empty();
      run.step([&] {
        fault::point("ingest", rank);
        local = collect_document_words(plan, comm.rank(), comm.size(), opt.max_word_length, omp_get_max_threads(),
                                       [&](uint64_t done, uint64_t total) {
                                         progress.set_total(total >> 20);
                                         progress.advance_to(done >> 20);
                                       },
                                       tuning);
      });
      if (tuning.line_marks) line_table = gather_line_table(comm, plan, local.line_units);
      tokens = local.tokens;
      skipped_long = local.skipped_long;
      skipped_numbers = local.skipped_numbers;
      input_bytes = local.bytes_read;
      binary_here = local.binary_paths.size();  // compressed files found binary as they were read
      if (opt.verbose)
        for (const std::string& path : local.binary_paths)
          std::fprintf(stderr, "spellcheck: skipped binary file '%s'\n", path.c_str());
    }
    PhaseTimer pt(t, "route");
    fault::point("route", rank);
    std::vector<std::vector<uint64_t>> values;
    values.push_back(std::move(local.counts));
    values.push_back(std::move(local.first_pos));
    if (!opt.report.empty()) values.push_back(std::move(local.first_mark));
    routed = route_by_owner(comm, std::move(local.words), std::move(local.hashes), std::move(values));
  }
  Judged judged;
  {
    PhaseTimer pt(t, "judge");
    run.step([&] {
      fault::point("judge", rank);
      judged = judge(shard, routed);
    });
    routed = Routed();
  }
  if (opt.ranked) return run_ranked(comm, run, opt, line_table, t, t0, traffic0, std::move(ranked_entries), judged, out, report);
  Suggestions sugg;
  {
    PhaseTimer pt(t, "candidates");
    Progress progress(progress_on, comm.size() > 1 ? "candidates (rank 0's share)" : "candidates",
                      judged.misspelled.size(), "words", opt.progress_interval);
    // A step: suggest ends the lookup service with the other ranks before it
    // rethrows a failure of its own.
    run.step([&] {
      sugg = suggest(comm, shard, filter, opt.trigram_filter ? &trigrams : nullptr,
                     opt.affix_filter ? &affixes : nullptr, judged.misspelled, opt.batch_bytes, progress);
    });
  }
  const uint64_t my_hits = sugg.hits.size();  // local and remote, before the report consumes them
  {
    PhaseTimer pt(t, "report");
    const bool with_report = !opt.report.empty();
    // The occurrence report carries "count<TAB>first position" per line.
    ExtraFn extra;
    if (with_report)
      extra = [&](size_t i, std::string& x) { append_occurrences(x, judged, line_table, i); };
    std::string run_bytes;
    run.step([&] {
      fault::point("report", rank);
      run_bytes = make_run(judged.misspelled, sugg.hits, extra);
    });
    sugg.hits = {};
    write_runs(comm, run, false, with_report, std::move(run_bytes), out.get(), report.get());
  }
  t.add("total", mpi::now() - t0, mpi::traffic() - traffic0);
  const mpi::Traffic traffic_done = mpi::traffic();  // before the diagnostics' own

  // Diagnostics: timing lines, summary, --stats.
  const auto phases = summarize(comm, t);
  std::vector<uint64_t> sums = {tokens,
                                skipped_long,
                                judged.distinct,
                                judged.misspelled.size(),
                                sugg.counts.generated,
                                sugg.counts.filter_rejected,
                                sugg.counts.remote_lookups,
                                traffic_done.messages,  // the lookup service's included
                                traffic_done.bytes,
                                my_hits,
                                sugg.counts.local_lookups,
                                sugg.counts.pruned,
                                skipped_numbers,
                                input_bytes,
                                binary_here};
  const uint64_t my_messages = sums[7], my_bytes = sums[8];
  const auto messages_in_per_rank = mpi::allgather(comm, traffic_done.messages_received);
  const auto bytes_in_per_rank = mpi::allgather(comm, traffic_done.bytes_received);
  mpi::allreduce_sum(comm, sums);
  const uint64_t shard_min = mpi::allreduce_min(comm, shard.entries());
  const uint64_t shard_max = mpi::allreduce_max(comm, shard.entries());
  const auto messages_per_rank = mpi::allgather(comm, my_messages);
  const auto bytes_per_rank = mpi::allgather(comm, my_bytes);
  const auto rss_per_rank = mpi::allgather(comm, peak_rss_bytes());
  const auto shard_bytes = mpi::allgather(comm, static_cast<uint64_t>(shard.raw_bytes()));
  if (rank != 0) return kExitOk;

  const uint64_t generated = sums[4], rejected = sums[5], true_hits = sums[9], pruned = sums[11];
  // The Bloom filter saw the candidates the trigram and affix filters kept; of those,
  // the ones not in the dictionary that it let through are its false
  // positives.
  const uint64_t probed = generated - pruned;
  const uint64_t passed = probed - rejected;
  const double fp_rate =
      probed > true_hits ? static_cast<double>(passed - true_hits) / static_cast<double>(probed - true_hits) : 0.0;
  const int threads = omp_get_max_threads();
  if (!opt.quiet) {
    std::fputs(timing_lines(phases).c_str(), stderr);
    std::fprintf(stderr,
                 "[spellcheck] ranks=%d threads=%d words=%llu distinct=%llu misspelled=%llu candidates=%llu "
                 "pruned=%.2f%% bloom_rejected=%.2f%% sent=%llu hits=%llu too_long=%llu binary_skipped=%llu "
                 "total=%.3fs\n",
                 comm.size(), threads, static_cast<unsigned long long>(sums[0]),
                 static_cast<unsigned long long>(sums[2]), static_cast<unsigned long long>(sums[3]),
                 static_cast<unsigned long long>(generated),
                 generated ? 100.0 * static_cast<double>(pruned) / static_cast<double>(generated) : 0.0,
                 generated ? 100.0 * static_cast<double>(rejected) / static_cast<double>(generated) : 0.0,
                 static_cast<unsigned long long>(sums[6]), static_cast<unsigned long long>(true_hits),
                 static_cast<unsigned long long>(sums[1]),
                 static_cast<unsigned long long>(plan.skipped_binary) + static_cast<unsigned long long>(sums[14]),
                 phases.back().max);
  }
  if (!opt.stats.empty()) {
    JsonObject options, ph, counts;
    options.add("words_mode", opt.words_mode)
        .add("threads", threads)
        .add("max_word_length", static_cast<uint64_t>(opt.max_word_length))
        .add("batch_bytes", static_cast<uint64_t>(opt.batch_bytes))
        .add("filter_bits", opt.filter_bits)
        .add("filter_exchange", opt.filter_exchange == FilterExchange::allgather ? "allgather" : "allreduce")
        .add("trigram_filter", opt.trigram_filter)
        .add("affix_filter", opt.affix_filter)
        .add("dictionary", opt.dictionary);
    for (const auto& p : phases) ph.add(p.phase, JsonObject().add("avg", p.avg).add("min", p.min).add("max", p.max));
    counts.add("dictionary_entries", dictionary_entries)
        .add("shard_entries_min", shard_min)
        .add("shard_entries_max", shard_max)
        .add("words", sums[0])
        .add("skipped_too_long", sums[1])
        .add("skipped_numbers", sums[12])
        .add("input_bytes", sums[13])
        .add("input_files", static_cast<uint64_t>(plan.files.size()))
        .add("skipped_binary_files", plan.skipped_binary + sums[14])
        .add("skipped_hidden", plan.skipped_hidden)
        .add("skipped_excluded", plan.skipped_excluded)
        .add("distinct", sums[2])
        .add("misspelled", sums[3])
        .add("candidates_generated", generated)
        .add("prefilter_pruned", pruned)
        .add("filter_rejected", rejected)
        .add("local_lookups", sums[10])
        .add("sent_to_other_ranks", sums[6])
        .add("messages_sent", sums[7])
        .add("bytes_sent", sums[8])
        .add("true_hits", true_hits)
        .add("filter_false_positive_rate", fp_rate)
        .add("filter_bytes_per_rank", static_cast<uint64_t>(filter.bytes()))
        .add("affix_filter_bytes", static_cast<uint64_t>(affixes.bytes()));
    std::vector<JsonObject> per_rank;
    for (int r = 0; r < comm.size(); ++r) {
      JsonObject secs;
      for (const auto& p : phases) secs.add(p.phase, p.per_rank[static_cast<size_t>(r)]);
      per_rank.push_back(JsonObject()
                             .add("rank", r)
                             .add("messages_sent", messages_per_rank[static_cast<size_t>(r)])
                             .add("bytes_sent", bytes_per_rank[static_cast<size_t>(r)])
                             .add("messages_received", messages_in_per_rank[static_cast<size_t>(r)])
                             .add("bytes_received", bytes_in_per_rank[static_cast<size_t>(r)])
                             .add("phase_traffic", phase_traffic_json(phases, static_cast<size_t>(r)))
                             .add("peak_rss_bytes", rss_per_rank[static_cast<size_t>(r)])
                             .add("shard_bytes", shard_bytes[static_cast<size_t>(r)])
                             .add("phase_seconds", secs));
    }
    JsonObject root;
    root.add("version", SPELLCHECK_VERSION)
        .add("mode", opt.words_mode ? "words" : "documents")
        .add("ranks", comm.size())
        .add("threads", threads)
        .add("options", options)
        .add("phases", ph)
        .add("counts", counts)
        .add("phase_traffic", phase_traffic_totals_json(phases))
        .add("per_rank", per_rank);
    try {
      write_file_atomically(opt.stats, root.str() + "\n");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "spellcheck: error: --stats: %s\n", e.what());
      return kExitFailure;
    }
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  // Keep freed memory for reuse instead of returning it to the system: the
  // phases free and allocate buffers of similar sizes in turn, and a page
  // touched for the first time is expensive (a fault, zeroing, and on a VM
  // the host's own fault).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mpi::Environment env(argc, argv, MPI_THREAD_SERIALIZED);
  install_removal_on_signal();
  try {
    return run(argc, argv, env.provided());
  } catch (const Stop& s) {
    return s.code;
  } catch (const std::exception& e) {
    // A failure outside a step (between collectives, or an MPI error): the
    // other ranks may be waiting in a collective already, so the whole job
    // ends here, with the status the error stands for.
    mpi::abort_job(e.what(), exit_code_of(e));
  }
}
