#pragma once
// The HTML filter (--filter html), a hand-written streaming state machine:
// tags, comments, declarations, processing instructions and CDATA are
// blanked, and so is the content of the elements that hold code (script,
// style, code, pre, kbd, samp, var, tt); the values of alt and title
// attributes are prose. Character references that are letters (&eacute;,
// &#233;) or apostrophes (&rsquo;, &#39;) are decoded in place; the others
// (&amp;, &nbsp;, &mdash;, &#8212;) are blanked: they separate words.
#include <memory>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_html_filter();

}  // namespace spellcheck
