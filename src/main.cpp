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

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>

#include "spellcheck/comm/exchange.hpp"
#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/cpus.hpp"
#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/fault.hpp"
#include "spellcheck/common/huge_pages.hpp"
#include "spellcheck/common/options.hpp"
#include "spellcheck/common/removal_on_signal.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/compile_cache.hpp"
#include "spellcheck/dictionary/compiled_dictionary.hpp"
#include "spellcheck/dictionary/compiled_hunspell.hpp"
#include "spellcheck/dictionary/data_files.hpp"
#include "spellcheck/dictionary/filters.hpp"
#include "spellcheck/dictionary/frequencies.hpp"
#include "spellcheck/dictionary/hunspell_dictionary.hpp"
#include "spellcheck/dictionary/personal_words.hpp"
#include "spellcheck/dictionary/shard.hpp"
#include "spellcheck/dictionary/stem_file.hpp"
#include "spellcheck/input/document_reader.hpp"
#include "spellcheck/input/input_plan.hpp"
#include "spellcheck/input/line_marks.hpp"
#include "spellcheck/input/markup_filter.hpp"
#include "spellcheck/input/reader.hpp"
#include "spellcheck/input/stream_input.hpp"
#include "spellcheck/output/fixed_text.hpp"
#include "spellcheck/output/per_document.hpp"
#include "spellcheck/output/ranked_report.hpp"
#include "spellcheck/output/report.hpp"
#include "spellcheck/output/sorted_output.hpp"
#include "spellcheck/output/stats.hpp"
#include "spellcheck/output/timing.hpp"
#include "spellcheck/suggest/compound_suggestions.hpp"
#include "spellcheck/suggest/context.hpp"
#include "spellcheck/suggest/hunspell_judge.hpp"
#include "spellcheck/suggest/judge.hpp"
#include "spellcheck/suggest/likely_replacements.hpp"
#include "spellcheck/suggest/ranked_lookup.hpp"
#include "spellcheck/suggest/suggest.hpp"

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

// A hunspell .dic whose .aff is missing: named .dic, its first line a count.
bool looks_like_hunspell_dic(const std::string& path, std::string_view bytes) {
  if (path.size() < 4 || path.compare(path.size() - 4, 4, ".dic") != 0) return false;
  const std::string_view first = bytes.substr(0, bytes.find('\n'));
  return !first.empty() && valid_stem_count(first) &&
         first.find_first_not_of("0123456789 \t\r") == std::string_view::npos;
}

// Entries equal to a word of `gone` (an --extra-dict's `*word`) taken out.
void remove_words(Routed& shard_words, const WordList& gone) {
  if (gone.empty()) return;
  std::unordered_set<std::string_view> out;
  for (size_t i = 0; i < gone.size(); ++i) out.insert(gone[i]);
  WordList kept;
  std::vector<uint64_t> hashes;
  for (size_t i = 0; i < shard_words.words.size(); ++i)
    if (!out.count(shard_words.words[i])) {
      kept.push_back(shard_words.words[i]);
      hashes.push_back(shard_words.hashes[i]);
    }
  shard_words.words = std::move(kept);
  shard_words.hashes = std::move(hashes);
}

// Hashes words in parallel (the one hash each word ever gets on this rank).
std::vector<uint64_t> hash_words(const WordList& w) {
  std::vector<uint64_t> h(w.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < w.size(); ++i) h[i] = word_hash(w[i]);
  return h;
}

// The shipped frequency list: next to an installed binary, beside the
// sources, or where the build said it would be installed.
std::string default_frequencies() { return find_data_file("freq/en-80k.txt"); }

// A hunspell dictionary's shipped frequency list: by its LANG, else by the
// .dic's name (de_DE.dic -> de); "" when none ships.
std::string language_frequencies(const std::string& lang, const std::string& dic_path) {
  std::string language = language_of(lang);
  if (language.empty()) {
    const size_t slash = dic_path.find_last_of('/');
    language = language_of(dic_path.substr(slash == std::string::npos ? 0 : slash + 1));
  }
  for (const char* size : {"100k", "80k", "50k"}) {
    std::string found = find_data_file("freq/" + language + "-" + size + ".txt");
    if (!found.empty()) return found;
  }
  return "";
}

// What --index-cache did (on rank 0; --stats adds the ranks up): the
// dictionary read from its compiled file there, or compiled into it first.
struct CompileCacheUse {
  uint64_t read = 0, written = 0;
};

// One run of the program, phase by phase (run() below lists them). Each
// phase keeps what the later ones need in members and drops the rest.
class Pipeline {
 public:
  Pipeline(mpi::Comm& comm, Run& run, const Options& opt, CompileCacheUse cache_use = {})
      : comm_(comm),
        run_(run),
        opt_(opt),
        rank_(comm.rank()),
        t0_(mpi::now()),
        traffic0_(mpi::traffic()),
        cache_use_(cache_use) {}

  // The input plan (files in byte-wise path order, sizes) is made once on
  // rank 0 and broadcast, so every rank cuts the same stream. Rank 0 keeps
  // its own plan: it holds the stream inputs' bytes.
  void plan_inputs() {
    std::string plan_bytes;
    run_.step([&] {
      if (rank_ != 0) return;
      plan_ = make_input_plan(opt_.inputs, PlanOptions{opt_.hidden, opt_.binary, opt_.exclude});
      if (!opt_.fix_dir.empty() &&
          std::any_of(plan_.files.begin(), plan_.files.end(), [](const InputFile& f) { return f.stream; }))
        throw UsageError("--fix: a pipe or standard input cannot be rewritten");
      if (opt_.verbose)
        for (const std::string& path : plan_.binary_paths)
          std::fprintf(stderr, "spellcheck: skipped binary file '%s'\n", path.c_str());
      plan_bytes = serialize_input_plan(plan_);
    });
    plan_bytes = mpi::broadcast(comm_, plan_bytes);
    if (rank_ != 0) plan_ = deserialize_input_plan(plan_bytes);
    set_markup(plan_, opt_.filters, opt_.formats);
    progress_ = rank_ == 0 ? progress_mode(opt_.progress) : ProgressMode::off;
    t0_ = mpi::now();
    traffic0_ = mpi::traffic();
  }

  // Opened before any work, so that an unwritable target fails at once;
  // unnamed until the output is written (sorted_output.hpp).
  void open_outputs() {
    run_.step([&] {
      if (rank_ != 0) return;
      out_ = std::make_unique<OutputFile>(opt_.output);
      if (!opt_.report.empty()) report_ = std::make_unique<OutputFile>(opt_.report);
      if (per_document()) per_document_ = std::make_unique<OutputFile>(opt_.per_document);
      if (!opt_.fix_dir.empty()) make_fix_folder(opt_.fix_dir);
    });
  }

