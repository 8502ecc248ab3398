#include "spellcheck/common/options.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <vector>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/suggest/delete_index.hpp"

using namespace spellcheck;

namespace {
Options parse(std::vector<const char*> args) {
  args.insert(args.begin(), "spellcheck");
  return parse_options(static_cast<int>(args.size()), args.data());
}
}  // namespace

TEST_CASE("defaults and positionals") {
  const Options o = parse({"dict.txt", "a.txt", "dir"});
  CHECK(o.dictionary == "dict.txt");
  CHECK(o.inputs == std::vector<std::string>{"a.txt", "dir"});
  CHECK_FALSE(o.words_mode);
  CHECK(o.max_word_length == 64);
  CHECK(o.threads == 0);
  CHECK(o.output.empty());
  CHECK(o.filter_exchange == FilterExchange::allgather);
  CHECK(o.huge_pages == HugePages::automatic);
}

TEST_CASE("flags, both spellings of values") {
  const Options o = parse({"--words", "-o", "out.txt", "--threads=3", "--max-word-length", "10", "--batch-bytes", "1",
                           "--filter-bits", "9.5", "--filter-exchange", "allreduce", "--stats", "s.json", "--quiet",
                           "--no-huge-pages", "d", "w"});
  CHECK(o.words_mode);
  CHECK(o.output == "out.txt");
  CHECK(o.threads == 3);
  CHECK(o.max_word_length == 10);
  CHECK(o.batch_bytes == 1);
  CHECK(o.filter_bits == 9.5);
  CHECK(o.filter_exchange == FilterExchange::allreduce);
  CHECK(o.stats == "s.json");
  CHECK(o.quiet);
  CHECK(o.huge_pages == HugePages::off);
  CHECK(parse({"--huge-pages", "on", "d", "w"}).huge_pages == HugePages::on);
  CHECK(parse({"--huge-pages=off", "d", "w"}).huge_pages == HugePages::off);
  CHECK(parse({"--huge-pages", "auto", "d", "w"}).huge_pages == HugePages::automatic);
  CHECK_THROWS_AS(parse({"--huge-pages", "yes", "d", "w"}), UsageError);
  CHECK(parse({"d", "w"}).comm_thread == CommThread::automatic);
  CHECK(parse({"--comm-thread", "dedicated", "d", "w"}).comm_thread == CommThread::dedicated);
  CHECK(parse({"--comm-thread=shared", "d", "w"}).comm_thread == CommThread::shared);
  CHECK(parse({"--comm-thread", "auto", "d", "w"}).comm_thread == CommThread::automatic);
  CHECK_THROWS_AS(parse({"--comm-thread", "own", "d", "w"}), UsageError);
}

