#include "spellcheck/common/text_filters.hpp"

#include <array>
#include <cctype>

#include "spellcheck/common/errors.hpp"

namespace spellcheck {

namespace {

constexpr std::array<Markup, 4> kMarkups = {Markup::html, Markup::markdown, Markup::tex, Markup::nroff};

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

// A man page's name ends in its section: a digit 1-9, then at most a few
// letters (ls.1, perlfunc.1p, Digest::SHA.3pm).
bool is_man_page_name(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= name.size()) return false;
  const std::string_view section = name.substr(dot + 1);
  if (section[0] < '1' || section[0] > '9' || section.size() > 5) return false;
  for (size_t i = 1; i < section.size(); ++i)
    if (!std::islower(static_cast<unsigned char>(section[i]))) return false;
  return dot > 0;
}

}  // namespace

void add_filter_list(TextFilters& f, std::string_view list) {
  size_t at = 0;
  for (;;) {
    const size_t comma = list.find(',', at);
    const std::string_view name =
        list.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    if (name == "none") f = TextFilters{};
    else if (name == "url") f.url = true;
    else if (name == "digits") f.digits = true;
    else if (name == "auto") {
      f.url = f.digits = f.auto_markup = true;
    } else {
      bool known = false;
      for (const Markup m : kMarkups)
        if (name == markup_name(m)) {
          f.markup = m;
          known = true;
        }
      if (!known)
        throw UsageError("--filter: unknown filter '" + std::string(name) +
                         "' (url, digits, html, markdown, tex, nroff, auto or none)");
    }
    if (comma == std::string_view::npos) return;
    at = comma + 1;
  }
}

TextFilters auto_filters() {
  TextFilters f;
  add_filter_list(f, "auto");
  return f;
}

namespace {

// The file name of path, a compression suffix taken off.
std::string_view plain_name(std::string_view path) {
  std::string_view name = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  for (const std::string_view z : {".gz", ".bz2", ".xz", ".zst"})
    if (ends_with_ci(name, z)) {
      name.remove_suffix(z.size());
      break;
    }
  return name;
}

}  // namespace

void set_input_format(InputFormats& formats, std::string_view name) {
  formats.automatic = name == "auto";
  if (formats.automatic) return;
  for (const CorpusFormat f : {CorpusFormat::text, CorpusFormat::jsonl, CorpusFormat::warc})
    if (name == format_name(f)) {
      formats.format = f;
      return;
    }
  throw UsageError("--input-format must be text, jsonl, warc or auto, got '" + std::string(name) + "'");
}

CorpusFormat format_for_name(std::string_view path) {
  const std::string_view name = plain_name(path);
  if (ends_with_ci(name, ".jsonl") || ends_with_ci(name, ".ndjson")) return CorpusFormat::jsonl;
  if (ends_with_ci(name, ".warc") || ends_with_ci(name, ".wet")) return CorpusFormat::warc;
  return CorpusFormat::text;
}

CorpusFormat format_of(const InputFormats& formats, std::string_view path) {
  return formats.automatic ? format_for_name(path) : formats.format;
}

std::string_view format_name(CorpusFormat f) {
  switch (f) {
    case CorpusFormat::jsonl: return "jsonl";
    case CorpusFormat::warc: return "warc";
    default: return "text";
  }
}

Markup markup_for_name(std::string_view path) {
  const std::string_view name = plain_name(path);
  if (ends_with_ci(name, ".html") || ends_with_ci(name, ".htm") || ends_with_ci(name, ".xhtml")) return Markup::html;
  if (ends_with_ci(name, ".md") || ends_with_ci(name, ".markdown")) return Markup::markdown;
  if (ends_with_ci(name, ".tex")) return Markup::tex;
  if (is_man_page_name(name)) return Markup::nroff;
  return Markup::none;
}

Markup markup_of(const TextFilters& f, std::string_view path) {
  if (f.markup != Markup::none) return f.markup;
  return f.auto_markup ? markup_for_name(path) : Markup::none;
}

std::string_view markup_name(Markup m) {
  switch (m) {
    case Markup::html: return "html";
    case Markup::markdown: return "markdown";
    case Markup::tex: return "tex";
    case Markup::nroff: return "nroff";
    default: return "none";
  }
}

}  // namespace spellcheck