  // Dictionary: each rank reads a share, ships the entries to their owners
  // (xxHash shards) and indexes its shard.
  void load_dictionary() {
    if (is_compiled_dictionary(opt_.dictionary)) {
      load_compiled_dictionary();
      return;
    }
    if (is_hunspell_dictionary(opt_.dictionary)) {
      load_hunspell_dictionary();
      return;
    }
    WordList entries;
    std::vector<uint64_t> entry_hashes;
    {
      PhaseTimer pt(t_, "read");
      run_.step([&] {
        TextChunk chunk = read_line_share(comm_, opt_.dictionary);
        fault::point("read", rank_);
        // A hunspell .dic read as a word list would check against its count
        // line and flag fields: refused (a word list named .dic still reads).
        if (rank_ == 0 && looks_like_hunspell_dic(opt_.dictionary, chunk.bytes))
          throw InputError(opt_.dictionary + ":1: a hunspell .dic (its first line counts the entries) without " +
                           affix_path_of(opt_.dictionary) + " beside it");
        entries = lines_to_words(std::move(chunk.bytes), SIZE_MAX, nullptr);
        entry_hashes = hash_words(entries);
      });
    }
    dictionary_entries_ = mpi::allreduce_sum(comm_, entries.size());
    run_.step([&] {
      if (dictionary_entries_ == 0) throw InputError("dictionary '" + opt_.dictionary + "' has no entry");
    });
    Routed shard_words;
    {
      PhaseTimer pt(t_, "shuffle");
      fault::point("shuffle", rank_);
      shard_words = route_by_owner(comm_, std::move(entries), std::move(entry_hashes));
    }
    add_extra_words(shard_words);
    index_shard(std::move(shard_words));
  }

  // --extra-dict: more entries; `*word` lines take words out.
  void add_extra_words(Routed& shard_words) {
    if (opt_.extra_dicts.empty()) return;
    PlainExtraWords extra;
    run_.step([&] { extra = read_plain_extra_words(comm_, opt_.extra_dicts); });
    PhaseTimer pt(t_, "shuffle");
    auto add_hashes = hash_words(extra.add);
    Routed added = route_by_owner(comm_, std::move(extra.add), std::move(add_hashes));
    shard_words.words.append(std::move(added.words));
    shard_words.hashes.insert(shard_words.hashes.end(), added.hashes.begin(), added.hashes.end());
    auto forbid_hashes = hash_words(extra.forbid);
    const Routed forbidden = route_by_owner(comm_, std::move(extra.forbid), std::move(forbid_hashes));
    remove_words(shard_words, forbidden.words);
  }

  // This rank's entries into its shard (and what ranked mode, --per-document
  // and compile keep of them).
  void index_shard(Routed shard_words) {
    if (opt_.ranked) ranked_entries_ = shard_words.words;
    if (opt_.compile) compiled_entries_ = shard_words;
    if (per_document()) build_known_words(shard_words);
    PhaseTimer pt(t_, "index");
    run_.step([&] {
      fault::point("index", rank_);
      shard_->build(std::move(shard_words.words), std::move(shard_words.hashes), !filters_read_);
    });
  }

  // A compiled dictionary: this rank's buckets and the filters, read as
  // they are (compiled_dictionary.hpp). Words an --extra-dict adds are not
  // in the compiled filters: they are built again then.
  void load_compiled_dictionary() {
    CompiledShare share;
    {
      PhaseTimer pt(t_, "read");
      run_.step([&] {
        fault::point("read", rank_);
        share = read_compiled_dictionary(opt_.dictionary, rank_, comm_.size());
      });
    }
    dictionary_entries_ = share.total_entries;
    // Its other sections are read through one more descriptor: the
    // hunspell dictionary's now, the ranked index's after judging.
    if ((share.ranked_bytes > 0 && opt_.ranked) || share.hunspell_bytes > 0) {
      uint64_t size = 0;
      run_.step([&] { compiled_ranked_.read = file_reader(opt_.dictionary, size); });
      compiled_ranked_.name = opt_.dictionary;
      compiled_ranked_.at = share.ranked_at;
      compiled_ranked_.bytes = opt_.ranked ? share.ranked_bytes : 0;
    }
    if (share.hunspell_bytes > 0) {
      load_compiled_hunspell(
          HunspellSection{compiled_ranked_.read, opt_.dictionary, share.hunspell_at, share.hunspell_bytes});
      return;
    }
    Routed shard_words{std::move(share.entries), std::move(share.hashes), {}};
    add_extra_words(shard_words);
    if (opt_.extra_dicts.empty()) {
      filter_ = std::move(share.bloom);
      trigrams_ = share.trigrams;
      affixes_ = std::move(share.affixes);
      filters_read_ = true;
    }
    index_shard(std::move(shard_words));
  }

  // A compiled hunspell dictionary: this rank's neighbourhoods and the
  // filter, read as they are (compiled_hunspell.hpp).
  void load_compiled_hunspell(const HunspellSection& section) {
    PhaseTimer pt(t_, "read");
    std::vector<std::string> warnings;
    run_.step([&] {
      if (!opt_.extra_dicts.empty())
        throw InputError(opt_.dictionary + ": a compiled hunspell dictionary takes no --extra-dict at run time " +
                         "(give them to compile)");
      CompiledHunspellPart part = read_compiled_hunspell(section, rank_, comm_.size());
      hunspell_stats_ = part.stats;
      hunspell_ = HunspellDictionary::from_parts(part.dic_path, part.aff, std::move(part.entries), part.pairs,
                                                 std::move(part.filter), rank_, comm_.size(), warnings);
      hunspell_stats_.bytes_local = hunspell_->local().bytes();
    });
    compiled_hunspell_ = section;
    if (rank_ == 0 && !opt_.quiet)
      for (const std::string& w : warnings) std::fprintf(stderr, "spellcheck: warning: %s\n", w.c_str());
    dictionary_entries_ = hunspell_stats_.stems;
  }

  bool hunspell() const { return hunspell_ != nullptr; }
  // English words: a word list, or a hunspell dictionary of English (the
  // channel's weights and phonetic keys were fitted on English).
  bool english() const {
    if (!hunspell()) return true;
    const std::string& lang = hunspell_->rules().lang;
    const size_t slash = hunspell_->path().find_last_of('/');
    const std::string name = hunspell_->path().substr(slash == std::string::npos ? 0 : slash + 1);
    return language_of(lang.empty() ? name : lang) == "en";
  }
  const ChannelWeights& weights() const { return english() ? channel_weights() : language_channel_weights(); }

  // The filters every rank probes before asking an owner.
  void build_filters() {
    if (hunspell() || filters_read_) return;  // hunspell's filter is built with it
    PhaseTimer pt(t_, "filter");
    fault::point("filter", rank_);
    filter_ = build_filter(comm_, *shard_, opt_.filter_bits, opt_.filter_exchange);
    trigrams_ = build_trigram_filter(comm_, *shard_);
    if (opt_.affix_filter) affixes_ = build_affix_filter(comm_, *shard_);
  }

  // Input words: each rank takes a share of the input, and every word goes
  // to its owner (in document mode with its occurrence count and first
  // position, summed and minimised at the owner).
  void read_input() {
    if (opt_.words_mode) {
      // Rank 0 read the stream inputs meanwhile, in threads: wait for them.
      run_.step([&] {
        if (rank_ == 0) finish_stream_reads(plan_);
      });
      read_word_lists();
    } else {
      read_documents();
    }
  }

  // The owners judge their words against their shards.
  void judge_words() {
    PhaseTimer pt(t_, "judge");
    if (hunspell()) {
      judge_hunspell();
      return;
    }
    run_.step([&] {
      fault::point("judge", rank_);
      // Ranked document mode weighs candidates by how often the collection
      // uses them: the correct words' counts are kept for its index.
      judged_ = judge(*shard_, routed_, opt_.ranked && !opt_.words_mode);
    });
    routed_ = Routed();
    apply_ignore_lists();
    // Ranked mode asks its own index from here on: the shard's memory goes
    // back for the index and the lookups (a page touched afresh is dear).
    if (opt_.ranked) shard_.reset();
  }