TEST_CASE("bad options are usage errors") {
  CHECK_THROWS_AS(parse({}), UsageError);
  CHECK_THROWS_AS(parse({"dict"}), UsageError);
  CHECK_THROWS_AS(parse({"--threads", "0", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--threads", "-1", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--threads", "abc", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--threads", "2x", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--max-word-length", "0", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--bogus", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"d", "w", "-o"}), UsageError);
  CHECK_THROWS_AS(parse({"--filter-exchange", "ring", "d", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--words", "--report", "r.tsv", "d", "w"}), UsageError);
}

TEST_CASE("--help and --version need no positionals; -- ends options") {
  CHECK(parse({"--help"}).help);
  CHECK(parse({"--version"}).version);
  const Options o = parse({"--", "-dict", "-w"});
  CHECK(o.dictionary == "-dict");
  CHECK(usage_text().find("--batch-bytes") != std::string::npos);
}

TEST_CASE("environment defaults, overridden by flags") {
  setenv("SPELLCHECK_THREADS", "2", 1);
  CHECK(parse({"d", "w"}).threads == 2);
  CHECK(parse({"--threads", "1", "d", "w"}).threads == 1);
  setenv("SPELLCHECK_THREADS", "zero", 1);
  CHECK_THROWS_AS(parse({"d", "w"}), UsageError);
  unsetenv("SPELLCHECK_THREADS");
}

TEST_CASE("--comm-thread auto is dedicated from 4 CPUs, shared below or when unknown") {
  CHECK(resolve_comm_thread(CommThread::automatic, 0) == CommThread::shared);
  CHECK(resolve_comm_thread(CommThread::automatic, 3) == CommThread::shared);
  CHECK(resolve_comm_thread(CommThread::automatic, 4) == CommThread::dedicated);
  CHECK(resolve_comm_thread(CommThread::shared, 64) == CommThread::shared);
  CHECK(resolve_comm_thread(CommThread::dedicated, 1) == CommThread::dedicated);
}

TEST_CASE("the index parameters' defaults are the options' defaults") {
  const Options o;
  const DeleteParams d;
  CHECK(d.prefix_length == o.prefix_length);
  CHECK(d.max_distance == o.max_distance);
}

TEST_CASE("document mode's filters, formats, order and exit status: defaults by mode") {
  const Options spec = parse({"d", "in"});
  CHECK_FALSE(spec.filters.any());
  CHECK_FALSE(spec.formats.automatic);
  CHECK(spec.formats.format == CorpusFormat::text);
  CHECK_FALSE(spec.sort_by_count);
  CHECK_FALSE(spec.exit_status);
  const Options ranked = parse({"--suggest", "ranked", "d", "in"});
  CHECK(ranked.filters == auto_filters());
  CHECK(ranked.formats.automatic);
  const Options words = parse({"--suggest", "ranked", "--words", "d", "in"});
  CHECK_FALSE(words.filters.any());
  CHECK_FALSE(words.formats.automatic);
  const Options set = parse({"--suggest=ranked", "--filter", "none", "--filter=html,digits", "--input-format", "jsonl",
                             "--text-field", "content", "--strict", "--sort", "count", "--exit-status", "d", "in"});
  CHECK(set.filters.markup == Markup::html);
  CHECK(set.filters.digits);
  CHECK_FALSE(set.filters.url);
  CHECK_FALSE(set.formats.automatic);
  CHECK(set.formats.format == CorpusFormat::jsonl);
  CHECK(set.formats.text_field == "content");
  CHECK(set.formats.strict);
  CHECK(set.sort_by_count);
  CHECK(set.exit_status);
  CHECK(parse({"--input-format", "auto", "d", "in"}).formats.automatic);
  CHECK_THROWS_AS(parse({"--filter", "htm", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--input-format", "csv", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--sort", "size", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--text-field", "", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--words", "--filter", "url", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--words", "--input-format", "jsonl", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--words", "--sort", "count", "d", "in"}), UsageError);
}

TEST_CASE("--per-document FILE, --per-document-top N, --id-field NAME") {
  const Options none = parse({"d", "in"});
  CHECK(none.per_document.empty());
  CHECK(none.per_document_top == 5);
  CHECK(none.formats.id_field.empty());
  const Options set = parse({"--per-document", "docs.jsonl", "--per-document-top=0", "--id-field", "url", "d", "in"});
  CHECK(set.per_document == "docs.jsonl");
  CHECK(set.per_document_top == 0);
  CHECK(set.formats.id_field == "url");
  CHECK_THROWS_AS(parse({"--words", "--per-document", "x", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--per-document-top", "-1", "d", "in"}), UsageError);
  CHECK_THROWS_AS(parse({"--id-field", "", "d", "in"}), UsageError);
}

TEST_CASE("compile: one DICTIONARY, -o, --buckets a power of two") {
  const Options o = parse({"compile", "--buckets", "64", "-o", "d.scd", "words.txt", "--extra-dict", "x.txt"});
  CHECK(o.compile);
  CHECK(o.buckets == 64);
  CHECK(o.output == "d.scd");
  CHECK(o.dictionary == "words.txt");
  CHECK(o.inputs.empty());
  CHECK(o.extra_dicts == std::vector<std::string>{"x.txt"});
  CHECK(parse({"compile", "-o", "d.scd", "w"}).buckets == 0);                     // the default, chosen by compile
  CHECK_THROWS_AS(parse({"compile", "w"}), UsageError);                           // no -o
  CHECK_THROWS_AS(parse({"compile", "-o", "d.scd"}), UsageError);                 // no DICTIONARY
  CHECK_THROWS_AS(parse({"compile", "-o", "d.scd", "w", "in.txt"}), UsageError);  // an input
  CHECK_THROWS_AS(parse({"compile", "--buckets", "48", "-o", "d.scd", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"compile", "--buckets", "0", "-o", "d.scd", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"compile", "--suggest", "ranked", "-o", "d.scd", "w"}), UsageError);
  CHECK_THROWS_AS(parse({"--buckets", "64", "d", "in.txt"}), UsageError);  // a run's option it is not
  CHECK_FALSE(parse({"d", "compile"}).compile);                            // an input named compile
}
