#include "spellcheck/common/options.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "spellcheck/common/errors.hpp"

namespace spellcheck {

namespace {

long long parse_integer(std::string_view flag, std::string_view text, long long lo, long long hi) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw UsageError(std::string(flag) + " needs a whole number, got '" + std::string(text) + "'");
  if (v < lo || v > hi)
    throw UsageError(std::string(flag) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                     ", got " + std::string(text));
  return v;
}

double parse_real(std::string_view flag, std::string_view text, double lo, double hi) {
  char* end = nullptr;
  const std::string s(text);
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v >= lo && v <= hi))
    throw UsageError(std::string(flag) + " needs a number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     ", got '" + s + "'");
  return v;
}

FilterExchange parse_filter_exchange(std::string_view flag, std::string_view v) {
  if (v == "allgather") return FilterExchange::allgather;
  if (v == "allreduce") return FilterExchange::allreduce;
  throw UsageError(std::string(flag) + " must be allgather or allreduce, got '" + std::string(v) + "'");
}

// Value flags, shared by the environment defaults and argv.
void apply(Options& o, std::string_view flag, std::string_view v) {
  if (flag == "-o" || flag == "--output") o.output = v;
  else if (flag == "--stats") o.stats = v;
  else if (flag == "--report") o.report = v;
  else if (flag == "--per-document") o.per_document = v;
  else if (flag == "--per-document-top") o.per_document_top = static_cast<size_t>(parse_integer(flag, v, 0, 1000000));
  else if (flag == "--threads") o.threads = static_cast<int>(parse_integer(flag, v, 1, 4096));
  else if (flag == "--max-word-length") o.max_word_length = static_cast<size_t>(parse_integer(flag, v, 1, 60000));
  else if (flag == "--batch-bytes") o.batch_bytes = static_cast<size_t>(parse_integer(flag, v, 1, 1 << 30));
  else if (flag == "--filter-bits") o.filter_bits = parse_real(flag, v, 1.0, 64.0);
  else if (flag == "--buckets") {
    const auto b = static_cast<uint64_t>(parse_integer(flag, v, 1, 1 << 24));
    if ((b & (b - 1)) != 0) throw UsageError("--buckets must be a power of two, got '" + std::string(v) + "'");
    o.buckets = static_cast<uint32_t>(b);
  } else if (flag == "--filter-exchange") o.filter_exchange = parse_filter_exchange(flag, v);
  else if (flag == "--exchange") {
    if (v != "direct" && v != "two-level" && v != "auto")
      throw UsageError("--exchange must be direct, two-level or auto, got '" + std::string(v) + "'");
    o.exchange = v;
  } else if (flag == "--suggest") {
    o.ranked = v == "ranked";
    o.list_only = v == "none";
    if (v != "ranked" && v != "spec" && v != "none")
      throw UsageError("--suggest must be spec, ranked or none, got '" + std::string(v) + "'");
  } else if (flag == "--max-distance") o.max_distance = static_cast<int>(parse_integer(flag, v, 1, 2));
  else if (flag == "--top") o.top = static_cast<size_t>(parse_integer(flag, v, 1, 1000));
  else if (flag == "--frequencies") o.frequencies = v;
  else if (flag == "--sound-distance") o.sound_distance = static_cast<int>(parse_integer(flag, v, 0, 2));
  else if (flag == "--rare-distance") o.rare_distance = static_cast<int>(parse_integer(flag, v, 0, 2));
  else if (flag == "--far-min-count") o.far_min_count = static_cast<uint64_t>(parse_integer(flag, v, 1, 1LL << 62));
  else if (flag == "--sound-min-count") o.sound_min_count = static_cast<uint64_t>(parse_integer(flag, v, 1, 1LL << 62));
  else if (flag == "--sound-gate") {
    o.sound_gate_off = v == "off";
    if (!o.sound_gate_off) o.sound_gate = parse_real(flag, v, -1e6, 1e6);
  } else if (flag == "--two-edits-from") o.two_edits_from = static_cast<size_t>(parse_integer(flag, v, 0, 1000));
  else if (flag == "--prefix-length") o.prefix_length = static_cast<size_t>(parse_integer(flag, v, 4, 64));
  else if (flag == "--index-cache") {
    if (v.empty()) throw UsageError("--index-cache needs a directory");
    o.index_cache = v;
  } else if (flag == "--context") {
    if (v != "on" && v != "off") throw UsageError("--context must be on or off, got '" + std::string(v) + "'");
    o.context = v == "on";
  } else if (flag == "--context-weight") o.context_weight = parse_real(flag, v, 0.0, 100.0);
  else if (flag == "--split") {
    if (v != "on" && v != "off") throw UsageError("--split must be on or off, got '" + std::string(v) + "'");
    o.split = v == "on";
  } else if (flag == "--merge") {
    if (v != "on" && v != "off") throw UsageError("--merge must be on or off, got '" + std::string(v) + "'");
    o.merge = v == "on";
  } else if (flag == "--merge-ratio") {
    o.merge_ratio = static_cast<uint64_t>(parse_integer(flag, v, 1, 1000000));
  } else if (flag == "--fix") {
    if (v.empty()) throw UsageError("--fix needs a folder");
    o.fix_dir = v;
  } else if (flag == "--fix-margin") o.fix_margin = parse_real(flag, v, 0.0, 1e9);
  else if (flag == "--progress-interval") o.progress_interval = parse_real(flag, v, 0.0, 86400.0);
  else if (flag == "--exclude") {
    if (v.empty()) throw UsageError("--exclude needs a glob");
    o.exclude.emplace_back(v);
  } else if (flag == "--extra-dict") {
    if (v.empty()) throw UsageError("--extra-dict needs a file");
    o.extra_dicts.emplace_back(v);
  } else if (flag == "--ignore") {
    if (v.empty()) throw UsageError("--ignore needs a file");
    o.ignore_lists.emplace_back(v);
  } else if (flag == "--lang") {
    if (v.empty()) throw UsageError("--lang needs a dictionary name (see --list-dictionaries)");
    o.lang = v;
  } else if (flag == "--huge-pages") {
    if (v == "on") o.huge_pages = HugePages::on;
    else if (v == "off") o.huge_pages = HugePages::off;
    else if (v == "auto") o.huge_pages = HugePages::automatic;
    else throw UsageError("--huge-pages must be on, off or auto, got '" + std::string(v) + "'");
  } else if (flag == "--comm-thread") {
    if (v == "dedicated") o.comm_thread = CommThread::dedicated;
    else if (v == "shared") o.comm_thread = CommThread::shared;
    else if (v == "auto") o.comm_thread = CommThread::automatic;
    else throw UsageError("--comm-thread must be dedicated, shared or auto, got '" + std::string(v) + "'");
  } else if (flag == "--input-format") {
    set_input_format(o.formats, v);
    o.formats_given = true;
  } else if (flag == "--text-field") {
    if (v.empty()) throw UsageError("--text-field needs a name");
    o.formats.text_field = v;
  } else if (flag == "--id-field") {
    if (v.empty()) throw UsageError("--id-field needs a name");
    o.formats.id_field = v;
  } else if (flag == "--sort") {
    if (v != "count" && v != "spec") throw UsageError("--sort must be spec or count, got '" + std::string(v) + "'");
    o.sort_by_count = v == "count";
  } else if (flag == "--filter") {
    add_filter_list(o.filters, v);
    o.filters_given = true;
  } else if (flag == "--format") {
    if (v == "jsonl") o.jsonl = true;
    else if (v == "text") o.jsonl = false;
    else throw UsageError("--format must be text or jsonl, got '" + std::string(v) + "'");
  } else throw UsageError("unknown option '" + std::string(flag) + "' (see --help)");
}