  // SPEC mode: every edit-distance-1 candidate looked up at its owner.
  void find_candidates() {
    if (opt_.list_only) return;  // --suggest none: the words alone
    PhaseTimer pt(t_, "candidates");
    if (hunspell()) {
      find_hunspell_candidates();
      return;
    }
    Progress progress(progress_, comm_.size() > 1 ? "candidates (rank 0's share)" : "candidates",
                      judged_.misspelled.size(), "words", opt_.progress_interval);
    // A step: suggest ends the lookup service with the other ranks before it
    // rethrows a failure of its own.
    run_.step([&] {
      suggestions_ = suggest(comm_, *shard_, filter_, opt_.trigram_filter ? &trigrams_ : nullptr,
                             opt_.affix_filter ? &affixes_ : nullptr, judged_.misspelled, opt_.batch_bytes, progress,
                             resolve_comm_thread(opt_.comm_thread, cpus_available()));
    });
    counts_.hits = suggestions_.hits.size();  // local and remote, before the report consumes them
  }

  // --sort count: lines by occurrences (document mode), else SPEC's order.
  LineOrder line_order() const { return {opt_.sort_by_count ? &judged_.occurrences : nullptr}; }

  // SPEC mode: the lines, in SPEC order over all ranks, written.
  void write_spec_output() {
    PhaseTimer pt(t_, "report");
    // The occurrence report carries "count<TAB>first location" per line.
    ExtraFn extra;
    if (report_wanted()) extra = [&](size_t i, std::string& x) { append_occurrences(x, judged_, line_table_, i); };
    std::string run_bytes;
    run_.step([&] {
      fault::point("report", rank_);
      run_bytes = opt_.list_only ? make_word_run(judged_.misspelled, line_order())
                  : hunspell()
                      ? make_run_of_lists(judged_.misspelled, std::move(hunspell_candidates_), extra, line_order())
                      : make_run(judged_.misspelled, suggestions_.hits, extra, line_order());
    });
    suggestions_.hits = {};
    write_runs(std::move(run_bytes), false);
  }

  // SPEC mode: every misspelled word is reported.
  void write_spec_per_document() { write_per_document(judged_.misspelled, ignored_words_); }

  // --per-document: each document's figures, the words this run reports
  // counted as misspelled. Every rank gives the ones it judged: those it
  // reports, and the misspelled ones it does not (--ignore, accepted).
  void write_per_document(const WordList& reported, const WordList& unreported) {
    if (!per_document()) return;
    PhaseTimer pt(t_, "documents");
    // Documents counted with the dictionary's words left out hold
    // misspelled words only.
    const bool misspelled_only = !count_documents_again_if_needed(reported);
    const ReportedWords words{misspelled_only ? &unreported : &reported, misspelled_only};
    std::string lines = per_document_lines(comm_, plan_, line_table_, documents_, words, opt_.per_document_top);
    documents_ = DocumentParts();
    run_.step([&] {
      if (rank_ != 0) return;
      per_document_->write(lines);
      per_document_->commit();
    });
  }

  // --context: ranked document mode, inputs that can be read again (not
  // pipes: said so, and ranked without; --fix was refused in plan_inputs).
  bool context_wanted() const {
    if (!opt_.ranked || opt_.words_mode || !opt_.context) return false;
    const bool stream =
        std::any_of(plan_.files.begin(), plan_.files.end(), [](const InputFile& f) { return f.stream; });
    if (stream && rank_ == 0)
      std::fputs("spellcheck: --context: a pipe or standard input is read once: ranked without context\n", stderr);
    return !stream;
  }

  // --merge: where merges are reported (jsonl, --report), not in --fix.
  bool merge_wanted() const { return opt_.merge && (opt_.jsonl || report_wanted()) && opt_.fix_dir.empty(); }
  MergeParams merge_params() const { return {.enabled = merge_wanted(), .together_ratio = opt_.merge_ratio}; }

  // The misspelled words' candidates weighed by their neighbours: one more
  // pass over the documents (context.hpp).
  void weigh_in_context(RankedResults& ranked, std::vector<WordCount>& word_counts) {
    PhaseTimer pt(t_, "context");
    // The misspelled words' counts came last: those accepted by their case
    // are words of the dictionary too.
    const size_t misspelled_from = word_counts.size() - ranked.size();
    for (size_t i = 0; i < ranked.size(); ++i) word_counts[misspelled_from + i].correct = ranked.accepted(i);
    const ObservedPass pass = [&](TokenObserver& observer, bool marks) {
      ReaderTuning tuning;
      tuning.observer = &observer;
      tuning.count_words = false;
      tuning.line_marks = marks;
      tuning.filters = opt_.filters;
      tuning.formats = opt_.formats;
      LocalWords local;
      run_.step([&] {
        local = ingest_document_words(comm_, plan_, opt_.max_word_length, omp_get_max_threads(), {}, tuning);
      });
      return std::move(local.line_units);
    };
    ContextParams params;
    params.weight = opt_.context_weight;
    params.split = {.enabled = opt_.split,
                    .frequency_total = opt_.split ? frequency_total() : 0,
                    .weights = weights(),
                    .top = opt_.top};
    params.merge = merge_params();
    params.places = opt_.jsonl || report_wanted() || !opt_.fix_dir.empty();
    if (opt_.merge && !params.merge.enabled && rank_ == 0 && !opt_.quiet)
      std::fputs("spellcheck: --merge: merges are listed with --format jsonl or --report, never applied by --fix\n",
                 stderr);
    if (params.merge.enabled)
      for (size_t i = 0; i < ranked.size(); ++i)
        if (ranked.accepted(i)) joins_.add(judged_.misspelled[i], judged_.occurrences[i], params.merge);
    context_ = rank_in_context(comm_, judged_.misspelled, ranked, word_counts, joins_, omp_get_max_threads(), pass,
                               params, context_figures_);
    joins_ = JoinWords();
    context_lines_ = gather_line_table(comm_, plan_, context_.line_units);
    context_done_ = true;
  }

  // --fix: the documents rewritten with the corrections that win by the
  // margin; the output lists the changes.
  void write_fixed_text(const RankedResults& ranked) {
    PhaseTimer pt(t_, "fix");
    const auto min_margin = static_cast<int64_t>(std::llround(opt_.fix_margin * 1000.0));
    std::vector<TextFix> mine =
        route_fixes(comm_, fixes_in_context(plan_, context_lines_, judged_.misspelled, ranked, context_, min_margin));
    std::vector<TextFix> made;
    FixCounts fixed;
    run_.step([&] { made = write_fixed_files(plan_, opt_.fix_dir, rank_, comm_.size(), std::move(mine), fixed); });
    const std::string changes = change_list(comm_, plan_, made);
    std::vector<uint64_t> sums{fixed.files_written, fixed.fixes, fixed.stale, fixed.files_not_rewritten, fixed.in_code};
    mpi::allreduce_sum(comm_, sums);
    run_.step([&] {
      if (rank_ != 0) return;
      out_->write(changes);
      out_->commit();
      if (!opt_.quiet)
        std::fprintf(stderr,
                     "[spellcheck] fixed %llu occurrences in %llu files under %s (%llu not: the text there differed; "
                     "%llu inside code; %llu compressed files not rewritten)\n",
                     static_cast<unsigned long long>(sums[1]), static_cast<unsigned long long>(sums[0]),
                     opt_.fix_dir.c_str(), static_cast<unsigned long long>(sums[2]),
                     static_cast<unsigned long long>(sums[4]), static_cast<unsigned long long>(sums[3]));
    });
  }

