#pragma once
// --filter: what document mode leaves out of the text before judging words
// (hunspell's and aspell's filter modes). Chosen once from the options;
// each file's markup follows from it and the file's name.
#include <cstdint>
#include <string>
#include <string_view>

namespace spellcheck {

enum class Markup : uint8_t { none, html, markdown, tex, nroff };

struct TextFilters {
  bool url = false;              // URLs, e-mail addresses and file paths are not words
  bool digits = false;           // tokens holding a digit are not words (19xx, x86, mp3)
  bool auto_markup = false;      // each file's markup from its name (markup_for_name)
  Markup markup = Markup::none;  // one markup for every file (wins over auto_markup)

  bool any() const { return url || digits || auto_markup || markup != Markup::none; }
  friend bool operator==(const TextFilters&, const TextFilters&) = default;
};

// --input-format: how a file's bytes hold its documents. text: the file is
// one document; jsonl: a JSON object a line, its --text-field the text;
// warc: WARC records, the payloads of conversion (WET) records and the
// bodies of HTML and text responses the text.
enum class CorpusFormat : uint8_t { text, jsonl, warc };

struct InputFormats {
  bool automatic = true;                     // each file's format from its name (format_for_name)
  CorpusFormat format = CorpusFormat::text;  // every file's format when not automatic
  std::string text_field = "text";           // --text-field (jsonl)
  std::string id_field;                      // --id-field (jsonl, --per-document): a record's name
  bool strict = false;                       // --strict: a malformed record is bad input (exit 2)
};

// "text", "jsonl", "warc" (or "auto": formats.automatic) into formats;
// throws UsageError for another name.
void set_input_format(InputFormats& formats, std::string_view name);

// The format a name implies, compression suffixes (.gz .zst .bz2 .xz) aside:
// .jsonl and .ndjson are jsonl; .warc and .wet (.warc.wet) are warc; the
// rest text.
CorpusFormat format_for_name(std::string_view path);
CorpusFormat format_of(const InputFormats& formats, std::string_view path);
std::string_view format_name(CorpusFormat f);

// The filters named in a --filter value ("url,digits", "auto", "none", ...),
// added to f; "none" clears what came before. Throws UsageError naming an
// unknown filter.
void add_filter_list(TextFilters& f, std::string_view list);

// What `--filter auto` gives: url, digits, and markup by name.
TextFilters auto_filters();

// The markup a file's name implies: .html .htm .xhtml, .md .markdown, .tex,
// man pages (*.1 ... *.9, with an optional section suffix such as .3pm, and
// compressed: *.1.gz). Markup::none for any other name.
Markup markup_for_name(std::string_view path);

// The markup applied to the file at path under f.
Markup markup_of(const TextFilters& f, std::string_view path);

// "html", "markdown", "tex", "nroff", "none".
std::string_view markup_name(Markup m);

}  // namespace spellcheck