bool takes_value(std::string_view flag) {
  return flag == "-o" || flag == "--output" || flag == "--stats" || flag == "--report" || flag == "--threads" ||
         flag == "--buckets" || flag == "--max-word-length" || flag == "--batch-bytes" || flag == "--filter-bits" ||
         flag == "--filter-exchange" || flag == "--exchange" || flag == "--suggest" || flag == "--max-distance" ||
         flag == "--top" || flag == "--frequencies" || flag == "--sound-distance" || flag == "--prefix-length" ||
         flag == "--format" || flag == "--rare-distance" || flag == "--far-min-count" || flag == "--sound-min-count" ||
         flag == "--sound-gate" || flag == "--two-edits-from" || flag == "--exclude" || flag == "--progress-interval" ||
         flag == "--index-cache" || flag == "--huge-pages" || flag == "--lang" || flag == "--extra-dict" ||
         flag == "--ignore" || flag == "--comm-thread" || flag == "--filter" || flag == "--sort" ||
         flag == "--input-format" || flag == "--text-field" || flag == "--id-field" || flag == "--per-document" ||
         flag == "--per-document-top" || flag == "--context" || flag == "--context-weight" || flag == "--fix" ||
         flag == "--fix-margin" || flag == "--split" || flag == "--merge" || flag == "--merge-ratio";
}