  // --merge: each merge a line after the misspelled words' (the pair
  // apart as its word, the join its one suggestion, its places).
  void add_merge_lines(RankedResults& ranked) {
    for (const Merge& m : context_.merges) {
      const size_t i = judged_.misspelled.size();
      judged_.misspelled.push_back(m.apart);
      judged_.occurrences.push_back(m.places.size());
      ranked.start(ranked.push_word());
      ranked.add(i, m.together, m.score, 1);
      for (const auto& [position, mark] : m.places)
        context_.occurrences.push_back({position, mark, static_cast<uint32_t>(i), 0, ContextOccurrence::kAlone});
    }
    context_.merges = {};
  }

  // Ranked lines (text or jsonl) and the report; words from words_judged
  // on are merges.
  void write_ranked_lines(const RankedResults& ranked, size_t words_judged) {
    PhaseTimer pt(t_, "report");
    ExtraFn extra;
    if (report_wanted())
      extra = [&](size_t i, std::string& x) {
        if (i < words_judged) {
          append_occurrences(x, judged_, line_table_, i);
        } else {
          const ContextOccurrence& first = context_.of(i).front();
          x += std::to_string(judged_.occurrences[i]);
          x += '\t';
          append_location(x, context_lines_.locate(first.position, first.mark));
        }
        x += '\t';
        for (size_t k = 0; k < ranked.candidates(i); ++k) {
          if (k) x += ' ';
          x += ranked.word(i, k);
        }
        if (context_done_) {
          x += '\t';
          append_bests_by_place(x, context_, context_lines_, ranked, i);
        }
      };
    ExtraFn json_fields;
    if (context_done_)
      json_fields = [&](size_t i, std::string& x) {
        if (i >= words_judged) x += ",\"merge\":true";
        append_in_context(x, context_, context_lines_, ranked, i);
      };
    std::string run_bytes;
    run_.step([&] {
      fault::point("report", rank_);
      run_bytes = make_ranked_run(judged_.misspelled, ranked, opt_.jsonl ? OutputFormat::jsonl : OutputFormat::text,
                                  opt_.words_mode ? std::vector<uint64_t>{} : judged_.occurrences, extra, line_order(),
                                  json_fields);
    });
    write_runs(std::move(run_bytes), true);
  }

  // Ranked mode, from the judged words on: the index (built only in this
  // mode), the lookups, the lines. Returns the exit status.
  int ranked() {
    const bool in_context = context_wanted();
    std::vector<WordCount> word_counts;  // (before the index takes the correct words' counts)
    if (in_context) {
      add_context_word_counts(judged_.correct, judged_.correct_occurrences, true, word_counts);
      add_context_word_counts(judged_.misspelled, judged_.occurrences, false, word_counts);
    }
    if (in_context && merge_wanted()) joins_.add(judged_.correct, judged_.correct_occurrences, merge_params());
    build_ranked_index();
    RankedResults ranked;
    RankedCounts counts;
    {
      PhaseTimer pt(t_, "ranked");
      // Not a step: its rounds of exchanges are not balanced when a rank
      // throws half-way (main aborts the job then).
      ranked = ranked_index_.suggest(comm_, judged_.misspelled, weights(), counts);
      // Compounds are no entries: a typo in one part is mended part by part.
      if (hunspell() && hunspell_->rules().compounding()) {
        CompoundCounts compound;
        const size_t min_part = static_cast<size_t>(std::max(2, hunspell_->rules().compound_min));
        add_compound_suggestions(comm_, *judge_, ranked_index_, judged_.misspelled, weights(), opt_.top, min_part,
                                 ranked, compound);
        add_edit_suggestions(*judge_, judged_.misspelled, weights(), opt_.top, ranked, compound);
      }
    }
    if (in_context) weigh_in_context(ranked, word_counts);
    uint64_t accepted = 0;
    for (size_t i = 0; i < ranked.size(); ++i) accepted += ranked.accepted(i);
    const size_t words_judged = judged_.misspelled.size();  // (the merges' lines follow them)
    if (context_done_ && !opt_.fix_dir.empty()) {
      write_fixed_text(ranked);
    } else {
      add_merge_lines(ranked);
      write_ranked_lines(ranked, words_judged);
    }
    if (per_document()) {
      WordList reported, unreported = ignored_words_;  // ranked mode does not report the words it accepts
      for (size_t i = 0; i < words_judged; ++i)
        (ranked.accepted(i) ? unreported : reported).push_back(judged_.misspelled[i]);
      write_per_document(reported, unreported);
    }
    t_.add("total", mpi::now() - t0_, mpi::traffic() - traffic0_);
    return report_ranked_run(counts, accepted, words_judged);
  }

  // Collective: the ranked run's figures on stderr (and --stats); returns
  // the exit status.
  int report_ranked_run(const RankedCounts& counts, uint64_t accepted, size_t words_judged) {
    RankedRun r;
    r.phases = summarize(comm_, t_);
    r.counts =
        RankedTotals{judged_.distinct,        words_judged,           accepted,           counts.delete_lookups,
                     counts.deletes_filtered, counts.entries_checked, counts.found,       ranked_index_.entries(),
                     counts.postings,         counts.buckets_asked,   counts.sound_words, cache_use_.read,
                     cache_use_.written};
    allreduce_counts(comm_, r.counts);
    RankFigures mine;
    mine.ranked_index_bytes = ranked_index_.bytes();
    mine.peak_rss_bytes = peak_rss_bytes();
    r.per_rank = allgather_figures(comm_, mine);
    if (context_done_) r.context = allgather_figures(comm_, context_figures_);
    r.input_bytes = mpi::allreduce_sum(comm_, counts_.input_bytes);
    r.hunspell = hunspell();
    if (hunspell()) r.hunspell_figures = hunspell_figures();
    return with_misspellings(report_run(r), r.counts.unknown - r.counts.accepted_by_case);
  }

  // Collective: a hunspell dictionary's totals and the checks' rounds.
  HunspellFigures hunspell_figures() const {
    HunspellFigures h;
    const HunspellLoadStats& s = hunspell_stats_;
    h.stems = s.stems;
    h.entries = s.entries;
    h.forms = s.forms;
    h.keys = s.keys;
    h.suggestable = s.suggestable;
    const HunspellCheckCounts c = judge_ ? judge_->counts() : HunspellCheckCounts{};
    HunspellFigures summed;
    summed.checks = c.checks;
    summed.rechecks = c.rechecks;
    summed.keys_asked = c.keys_asked;
    summed.keys_served = c.keys_served;
    allreduce_counts(comm_, summed);
    h.checks = summed.checks;
    h.rechecks = summed.rechecks;
    h.keys_asked = summed.keys_asked;
    h.keys_served = summed.keys_served;
    h.rounds = mpi::allreduce_max(comm_, c.rounds);
    return h;
  }

  // spellcheck compile: the dictionary as a run loads it, the filters over
  // the whole of it, written by rank 0 into one file (compiled_dictionary.hpp).
  int compile() {
    run_.step([&] {
      if (is_compiled_dictionary(opt_.dictionary))
        throw InputError(opt_.dictionary +
                         ": already a compiled dictionary (compile reads word lists and hunspell "
                         "dictionaries)");
    });
    load_dictionary();
    const uint32_t buckets = opt_.buckets != 0 ? opt_.buckets : kDefaultCompiledBuckets;
    const std::string freq_path = opt_.compile_ranked ? frequency_path() : std::string();
    const CompiledParts parts = hunspell() ? compiled_hunspell_parts(buckets) : compiled_word_list_parts();
    PhaseTimer pt(t_, "write");
    uint64_t file_bytes = 0;
    run_.step([&] {
      if (rank_ != 0) return;
      const std::string ranked =
          opt_.compile_ranked ? compiled_ranked_index(parts.ranked_entries, buckets, freq_path) : std::string();
      const std::string bytes =
          compiled_dictionary_bytes(parts.entries, parts.hashes, {&parts.bloom, &trigrams_, &affixes_}, buckets,
                                    compile_description(), parts.hunspell, ranked);
      out_->write(bytes);
      out_->commit();
      file_bytes = bytes.size();
    });
    t_.add("total", mpi::now() - t0_, mpi::traffic() - traffic0_);
    if (rank_ == 0 && !opt_.quiet)
      std::fprintf(stderr, "spellcheck: compiled %llu entries into %s (%.1f MB, %u buckets) in %.3f s\n",
                   static_cast<unsigned long long>(dictionary_entries_), opt_.output.c_str(),
                   static_cast<double>(file_bytes) / 1e6, buckets, mpi::now() - t0_);
    return kExitOk;
  }

