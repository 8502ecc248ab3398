#pragma once
// The nroff/troff/man filter (--filter nroff), like hunspell -n: requests
// and macros, comments, escapes and example blocks are blanked; the text
// and the arguments of the text macros (.SH, .B, .IR, ...) stay. Special
// characters that are letters (\(:a, \['e], \[u00E9]) are decoded.
#include <memory>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_nroff_filter();

}  // namespace spellcheck