// Defaults from the environment, for job scripts; flags override them.
void apply_environment(Options& o) {
  const struct {
    const char* var;
    const char* flag;
  } env[] = {{"SPELLCHECK_THREADS", "--threads"},
             {"SPELLCHECK_BATCH_BYTES", "--batch-bytes"},
             {"SPELLCHECK_FILTER_BITS", "--filter-bits"},
             {"SPELLCHECK_FILTER_EXCHANGE", "--filter-exchange"},
             {"SPELLCHECK_EXCHANGE", "--exchange"},
             {"SPELLCHECK_MAX_WORD_LENGTH", "--max-word-length"},
             {"SPELLCHECK_SUGGEST", "--suggest"},
             {"SPELLCHECK_FREQUENCIES", "--frequencies"},
             {"SPELLCHECK_INDEX_CACHE", "--index-cache"},
             {"SPELLCHECK_CONTEXT", "--context"},
             {"SPELLCHECK_PROGRESS_INTERVAL", "--progress-interval"},
             {"SPELLCHECK_HUGE_PAGES", "--huge-pages"},
             {"SPELLCHECK_COMM_THREAD", "--comm-thread"}};
  for (const auto& e : env)
    if (const char* v = std::getenv(e.var); v && *v) {
      try {
        apply(o, e.flag, v);
      } catch (const UsageError& err) {
        throw UsageError(std::string(e.var) + ": " + err.what());
      }
    }
}

// Flags without a value: applied, and true; false for any other argument.
bool apply_switch(Options& o, std::string_view a) {
  if (a == "-h" || a == "--help") o.help = true;
  else if (a == "--version") o.version = true;
  else if (a == "--list-dictionaries") o.list_dictionaries = true;
  else if (a == "--words") o.words_mode = true;
  else if (a == "--quiet" || a == "-q") o.quiet = true;
  else if (a == "--no-trigram-filter") o.trigram_filter = false;
  else if (a == "--no-affix-filter") o.affix_filter = false;
  else if (a == "--no-ranked-index") o.compile_ranked = false;
  else if (a == "--no-huge-pages") o.huge_pages = HugePages::off;  // the older spelling of --huge-pages off
  else if (a == "--no-sound-alikes") o.sound_distance = -1;
  else if (a == "--hidden") o.hidden = true;
  else if (a == "--binary") o.binary = true;
  else if (a == "--verbose" || a == "-v") o.verbose = true;
  else if (a == "--exit-status") o.exit_status = true;
  else if (a == "--strict") o.formats.strict = true;
  else if (a == "--progress") o.progress = 1;
  else if (a == "--no-progress") o.progress = 0;
  else return false;
  return true;
}