  // What compile writes, on rank 0: a word list's entries with their
  // hashes and its filters, or a hunspell dictionary's section (and empty
  // word-list parts); the entries of the ranked index.
  struct CompiledParts {
    WordList entries;
    std::vector<uint64_t> hashes;
    BloomFilter bloom{1, 1};
    std::string hunspell;
    WordList ranked_entries;
  };

  CompiledParts compiled_word_list_parts() {
    CompiledParts parts;
    {
      PhaseTimer pt(t_, "filter");
      parts.bloom = build_filter(comm_, *shard_, opt_.filter_bits, FilterExchange::allreduce);
      trigrams_ = build_trigram_filter(comm_, *shard_);
      affixes_ = build_affix_filter(comm_, *shard_);
    }
    mpi::Gathered words = mpi::gather_bytes(comm_, compiled_entries_.words.bytes);
    const mpi::Gathered hashes = mpi::gather_bytes(
        comm_, {reinterpret_cast<const char*>(compiled_entries_.hashes.data()), compiled_entries_.hashes.size() * 8});
    if (rank_ != 0) return parts;
    parts.entries.bytes = std::move(words.bytes);
    parts.entries.index();
    parts.hashes.resize(hashes.bytes.size() / sizeof(uint64_t));
    if (!parts.hashes.empty())
      std::memcpy(parts.hashes.data(), hashes.bytes.data(), parts.hashes.size() * sizeof(uint64_t));
    if (opt_.compile_ranked) parts.ranked_entries = parts.entries;
    return parts;
  }

  CompiledParts compiled_hunspell_parts(uint32_t buckets) {
    CompiledParts parts;
    affixes_ = AffixFilter(1);
    parts.hunspell = compiled_hunspell_section(comm_, *hunspell_, ranked_entries_, hunspell_stats_, buckets,
                                               opt_.filter_bits, &parts.ranked_entries);
    return parts;
  }

  // compile: the ranked index of the whole dictionary, built by rank 0 alone
  // (compiled_ranked_index.cpp), with the frequency list a run would read.
  std::string compiled_ranked_index(const WordList& entries, uint32_t buckets, const std::string& freq_path) {
    FrequencyList freq;
    uint64_t digest = 0;
    if (!freq_path.empty()) freq = read_frequency_file(freq_path, digest);
    return RankedIndex::compiled_section(entries, std::move(freq), ranked_params(),
                                         static_cast<unsigned>(std::countr_zero(buckets)), digest);
  }

  // What a compiled file was made from (its sources and the options that
  // shape its filters), for a person reading it.
  std::string compile_description() const {
    std::string d = "spellcheck " SPELLCHECK_VERSION "\ndictionary " + opt_.dictionary + "\n";
    for (const std::string& e : opt_.extra_dicts) d += "extra-dict " + e + "\n";
    d += "filter-bits " + std::to_string(opt_.filter_bits) + "\n";
    return d;
  }

  // SPEC mode's timing lines, summary and --stats. Returns the exit status.
  int spec_diagnostics() {
    t_.add("total", mpi::now() - t0_, mpi::traffic() - traffic0_);
    const mpi::Traffic traffic = mpi::traffic();  // before the diagnostics' own
    SpecRun r;
    r.phases = summarize(comm_, t_);
    SpecCounts& c = counts_;
    const SuggestCounts& s = suggestions_.counts;
    c.distinct = judged_.distinct;
    c.misspelled = judged_.misspelled.size();
    c.generated = s.generated;
    c.pruned = s.pruned;
    c.filter_rejected = s.filter_rejected;
    c.local_lookups = s.local_lookups;
    c.remote_lookups = s.remote_lookups;
    c.messages_sent = traffic.messages;  // the lookup service's included
    c.bytes_sent = traffic.bytes;
    r.counts = c;
    allreduce_counts(comm_, r.counts);
    const uint64_t shard_entries = hunspell() ? hunspell_->local().entries() : shard_->entries();
    r.shard_entries_min = mpi::allreduce_min(comm_, shard_entries);
    r.shard_entries_max = mpi::allreduce_max(comm_, shard_entries);
    RankFigures mine;
    mine.messages_sent = traffic.messages;
    mine.bytes_sent = traffic.bytes;
    mine.messages_received = traffic.messages_received;
    mine.bytes_received = traffic.bytes_received;
    mine.peak_rss_bytes = peak_rss_bytes();
    mine.shard_bytes = hunspell() ? hunspell_->local().bytes() : shard_->raw_bytes();
    r.per_rank = allgather_figures(comm_, mine);
    r.dictionary_entries = dictionary_entries_;
    r.input_files = plan_.files.size();
    r.skipped_binary_in_walk = plan_.skipped_binary;
    r.skipped_hidden = plan_.skipped_hidden;
    r.skipped_excluded = plan_.skipped_excluded;
    r.filter_bytes_per_rank = hunspell() ? hunspell_->filter_bytes() : filter_.bytes();
    r.hunspell = hunspell();
    if (hunspell()) r.hunspell_figures = hunspell_figures();
    r.affix_filter_bytes = affixes_.bytes();
    return with_misspellings(report_run(r), r.counts.misspelled);
  }

  // --exit-status: a run that went well says whether it found misspelled
  // words (the totals are summed on every rank: every rank says it).
  int with_misspellings(int status, uint64_t misspelled) const {
    return opt_.exit_status && status == kExitOk && misspelled > 0 ? kExitMisspelled : status;
  }

 private:
  bool report_wanted() const { return !opt_.report.empty(); }
  bool per_document() const { return !opt_.per_document.empty(); }

  // A hunspell .dic and its .aff (hunspell_dictionary.hpp): parsed,
  // expanded and spread over the ranks.
  void load_hunspell_dictionary() {
    PhaseTimer pt(t_, "read");
    std::vector<std::string> warnings;
    HunspellLoadStats stats;
    run_.step([&] {
      fault::point("read", rank_);
      HunspellLoadOptions load;
      load.filter_bits = opt_.filter_bits;
      load.forms = opt_.ranked || opt_.compile;  // (compile keeps them for ranked runs)
      load.extra_dicts = opt_.extra_dicts;
      hunspell_ = HunspellDictionary::load(comm_, opt_.dictionary, warnings, stats, load);
    });
    if (rank_ == 0 && !opt_.quiet)
      for (const std::string& w : warnings) std::fprintf(stderr, "spellcheck: warning: %s\n", w.c_str());
    dictionary_entries_ = stats.stems;
    hunspell_stats_ = stats;
    // Ranked mode's index: the forms a suggestion may offer.
    if (opt_.ranked || opt_.compile) ranked_entries_ = hunspell_->take_suggestable_forms();
    run_.step([&] {
      if (dictionary_entries_ == 0) throw InputError("dictionary '" + opt_.dictionary + "' has no entry");
    });
  }

