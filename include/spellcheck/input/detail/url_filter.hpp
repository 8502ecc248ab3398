#pragma once
// The url filter (--filter url): URLs, e-mail addresses and file paths are
// blanked, as hunspell's text parser decides (textparser.cxx, check_urls): a
// run of word characters and the punctuation URLs are made of, starting at a
// word character or '/', is a URL when it holds "://", ":\", or '@', or when
// it starts with '/'. "and/or" and "10:30" stay prose.
#include <memory>

#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_url_filter();

}  // namespace spellcheck