// A flag with its value, as --flag=value or as the next argument (i moves
// past it).
void apply_value_flag(Options& o, std::string_view a, int& i, int argc, const char* const* argv) {
  std::string_view flag = a, value;
  bool has_value = false;
  if (const size_t eq = a.find('='); a.starts_with("--") && eq != std::string_view::npos) {
    flag = a.substr(0, eq);
    value = a.substr(eq + 1);
    has_value = true;
  }
  if (!takes_value(flag)) throw UsageError("unknown option '" + std::string(a) + "' (see --help)");
  if (!has_value) {
    if (i + 1 >= argc) throw UsageError("option " + std::string(flag) + " needs a value");
    value = argv[++i];
  }
  apply(o, flag, value);
}

// spellcheck compile -o NAME.scd DICTIONARY: no input, a named output.
void apply_compile_positionals(Options& o, const std::vector<std::string>& positional) {
  if (positional.size() != 1) throw UsageError("compile takes one DICTIONARY (see --help)");
  if (o.output.empty()) throw UsageError("compile needs -o NAME.scd (see --help)");
  if (o.ranked || o.list_only || o.words_mode || !o.report.empty() || !o.per_document.empty())
    throw UsageError("compile writes a dictionary: it takes no --suggest, --words, --report or --per-document");
  o.dictionary = positional[0];
}

