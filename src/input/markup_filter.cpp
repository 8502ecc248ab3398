#include "spellcheck/input/markup_filter.hpp"

#include "spellcheck/input/detail/html_filter.hpp"
#include "spellcheck/input/detail/jsonl_filter.hpp"
#include "spellcheck/input/detail/markdown_filter.hpp"
#include "spellcheck/input/detail/nroff_filter.hpp"
#include "spellcheck/input/detail/tex_filter.hpp"
#include "spellcheck/input/detail/warc_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_markup_filter(Markup m) {
  switch (m) {
    case Markup::html: return make_html_filter();
    case Markup::markdown: return make_markdown_filter();
    case Markup::tex: return make_tex_filter();
    case Markup::nroff: return make_nroff_filter();
    default: return nullptr;
  }
}

std::unique_ptr<MarkupFilter> make_corpus_filter(CorpusFormat f, const InputFormats& formats) {
  switch (f) {
    case CorpusFormat::jsonl: return make_jsonl_filter(formats.text_field);
    case CorpusFormat::warc: return make_warc_filter();
    default: return nullptr;
  }
}

}  // namespace spellcheck