  // Each word's home: the rank of its fold key (a hunspell dictionary).
  std::vector<uint64_t> home_keys(const WordList& w) const {
    std::vector<uint64_t> h(w.size());
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < w.size(); ++i) h[i] = hunspell_->home_key(w[i]);
    return h;
  }

  // Not a step: its rounds of exchanges are collective (a rank that throws
  // half-way ends the job, as ranked mode's lookups do).
  void judge_hunspell() {
    fault::point("judge", rank_);
    judge_ = std::make_unique<HunspellJudge>(comm_, *hunspell_);
    judged_ = judge_with(routed_, opt_.ranked && !opt_.words_mode, [&](const Groups& g, std::vector<char>& wrong) {
      std::vector<std::string_view> words(g.first.size());
      for (size_t k = 0; k < words.size(); ++k) words[k] = routed_.words[g.first[k]];
      const std::vector<uint8_t> ok = judge_->check(words);
      for (size_t k = 0; k < ok.size(); ++k) wrong[k] = ok[k] ? 0 : 1;
    });
    routed_ = Routed();
    apply_ignore_lists();
  }

  // --ignore: words never reported, sent to the ranks that judged them.
  void apply_ignore_lists() {
    if (opt_.ignore_lists.empty()) return;
    WordList words;
    run_.step([&] { words = read_ignore_words(comm_, opt_.ignore_lists); });
    auto keys = hunspell() ? home_keys(words) : hash_words(words);
    Routed mine = route_by_owner(comm_, std::move(words), std::move(keys));
    drop_ignored(judged_, mine.words);
    if (per_document()) ignored_words_ = std::move(mine.words);
  }

  void find_hunspell_candidates() {
    Progress progress(progress_, comm_.size() > 1 ? "candidates (rank 0's share)" : "candidates",
                      judged_.misspelled.size(), "words", opt_.progress_interval);
    hunspell_candidates_ = judge_->candidates(judged_.misspelled, std::max<size_t>(1, opt_.batch_bytes * 4),
                                              [&](size_t done) { progress.advance_to(done); });
    for (const auto& c : hunspell_candidates_) counts_.hits += c.size();
  }

  void read_word_lists() {
    WordList words;
    {
      PhaseTimer pt(t_, "read");
      // One step per file: every rank opens (collectively) the same files,
      // and a rank that fails leaves no collective behind.
      for (const auto& file : plan_.files) {
        TextChunk chunk;
        const bool at_rank0 = file.stream || file.whole();  // only rank 0 has (or decodes) the bytes
        if (at_rank0) {
          HeldBytes all;
          run_.step([&] {
            if (rank_ == 0) all = whole_input(file);
          });
          chunk = share_lines(comm_, all.bytes);
        }
        run_.step([&] {
          if (!at_rank0) chunk = read_line_share(comm_, file.path);
          fault::point("read", rank_);
          counts_.input_bytes += chunk.bytes.size();
          words.append(lines_to_words(std::move(chunk.bytes), opt_.max_word_length, &counts_.skipped_too_long));
        });
      }
    }
    counts_.tokens = words.size();
    PhaseTimer pt(t_, "route");
    fault::point("route", rank_);
    auto hashes = hunspell() ? home_keys(words) : hash_words(words);
    routed_ = route_by_owner(comm_, std::move(words), std::move(hashes));
  }

  void read_documents() {
    LocalWords local;
    {
      PhaseTimer pt(t_, "ingest");
      Progress progress(progress_, comm_.size() > 1 ? "reading (rank 0's share)" : "reading", 0, "MB",
                        opt_.progress_interval);
      ReaderTuning tuning;
      tuning.line_marks = report_wanted();
      tuning.documents = per_document();
      if (!known_words_.empty()) tuning.known = &known_words_;
      tuning.filters = opt_.filters;
      tuning.formats = opt_.formats;
      run_.step([&] {
        // Stream inputs are tokenized as they arrive (fault point inside).
        local = ingest_document_words(
            comm_, plan_, opt_.max_word_length, omp_get_max_threads(),
            [&](uint64_t done, uint64_t total) {
              progress.set_total(total >> 20);
              progress.advance_to(done >> 20);
            },
            tuning);
      });
      // Records are named by their lines too (--per-document).
      if (tuning.line_marks || tuning.documents) line_table_ = gather_line_table(comm_, plan_, local.line_units);
      if (tuning.documents) documents_ = std::move(local.documents);
      counts_.tokens = local.tokens;
      counts_.skipped_too_long = local.skipped_long;
      counts_.skipped_numbers = local.skipped_numbers;
      counts_.input_bytes = local.bytes_read;
      counts_.binary_files_read = local.binary_paths.size();
      if (opt_.verbose)
        for (const std::string& path : local.binary_paths)
          std::fprintf(stderr, "spellcheck: skipped binary file '%s'\n", path.c_str());
      report_malformed(local.malformed_records, local.malformed_positions);
    }
    PhaseTimer pt(t_, "route");
    fault::point("route", rank_);
    std::vector<std::vector<uint64_t>> values;
    values.push_back(std::move(local.counts));
    values.push_back(std::move(local.first_pos));
    if (report_wanted()) values.push_back(std::move(local.first_mark));
    if (hunspell()) local.hashes = home_keys(local.words);  // a word goes to its fold key's rank
    routed_ = route_by_owner(comm_, std::move(local.words), std::move(local.hashes), std::move(values));
  }

  // --per-document counts only the words that may be misspelled: the
  // dictionary's keys by hash on every rank (known_words.hpp). Not for
  // stream inputs, which cannot be read twice should a hash collide.
  void build_known_words(const Routed& shard_words) {
    for (const InputFile& f : plan_.files)
      if (f.stream) return;
    std::string keys, exact;
    for (size_t i = 0; i < shard_words.words.size(); ++i) {
      wire::append_le<uint64_t>(keys, shard_words.hashes[i]);
      if (!is_ascii_upper(static_cast<unsigned char>(shard_words.words[i][0])))
        wire::append_le<uint64_t>(exact, shard_words.hashes[i]);
    }
    const auto everyone = [&](const std::string& mine) {
      const std::string all = mpi::broadcast(comm_, mpi::gather_bytes(comm_, mine).bytes);
      std::vector<uint64_t> v(all.size() / sizeof(uint64_t));
      size_t at = 0;
      wire::read_array_le_at(all, at, v.data(), v.size(), "known words");
      return v;
    };
    known_words_ = KnownWords(everyone(keys), everyone(exact));
  }

  // A reported word the reader took for known (a hash collision): the
  // documents are read again, every word counted. Returns whether every
  // word was counted.
  bool count_documents_again_if_needed(const WordList& reported) {
    if (known_words_.empty()) return true;
    std::vector<std::string_view> words(reported.size());
    for (size_t i = 0; i < words.size(); ++i) words[i] = reported[i];
    std::vector<uint8_t> known(words.size());
    known_words_.probably_correct(words.data(), words.size(), known.data());
    const bool missed = std::find(known.begin(), known.end(), 1) != known.end();
    if (mpi::allreduce_max(comm_, missed ? 1 : 0) == 0) return false;
    if (rank_ == 0 && opt_.verbose)
      std::fputs("spellcheck: a misspelled word's hash matched a dictionary key: documents counted again\n", stderr);
    ReaderTuning tuning;
    tuning.documents = true;
    tuning.filters = opt_.filters;
    tuning.formats = opt_.formats;
    LocalWords again;
    run_.step(
        [&] { again = ingest_document_words(comm_, plan_, opt_.max_word_length, omp_get_max_threads(), {}, tuning); });
    documents_ = std::move(again.documents);
    return true;
  }

  // Records the corpus filters could not read (a malformed JSON line, a
  // truncated WARC record): a warning with the first one's place, each
  // named with --verbose; with --strict, bad input.
  void report_malformed(uint64_t count, const std::vector<uint64_t>& positions) {
    const uint64_t total = mpi::allreduce_sum(comm_, count);
    if (total == 0) return;
    std::string mine;
    for (const uint64_t pos : positions) wire::append_le<uint64_t>(mine, pos);
    const std::vector<std::string> parts = mpi::gather(comm_, mine);
    run_.step([&] {
      if (rank_ != 0) return;
      std::vector<uint64_t> all;
      for (const std::string& part : parts)
        for (size_t at = 0; at < part.size();) all.push_back(wire::read_le_at<uint64_t>(part, at, "malformed records"));
      std::sort(all.begin(), all.end());
      all.resize(std::min<size_t>(all.size(), MarkupFilter::kMalformedKept));
      const std::vector<Location> where = resolve_locations(plan_, all);
      const auto place = [](const Location& l) { return l.path + ":" + std::to_string(l.line); };
      if (opt_.verbose)
        for (const Location& l : where) std::fprintf(stderr, "spellcheck: %s: malformed record\n", place(l).c_str());
      const std::string first = where.empty() ? std::string("?") : place(where.front());
      if (opt_.formats.strict)
        throw InputError(first + ": malformed record (" + std::to_string(total) + " in all; --strict)");
      if (!opt_.quiet)
        std::fprintf(stderr, "spellcheck: warning: %llu malformed record(s) skipped, the first at %s%s\n",
                     static_cast<unsigned long long>(total), first.c_str(),
                     opt_.verbose ? "" : " (--verbose names them)");
    });
  }

  // The ranked index's parameters, from the options.
  RankedParams ranked_params() {
    RankedParams params;
    params.deletes.max_distance = opt_.max_distance;
    params.deletes.prefix_length = opt_.prefix_length;
    params.sound_distance = opt_.sound_distance != -2 ? opt_.sound_distance : english() ? 1 : -1;
    params.rare_distance = opt_.rare_distance;
    params.far_min_count = opt_.far_min_count;
    params.sound_min_count = opt_.sound_min_count;
    params.sound_gate = opt_.sound_gate_off ? kNoSoundGate : std::llround(opt_.sound_gate * 1000.0);
    params.two_edits_from = opt_.two_edits_from;
    params.case_accepts = !hunspell();
    if (hunspell()) {
      replacements_ = LikelyReplacements(hunspell_->rules());
      params.replacements = &replacements_;
    }
    params.top = opt_.top;
    // --batch-bytes bounds a lookup round too: about 16 bytes of requests per
    // word and delete (--batch-bytes 1: one word per round, for tests).
    params.words_per_round = std::max<size_t>(1, opt_.batch_bytes / 16);
    return params;
  }

  // The frequency list ranked mode reads ("": none found, with a warning).
  std::string frequency_path() {
    std::string path = !opt_.frequencies.empty() ? opt_.frequencies
                       : hunspell()              ? language_frequencies(hunspell_->rules().lang, hunspell_->path())
                                                 : default_frequencies();
    run_.step([&] {
      if (path.empty()) {
        if (rank_ == 0 && !opt_.quiet)
          std::fputs("spellcheck: warning: no frequency list found (--frequencies FILE); ranking without word priors\n",
                     stderr);
        return;
      }
      require_readable_file(path, "frequency file");
    });
    return path;
  }

  // Collective: the frequency list's counts summed (a split's prior is
  // the pair's share of the collection in the list's scale).
  uint64_t frequency_total() {
    uint64_t total = 0;
    if (!freq_path_.empty()) {
      TextChunk chunk = read_line_share(comm_, freq_path_);
      run_.step([&] {
        for (const uint64_t c : parse_frequencies(chunk.bytes, freq_path_).counts) total += c;
      });
    }
    return mpi::allreduce_sum(comm_, total);
  }

  void build_ranked_index() {
    PhaseTimer pt(t_, "rank-index");
    const RankedParams params = ranked_params();
    const std::string freq_path = frequency_path();
    freq_path_ = freq_path;
    FrequencyList collection{std::exchange(judged_.correct, {}), std::exchange(judged_.correct_occurrences, {})};
    if (read_compiled_index(params, freq_path)) {
      ranked_index_.add_collection(comm_, std::move(collection));
      return;
    }
    if (compiled_hunspell_.bytes > 0)  // the forms a suggestion may offer, kept in the file
      run_.step([&] { ranked_entries_ = read_compiled_hunspell_forms(compiled_hunspell_, rank_, comm_.size()); });
    FrequencyList freq;
    if (!freq_path.empty()) {
      TextChunk chunk = read_line_share(comm_, freq_path);
      run_.step([&] { freq = parse_frequencies(chunk.bytes, freq_path); });
    }
    ranked_index_.build(comm_, std::move(ranked_entries_), std::move(freq), params, std::move(collection));
  }

  // A compiled dictionary's ranked index: this rank's part read, unless the
  // run's --extra-dict words, options or frequency list differ from what it
  // was compiled with (then it is built, with a warning saying why).
  bool read_compiled_index(const RankedParams& params, const std::string& freq_path) {
    if (compiled_ranked_.bytes == 0) return false;
    std::string why = "the run adds --extra-dict words";
    if (opt_.extra_dicts.empty())
      run_.step([&] {
        const uint64_t digest = freq_path.empty() ? 0 : file_digest(freq_path);
        why = ranked_index_.read_compiled(compiled_ranked_, rank_, comm_.size(), params, digest);
      });
    if (why.empty()) return true;
    if (rank_ == 0 && !opt_.quiet)
      std::fprintf(stderr, "spellcheck: warning: %s: not using its ranked index (%s); building it\n",
                   opt_.dictionary.c_str(), why.c_str());
    return false;
  }

  // The ranks' runs into the global SPEC order, each rank with a slice
  // (sorted_output.hpp), written in rank order: the output and, with a
  // report, the occurrence TSV (both exist on rank 0 only); both committed
  // once every rank has written.
  void write_runs(std::string run_bytes, bool ranked) {
    const bool with_report = report_wanted();
    std::string text, tsv;
    if (with_report && rank_ == 0) tsv = context_done_ ? kReportHeaderInContext : kReportHeader;
    sort_runs(comm_, std::move(run_bytes), [&](const LineView& l) {
      text.append(l.line);
      if (with_report) append_report_row(tsv, l, ranked);
    });
    // Held until rank 0 committed: if it is killed first, this rank removes
    // the temporary files on its way out.
    RemovalOnSignal text_file, report_file;
    run_.step([&] { text_file = write_slices(comm_, text, out_.get()); });
    text = std::string();
    if (with_report) run_.step([&] { report_file = write_slices(comm_, tsv, report_.get()); });
    run_.step([&] {
      fault::point("gather", rank_);
      if (rank_ != 0) return;
      out_->commit();
      if (report_) report_->commit();
    });
  }

  // Rank 0: timing lines and summary on stderr, --stats.
  template <class RunFigures>
  int report_run(RunFigures& r) {
    if (rank_ != 0) return kExitOk;
    r.ranks = comm_.size();
    r.threads = omp_get_max_threads();
    if (!opt_.quiet) {
      std::fputs(timing_lines(r.phases).c_str(), stderr);
      std::fputs(summary_line(r).c_str(), stderr);
    }
    if (opt_.stats.empty()) return kExitOk;
    try {
      write_file_atomically(opt_.stats, stats_json(r, opt_));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "spellcheck: error: --stats: %s\n", e.what());
      return kExitFailure;
    }
    return kExitOk;
  }

  mpi::Comm& comm_;
  Run& run_;
  const Options& opt_;
  const int rank_;
  Timings t_;
  double t0_;
  mpi::Traffic traffic0_;
  ProgressMode progress_ = ProgressMode::off;
  InputPlan plan_;
  std::unique_ptr<OutputFile> out_, report_, per_document_;
  uint64_t dictionary_entries_ = 0;
  bool filters_read_ = false;                                 // from a compiled dictionary
  Routed compiled_entries_;                                   // compile: this rank's entries, for the file
  CompiledSection compiled_ranked_;                           // a compiled dictionary's ranked index (0 bytes: none)
  HunspellSection compiled_hunspell_;                         // a compiled hunspell dictionary (0 bytes: none)
  WordList ranked_entries_;                                   // the shard's entries as spelled, for the ranked index
  LikelyReplacements replacements_;                           // a hunspell dictionary's REP and MAP, for ranked scores
  std::unique_ptr<Shard> shard_ = std::make_unique<Shard>();  // released once ranked mode has judged
  std::unique_ptr<HunspellDictionary> hunspell_;              // a hunspell .dic/.aff, in place of the shard
  HunspellLoadStats hunspell_stats_;
  std::unique_ptr<HunspellJudge> judge_;
  std::vector<std::vector<std::string>> hunspell_candidates_;
  BloomFilter filter_;
  TrigramFilter trigrams_;
  AffixFilter affixes_;
  SpecCounts counts_;        // this rank's
  LineTable line_table_;     // with --report: where each first occurrence is (and records start)
  DocumentParts documents_;  // with --per-document: this rank's document parts
  KnownWords known_words_;   // ... the words they leave out
  WordList ignored_words_;   // --ignore's words this rank judges (with --per-document)
  Routed routed_;
  Judged judged_;
  Suggestions suggestions_;
  RankedIndex ranked_index_;
  InContext context_;               // --context: each occurrence's best
  JoinWords joins_;                 // --merge: this rank's correct words that may be joins
  LineTable context_lines_;         // ... and where they are
  ContextFigures context_figures_;  // this rank's
  bool context_done_ = false;
  std::string freq_path_;  // the frequency list ranked mode read ("": none)
  CompileCacheUse cache_use_;
};

