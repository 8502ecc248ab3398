#include "spellcheck/input/detail/filter_chain.hpp"

#include <algorithm>

#include "spellcheck/input/detail/url_filter.hpp"

namespace spellcheck {

FilterChain::FilterChain(const TextFilters& f, Markup m) {
  // Markup first: a URL in an attribute is blanked with its tag, and one in
  // prose is then seen whole.
  if (auto markup = make_markup_filter(m)) stages_.push_back({std::move(markup)});
  if (f.url) stages_.push_back({make_url_filter()});
}

bool FilterChain::whole_file() const {
  return std::any_of(stages_.begin(), stages_.end(), [](const Stage& s) { return s.filter->whole_file(); });
}

size_t FilterChain::run(unsigned char* buf, size_t n, bool at_end) {
  size_t ready = n;  // bytes the stage before has decided
  for (Stage& s : stages_) {
    if (s.done < ready || at_end) s.done += s.filter->filter(buf + s.done, ready - s.done, at_end);
    ready = s.done;
  }
  return ready;
}

void FilterChain::dropped(size_t bytes) {
  for (Stage& s : stages_) s.done -= bytes;
}

}  // namespace spellcheck
