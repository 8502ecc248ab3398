#pragma once
// The Markdown filter (--filter markdown), on Debian's md4c (libmd4c-dev):
// what md4c reports as normal text (paragraphs, headings, emphasis, link
// and image text, list items, table cells) is prose; everything else (code
// spans and blocks, raw HTML, link targets, autolinked URLs, markup
// characters, entities) is blanked. md4c needs the whole document: the
// filter is whole_file().
#include <memory>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_markdown_filter();

}  // namespace spellcheck