// Collective: --index-cache as compile on first use. Unless the dictionary
// is a compiled one already, opt's dictionary becomes its compiled file in
// the cache folder (compile_cache.hpp), compiled there by this job first
// when missing, with the --extra-dict files inside.
CompileCacheUse use_compile_cache(mpi::Comm& comm, Run& run, Options& opt) {
  std::string path;
  bool missing = false;
  run.step([&] {
    if (comm.rank() != 0 || opt.index_cache.empty() || is_compiled_dictionary(opt.dictionary)) return;
    path = compile_cache_path(opt);
    missing = !std::filesystem::exists(path);
  });
  path = mpi::broadcast(comm, path);
  if (path.empty()) return {};
  missing = mpi::allreduce_max(comm, missing ? 1 : 0) == 1;  // (rank 0's)
  if (missing) {
    Options c = opt;  // compile's own outputs only
    c.compile = true;
    c.compile_ranked = opt.ranked;
    c.output = path;
    c.stats.clear();
    c.report.clear();
    c.per_document.clear();
    Pipeline compiling(comm, run, c);
    compiling.open_outputs();
    compiling.compile();
  }
  opt.dictionary = path;
  opt.extra_dicts.clear();
  const uint64_t on_rank0 = comm.rank() == 0 ? 1 : 0;
  return missing ? CompileCacheUse{0, on_rank0} : CompileCacheUse{on_rank0, 0};
}