// DICTIONARY and INPUT from the positional arguments, and the checks of
// options that need each other.
void apply_positionals(Options& o, const std::vector<std::string>& positional) {
  if (o.compile) {
    apply_compile_positionals(o, positional);
    return;
  }
  if (o.buckets != 0) throw UsageError("--buckets is an option of compile (spellcheck compile --help)");
  if (!o.compile_ranked) throw UsageError("--no-ranked-index is an option of compile (spellcheck compile --help)");
  if (!o.lang.empty()) {  // --lang NAME stands for DICTIONARY: every positional is an input
    if (positional.empty() && !o.words_mode) throw UsageError("missing INPUT (see --help)");
    o.inputs = positional;
  } else {
    if (positional.empty()) throw UsageError("missing DICTIONARY and INPUT (see --help)");
    if (positional.size() < 2 && !o.words_mode) throw UsageError("missing INPUT after DICTIONARY (see --help)");
    o.dictionary = positional[0];
    o.inputs.assign(positional.begin() + 1, positional.end());
  }
  if (o.inputs.empty()) o.inputs.emplace_back("-");  // word-list mode: standard input
  if (!o.report.empty() && o.words_mode) throw UsageError("--report needs document mode (drop --words)");
  if (!o.per_document.empty() && o.words_mode) throw UsageError("--per-document needs document mode (drop --words)");
  if (!o.ranked && o.jsonl) throw UsageError("--format jsonl needs --suggest ranked");
  if (!o.fix_dir.empty() && (!o.ranked || o.words_mode))
    throw UsageError("--fix needs ranked document mode (--suggest ranked, no --words)");
  if (!o.fix_dir.empty() && !o.report.empty()) throw UsageError("--fix lists its changes: drop --report");
  if (!o.fix_dir.empty()) o.context = true;
  if (o.list_only && !o.report.empty()) throw UsageError("--report needs candidates (drop --suggest none)");
  if (o.filters_given && o.words_mode) throw UsageError("--filter needs document mode (drop --words)");
  if (o.sort_by_count && o.words_mode) throw UsageError("--sort count needs document mode (drop --words)");
  if (!o.filters_given && o.ranked && !o.words_mode) o.filters = auto_filters();
  if (o.formats_given && o.words_mode) throw UsageError("--input-format needs document mode (drop --words)");
  if (!o.formats_given && !(o.ranked && !o.words_mode)) set_input_format(o.formats, "text");
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
  Options o;
  apply_environment(o);
  std::vector<std::string> positional;
  bool only_positional = false;
  int i = 1;
  if (argc > 1 && std::string_view(argv[1]) == "compile") {
    o.compile = true;
    ++i;
  }
  for (; i < argc; ++i) {
    std::string_view a = argv[i];
    if (only_positional || a.empty() || a[0] != '-' || a == "-") {
      positional.emplace_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    if (!apply_switch(o, a)) apply_value_flag(o, a, i, argc, argv);
  }
  if (o.help || o.version || o.list_dictionaries) return o;
  apply_positionals(o, positional);
  return o;
}

namespace {

// --help, in sections in the order printed. Each ends with its own newline(s),
// so the sections join as they stand.

// How to run it and what it prints.
constexpr std::string_view kHelpSynopsis = R"(Usage: spellcheck [options] DICTIONARY INPUT...
       spellcheck [options] --lang NAME INPUT...
       mpirun -n P spellcheck [options] DICTIONARY INPUT...
       ... | spellcheck [options] DICTIONARY -
       ... | spellcheck --words [options] DICTIONARY
       mpirun -n P spellcheck compile [--buckets B] [--no-ranked-index] -o NAME.scd DICTIONARY

Prints every misspelled distinct word of INPUT with all its edit-distance-1
corrections found in DICTIONARY, one line per word:
  <word>:  <candidate> <candidate>...
sorted by number of candidates, then by word (byte-wise). The dictionary is
sharded over the MPI ranks; each rank uses OpenMP threads.

)";
// What DICTIONARY and INPUT may be.
constexpr std::string_view kHelpArguments = R"(DICTIONARY is a word list (one word per line) or a hunspell dictionary: a
NAME.dic with NAME.aff beside it (/usr/share/hunspell/de_DE.dic). With a
hunspell dictionary a word is correct exactly when hunspell accepts it
(affixes, compounds, case rules, ...), and the edit-distance-1 candidates
are over letters, from the .aff's TRY letters, their capitals and a-z A-Z
0-9. --lang NAME finds NAME.dic in $DICPATH, /usr/share/hunspell and
/usr/share/myspell; --list-dictionaries lists what is there.

`spellcheck compile -o NAME.scd DICTIONARY` (with its --extra-dict words)
writes a compiled dictionary: the entries in B hash buckets (--buckets B, a
power of two, default 4096), the filters and ranked mode's index (with the
frequency list and the ranked options given to compile; --no-ranked-index:
without it), built once. A run given NAME.scd as DICTIONARY (known by its
first bytes, whatever its name) on up to B ranks reads only its ranks'
buckets and builds nothing; its output is the same as on the word list. A
ranked run whose options or frequency list differ from compile's, or with
--extra-dict, builds its index with a warning. A hunspell dictionary
compiles too (NAME.dic: its expanded neighbourhoods, .aff and forms; its
--extra-dict words go to compile, not to the run). A damaged or truncated
file is refused.

