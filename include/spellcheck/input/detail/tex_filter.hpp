#pragma once
// The TeX/LaTeX filter (--filter tex), like aspell's tex filter and
// hunspell -t: control sequences, comments, math, verbatim text and the
// arguments that are not prose (\cite, \ref, \label, \usepackage, ...) are
// blanked; other commands' arguments stay. Accent macros (caf\'e,
// Schr\"{o}dinger, {\ss}) are decoded to UTF-8.
#include <memory>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_tex_filter();

}  // namespace spellcheck