// Collective: one warning line (rank 0) when ranks have fewer CPUs than
// OpenMP threads, which then share cores and gain nothing.
void warn_threads_over_cpus(const mpi::Comm& comm, const Options& opt) {
  const int threads = omp_get_max_threads(), cpus = cpus_available();
  const uint64_t over = mpi::allreduce_sum(comm, static_cast<uint64_t>(threads_exceed_cpus(threads, cpus)));
  if (over == 0 || comm.rank() != 0 || opt.quiet) return;
  std::fprintf(
      stderr,
      "spellcheck: warning: %llu of %d rank(s) have fewer CPUs than threads (rank 0: %d threads, %d CPUs); %s\n",
      static_cast<unsigned long long>(over), comm.size(), threads, cpus, threads_over_cpus_advice());
}

int run(int argc, char** argv, int provided) {
  mpi::Comm comm;
  Run run(comm);
  Options opt;
  run.step([&] { opt = parse_options(argc, argv); });
  set_huge_pages(opt.huge_pages == HugePages::on ||
                 (opt.huge_pages == HugePages::automatic && huge_pages_pay(read_thp_settings())));
  if (opt.help || opt.version) {
    if (comm.rank() == 0) std::fputs(opt.help ? usage_text().c_str() : "spellcheck " SPELLCHECK_VERSION "\n", stdout);
    return kExitOk;
  }
  if (opt.list_dictionaries) {
    if (comm.rank() == 0)
      for (const auto& [name, path] : list_dictionaries()) std::printf("%s\t%s\n", name.c_str(), path.c_str());
    return kExitOk;
  }
  run.step([&] {
    if (opt.lang.empty()) return;
    opt.dictionary = find_dictionary(opt.lang);
    if (opt.dictionary.empty()) {
      std::string where;
      for (const std::string& d : dictionary_search_path()) where += (where.empty() ? "" : ", ") + d;
      throw InputError("no hunspell dictionary '" + opt.lang + "' (" + opt.lang + ".aff and " + opt.lang + ".dic) in " +
                       where + " (see --list-dictionaries)");
    }
  });
  run.step([&] {
    // Only the thread that initialised MPI calls it (the lookup service
    // checks), while OpenMP threads work beside it: FUNNELED.
    if (provided < MPI_THREAD_FUNNELED)
      throw UsageError("this MPI library does not provide MPI_THREAD_FUNNELED (OpenMP threads run beside MPI)");
    if (opt.threads > 0) omp_set_num_threads(opt.threads);
    require_readable_file(opt.dictionary, "dictionary");
  });
  warn_threads_over_cpus(comm, opt);
  mpi::set_all_to_all(opt.exchange == "two-level" ? mpi::AllToAll::two_level
                      : opt.exchange == "auto"    ? mpi::AllToAll::automatic
                                                  : mpi::AllToAll::direct);
  const CompileCacheUse cache_use = opt.compile ? CompileCacheUse{} : use_compile_cache(comm, run, opt);
  Pipeline p(comm, run, opt, cache_use);
  if (opt.compile) {
    p.open_outputs();
    return p.compile();
  }
  p.plan_inputs();
  p.open_outputs();
  p.load_dictionary();
  // Ranked mode looks words up through its own index (ranked_lookup.hpp):
  // the filters would only be built and dropped.
  if (!opt.ranked && !opt.list_only) p.build_filters();
  p.read_input();
  p.judge_words();
  if (opt.ranked) return p.ranked();
  p.find_candidates();
  p.write_spec_output();
  p.write_spec_per_document();
  return p.spec_diagnostics();
}

}  // namespace

int main(int argc, char** argv) {
  // Keep freed memory for reuse instead of returning it to the system: the
  // phases free and allocate buffers of similar sizes in turn, and a page
  // touched for the first time is expensive (a fault, zeroing, and on a VM
  // the host's own fault).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mpi::Environment env(argc, argv, MPI_THREAD_FUNNELED);
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
