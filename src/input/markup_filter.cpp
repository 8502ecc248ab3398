#include "spellcheck/input/markup_filter.hpp"

#include "spellcheck/input/detail/html_filter.hpp"
#include "spellcheck/input/detail/markdown_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_markup_filter(Markup m) {
  switch (m) {
    case Markup::html: return make_html_filter();
    case Markup::markdown: return make_markdown_filter();
    default: return nullptr;
  }
}

}  // namespace spellcheck
