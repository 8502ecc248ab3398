#pragma once
// Command-line options: argv -> Options. Pure (no MPI), so it is unit-tested
// directly; every rank parses the same argv and reaches the same verdict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/common/comm_thread.hpp"
#include "spellcheck/common/text_filters.hpp"

namespace spellcheck {

enum class FilterExchange { allgather, allreduce };
// --huge-pages: whether large blocks are advised as transparent huge pages
// (common/huge_pages.hpp); automatic decides from the kernel's THP settings.
enum class HugePages { off, on, automatic };

struct Options {
  std::string dictionary;                 // DICTIONARY, or what --lang found (main)
  std::string lang;                       // --lang NAME: a hunspell dictionary by name
  std::vector<std::string> extra_dicts;   // --extra-dict FILE (repeatable): more words
  std::vector<std::string> ignore_lists;  // --ignore FILE (repeatable): words never reported
  bool list_dictionaries = false;         // --list-dictionaries
  std::vector<std::string> inputs;
  bool words_mode = false;                                     // --words
  std::string output;                                          // -o FILE; empty: stdout
  std::string stats;                                           // --stats FILE (JSON)
  std::string report;                                          // --report FILE (document mode TSV)
  std::string per_document;                                    // --per-document FILE (document mode JSON Lines)
  size_t per_document_top = 5;                                 // --per-document-top N: words listed a document
  int threads = 0;                                             // --threads N; 0: OpenMP's default
  size_t max_word_length = 64;                                 // --max-word-length N
  size_t batch_bytes = 64 * 1024;                              // --batch-bytes N: request aggregation size
  double filter_bits = 12.0;                                   // --filter-bits B: Bloom bits per dictionary entry
  FilterExchange filter_exchange = FilterExchange::allgather;  // --filter-exchange
  // --exchange: how the dictionary shuffle, word routing and report travel
  // (mpi::AllToAll: direct, two-level, auto).
  std::string exchange = "auto";
  bool trigram_filter = true;                      // --no-trigram-filter: hash and probe every candidate
  bool affix_filter = true;                        // --no-affix-filter: try edits at every position
  HugePages huge_pages = HugePages::automatic;     // --huge-pages on|off|auto (huge_pages.hpp)
  CommThread comm_thread = CommThread::automatic;  // --comm-thread dedicated|shared|auto (comm_thread.hpp)
  int progress = -1;                               // --progress / --no-progress; -1: when a terminal (progress.hpp)
  double progress_interval = 5.0;                  // --progress-interval S: seconds between progress lines
  bool quiet = false;                              // --quiet: no timing/summary lines
  bool ranked = false;                             // --suggest ranked (default: spec, the SPEC.md output)
  bool list_only = false;                          // --suggest none: the misspelled words only, one a line
  int max_distance = 2;                            // --max-distance 1|2 (ranked)
  size_t top = 10;                                 // --top K (ranked)
  std::string frequencies;                         // --frequencies FILE (ranked); empty: the shipped list
  // --sound-distance N; -1 (--no-sound-alikes): edit distance only; -2
  // (the default): 1, but none for hunspell dictionaries of languages
  // other than English (the phonetic keys are English's).
  int sound_distance = -2;
  int rare_distance = 1;       // --rare-distance N: edits at most for words without a frequency
  uint64_t far_min_count = 1;  // --far-min-count N: count needed beyond the rare distance
  // --sound-min-count N: count needed to sound alike one key edit away,
  // on en-80k's scale (a third of its words have more): chosen on the
  // tuning lists, where it barely moves top-1 and top-5 and saves many
  // lookups (README, ranked suggestions).
  uint64_t sound_min_count = 500000;
  // --sound-gate S: sound-alikes are looked up only for words whose best
  // candidate within --max-distance scores below S nats ("off": for every
  // word). Chosen on the tuning lists: about as good as looking for every
  // word, and most words skip the lookup (README).
  double sound_gate = 6.0;
  bool sound_gate_off = false;
  // --two-edits-from N: typos of fewer code points get candidates within one
  // edit (or sounding alike), the rest within --max-distance; 0: all within
  // it. 6 (the rule of Elasticsearch's AUTO fuzziness): on the tuning lists
  // nearly as good as two edits for every typo, and much faster (README).
  size_t two_edits_from = 6;
  size_t prefix_length = 8;  // --prefix-length N: code points of the symmetric-delete prefix
  std::string index_cache;   // --index-cache DIR: the dictionary compiled there on first use
  // --context on|off (ranked document mode): candidates weighed by the
  // collection's word pairs around each occurrence. Off by default: it
  // reads the documents once more (README, "Context").
  bool context = false;
  double context_weight = 0.5;  // --context-weight W: the pairs' evidence against the word's own score
  bool split = true;            // --split on|off: run-together words split in context
  bool merge = false;           // --merge on|off: words written apart merged in context (jsonl, --report)
  uint64_t merge_ratio = 200;   // --merge-ratio N: the join that many times as often as the pair
  // --fix DIR (ranked documents, in context): the documents rewritten under
  // DIR with the corrections that win by --fix-margin M or more (nats);
  // the output lists the changes.
  std::string fix_dir;
  double fix_margin = 5.0;
  bool jsonl = false;  // --format jsonl (ranked); default text
  // --filter LIST (repeatable): what document mode leaves out. Default:
  // none (the SPEC output), auto with --suggest ranked.
  TextFilters filters;
  bool filters_given = false;
  // --input-format, --text-field, --strict. Default: text (the
  // SPEC output), auto with --suggest ranked.
  InputFormats formats;
  bool formats_given = false;
  bool sort_by_count = false;        // --sort count: lines by occurrences, most first (document mode)
  bool exit_status = false;          // --exit-status: status 3 when a word is misspelled
  std::vector<std::string> exclude;  // --exclude GLOB (repeatable): left out of directory walks
  bool hidden = false;               // --hidden: walk into hidden files and folders too
  bool binary = false;               // --binary: read binary files found in folders too
  bool verbose = false;              // --verbose: name the binary files left out
  bool compile = false;              // spellcheck compile: writes a compiled dictionary (-o NAME.scd)
  uint32_t buckets = 0;              // --buckets N (compile): hash buckets, a power of two; 0: the default
  bool compile_ranked = true;        // --no-ranked-index (compile): no ranked index in the file
  bool help = false;
  bool version = false;
};

// Parses argv (argv[0] is the program name). Throws UsageError with a
// one-line message. Defaults come from SPELLCHECK_* environment variables
// where set (for Slurm scripts), then from the flags.
Options parse_options(int argc, const char* const* argv);

// The --help text.
std::string usage_text();

}  // namespace spellcheck