INPUT is raw text (files, or directories read recursively in byte-wise path
order), or with --words a word list (one word per line). `-` (or no INPUT
with --words) is standard input, read once by rank 0 and shared out; so is a
named pipe or device (/dev/stdin, <(cmd)). Files compressed with gzip, zstd,
bzip2 or xz are decoded (known by their first bytes, whatever their name);
each is read whole by one thread. In folders, hidden files and folders
(names starting with '.'), names matching --exclude and binary files (a NUL
byte in the first 4 KiB, as grep decides) are skipped; a file named on the
command line is always read.

)";
// The ranked mode.
constexpr std::string_view kHelpRanked = R"(With --suggest ranked, each misspelled word gets its most likely
corrections instead, best first (up to --top), within --max-distance edits
(insertion, deletion, substitution, transposition of neighbours, counted in
letters) or sounding alike; ranked by word frequency and how likely the
typing error is. Words in capitals or title case of an entry are accepted.

)";
// Options: the dictionary, the input and the mode.
constexpr std::string_view kHelpWhatOptions = R"(Options:
  --lang NAME             the hunspell dictionary NAME (de_DE, fr_FR, ...)
                          in place of DICTIONARY
  --list-dictionaries     list the hunspell dictionaries --lang finds, and exit
  --extra-dict FILE       more words, merged into the dictionary (repeatable):
                          a word list or a hunspell personal dictionary:
                          `word`, `*word` (forbids the word), `word/EXAMPLE`
                          (the word takes EXAMPLE's affixes; hunspell -p's
                          format)
  --ignore FILE           words never reported, one per line (repeatable)
  --index-cache DIR       compile on first use: the first run compiles the
                          dictionary (with its --extra-dict files) into
                          DIR/NAME-KEY.scd, later runs read that file at
                          any rank count; a changed source or option
                          compiles another
  --words                 word-list mode: every line of INPUT is one word
  --suggest MODE          spec (default): all edit-distance-1 candidates in
                          byte order, as SPEC.md says; ranked: ranked
                          suggestions (below); none: the misspelled words
                          only, one a line, byte-wise (as hunspell -l and
                          aspell list)
)";
// Options of the ranked mode a person sets.
constexpr std::string_view kHelpRankedOptions = R"(  --max-distance N        ranked: edits at most (1 or 2, default 2)
  --top K                 ranked: suggestions per word (default 10)
  --frequencies FILE      ranked: `word count` lines (SymSpell's format) for
                          the word prior (default: the shipped list of the
                          dictionary's language: en, de, es, fr, it, ru; a
                          word list: en-80k; other languages: none)
  --no-sound-alikes       ranked: only words within --max-distance
  --format FMT            ranked: text (default, the SPEC line format with
                          candidates by rank) or jsonl (word, occurrences,
                          suggestions with distance and score)
  --context on|off        ranked documents: weigh a word's first five
                          candidates by the words around its occurrences,
                          as the collection itself pairs them (default off:
                          the documents are read once more); jsonl lines
                          then list each occurrence with its own best
                          correction ("in_context"), and --report gets a
                          column of them
  --context-weight W      ranked, --context on: the neighbours' evidence
                          against the word's own score (default 0.5)
  --split on|off          ranked, --context on: a misspelled word that is
                          two words of the collection ("inthe") gets the
                          split ("in the") as a candidate where the
                          collection has the pair (default on)
  --merge on|off          ranked, --context on, with --format jsonl or
                          --report: two words written apart ("an other")
                          whose join is a word the collection writes as
                          one --merge-ratio times as often get the merge,
                          with their places (a line with "merge":true;
                          never applied by --fix). Default off: most
                          merges outside misspellings are phrases ("be
                          low", "in stead"; results/context.md)
  --merge-ratio N         with --merge on: the join at least N times as
                          often as the pair apart (default 200)
  --fix DIR               ranked documents, in context: write the documents
                          under DIR (each at its path as given) with every
                          misspelled occurrence whose best correction beats
                          the runner-up by --fix-margin replaced, all else
                          byte for byte; the output lists the changes
                          (file:line:col, old, new, margin). Words inside
                          code ("a_b", "file.txt", "*tag*", "$x") are left.
                          Not for compressed files or pipes
  --fix-margin M          the margin a correction needs (score units, about
                          nats; default 5: 96-97% of the changes right on
                          bench/context-bench.py, results/context.md)
)";
// What document mode leaves out, and the order of the lines.
constexpr std::string_view kHelpFilterOptions =
    R"(  --filter LIST           what is not prose (comma-separated, repeatable):
                          url (URLs, e-mail addresses, paths), digits (tokens
                          holding a digit), html, markdown, tex, nroff (their
                          markup and code), auto (url, digits and the markup
                          a file's name implies: .html .htm .xhtml, .md
                          .markdown, .tex, man pages *.1-*.9, also
                          compressed), none. Default: none; with --suggest
                          ranked: auto
  --input-format F        how files hold their documents: text (the file is
                          one), jsonl (a JSON object a line: its
                          --text-field), warc (WARC records: WET conversion
                          payloads, HTML and text responses), auto (from
                          the name: .jsonl .ndjson, .warc .wet, also
                          compressed). Default: text; with --suggest
                          ranked: auto
  --text-field NAME       jsonl: the member holding the text (default text)
  --id-field NAME         jsonl: the member naming a record in --per-document
                          (default: none, records are named FILE:LINE)
  --strict                a malformed record (a JSON line that does not
                          parse, a truncated WARC record) is bad input (exit
                          2) instead of a warning
  --sort ORDER            spec (default: fewer candidates first, as SPEC.md
                          says) or count (most occurrences first; document
                          mode); ties by the word, byte-wise
  --exit-status           exit with status 3 when a word is misspelled (for
                          CI and pre-commit checks)
)";
// Options of folder walks.
constexpr std::string_view kHelpWalkOptions =
    R"(  --exclude GLOB          skip files and folders whose name matches GLOB in
                          folder walks (the whole path if GLOB has a '/');
                          repeatable
  --hidden                read hidden files and folders in folder walks too
  --binary                read binary files found in folders too
  --max-word-length N     skip words longer than N bytes (default 64)
  -v, --verbose           name each binary file skipped (stderr)
)";
// Where results and statistics go.
constexpr std::string_view kHelpOutputOptions =
    R"(  -o, --output FILE       write the result to FILE instead of stdout (a regular
                          file is replaced only once complete)
  --stats FILE            write run statistics as JSON (phases, counts, traffic)
  --report FILE           document mode: TSV of misspelled words with their
                          occurrence count, first location and candidates
  --per-document FILE     document mode: JSON Lines, one object a document
                          (a file, a JSON Lines or WARC record) in input
                          order: its tokens, words judged, misspelled
                          tokens, distinct misspelled words, the share of
                          its words in the dictionary and its most
                          frequent misspelled words
  --per-document-top N    misspelled words listed per document (default 5)
  --threads N             OpenMP threads per rank (default: OMP_NUM_THREADS,
                          else the cores available)
)";
// What stderr shows; help and version.
constexpr std::string_view kHelpProgressOptions = R"(  --progress, --no-progress
                          progress on stderr (default: when a terminal is
                          there: stderr, or the controlling terminal of
                          mpirun/srun). On a terminal one redrawn line;
                          otherwise (mpirun, srun, job logs) whole lines:
                          phase, done/total, rate, time left, and a line
                          when each phase is done
  --progress-interval S   seconds between progress lines (default 5)
  -q, --quiet             no timing, summary or warning lines on stderr
  -h, --help              this text
  --version               the version

)";
// The knobs of ranked scoring and of the engine, apart: their defaults are
// measured (README), and they change speed or the ranking's recall.
constexpr std::string_view kHelpTuningOptions =
    R"(Tuning options (defaults measured; see the README):
  --sound-distance N      ranked: phonetic keys up to N edits apart sound
                          alike (0-2, default 1; English's keys: none by
                          default for hunspell dictionaries of other
                          languages)
  --rare-distance N       ranked: edits at most for dictionary words missing
                          from the frequency list (0-2, default 1; 2 with
                          --max-distance 2: every entry within 2)
  --far-min-count N       ranked: count in the frequency list a word needs
                          to be suggested beyond --rare-distance (default 1)
  --sound-min-count N     ranked: count a word needs to sound alike with a
                          phonetic key one edit away (default 500000, on
                          en-80k's scale; equal keys: any count)
  --sound-gate S          ranked: look for sound-alikes only for words whose
                          best candidate within --max-distance scores below
                          S (nats, default 6; off: for every word)
  --two-edits-from N      ranked: typos shorter than N letters get words
                          within one edit (or sounding alike), longer ones
                          within --max-distance (default 6; 0: every typo)
  --prefix-length N       ranked: code points of each word's prefix in the
                          symmetric-delete index (4-64, default 8)
  --batch-bytes N         bytes of remote lookups per message (default 65536)
  --filter-bits B         Bloom filter bits per dictionary entry (default 12)
  --buckets B             compile: hash buckets of the compiled file (a power
                          of two, default 4096): a run uses at most B ranks
  --no-ranked-index       compile: leave ranked mode's index out (a smaller
                          file; ranked runs build the index then)
  --filter-exchange M     allgather (default): every rank gets each shard's
                          filter; allreduce: one filter OR-ed over all ranks
  --exchange M            the dictionary shuffle, word routing, filters and
                          report's lines: direct (every rank to every rank),
                          two-level (inside each node, then across nodes:
                          fewer, larger messages), auto (default: two-level
                          from 16 ranks on 2+ nodes when the start-ups saved
                          outweigh copying the data once more, else
                          direct). Nodes: SPELLCHECK_RANKS_PER_NODE=L
                          (emulated nodes of L ranks), else SLURM_NODEID,
                          else the ranks that share memory
  --no-trigram-filter     hash and probe every candidate (by default candidates
                          with a letter triple no entry has are dropped first)
  --no-affix-filter       try edits at every position (by default only where
                          the bytes kept before and after the edit begin and
                          end some entry)
  --huge-pages MODE       blocks of 2 MiB or more advised as transparent huge
                          pages: on, off, or auto (default): on only where
                          the kernel never compacts memory synchronously for
                          them (THP enabled, defrag defer or never); with
                          defrag madvise, the default, each advised fault
                          may compact first, which made runs slower
  --no-huge-pages         the same as --huge-pages off
  --comm-thread MODE      who serves other ranks' lookups in the candidate
                          phase: dedicated (the MPI thread serves only,
                          beside one generator per thread), shared (it
                          generates too, serving between chunks), or auto
                          (default): dedicated on a rank with 4 or more CPUs

)";
// The environment and the exit status.
constexpr std::string_view kHelpEnvironment = R"(Environment (defaults for job scripts; flags win): SPELLCHECK_THREADS,
SPELLCHECK_BATCH_BYTES, SPELLCHECK_FILTER_BITS, SPELLCHECK_FILTER_EXCHANGE,
SPELLCHECK_EXCHANGE, SPELLCHECK_MAX_WORD_LENGTH, SPELLCHECK_SUGGEST,
SPELLCHECK_FREQUENCIES, SPELLCHECK_INDEX_CACHE, SPELLCHECK_PROGRESS_INTERVAL,
SPELLCHECK_HUGE_PAGES, SPELLCHECK_COMM_THREAD, SPELLCHECK_CONTEXT.
Also read: DICPATH (where --lang looks first, as hunspell),
SPELLCHECK_RANKS_PER_NODE and SLURM_NODEID (nodes, for --exchange),
SPELLCHECK_CHANNEL_WEIGHTS (ranked: the noisy channel's weights,
name=value,...). Test hooks: SPELLCHECK_MAX_MESSAGE_BYTES (the largest
message), SPELLCHECK_STREAM_PIECE_BYTES (pieces of a stream),
SPELLCHECK_FAULT (a planted failure).

Exit status: 0 success, 2 bad input or options, 1 other failure; with
--exit-status, 3 when a word is misspelled.
)";
constexpr std::string_view kHelpSections[] = {kHelpSynopsis,      kHelpArguments,     kHelpRanked,
                                              kHelpWhatOptions,   kHelpRankedOptions, kHelpFilterOptions,
                                              kHelpWalkOptions,   kHelpOutputOptions, kHelpProgressOptions,
                                              kHelpTuningOptions, kHelpEnvironment};

}  // namespace

std::string usage_text() {
  std::string text;
  for (const std::string_view section : kHelpSections) text += section;
  return text;
}

}  // namespace spellcheck
