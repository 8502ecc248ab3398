#include "spellcheck/input/detail/filter_chain.hpp"

#include <algorithm>
#include <utility>

#include "spellcheck/input/detail/jsonl_filter.hpp"
#include "spellcheck/input/detail/url_filter.hpp"
#include "spellcheck/input/detail/warc_filter.hpp"
#include "spellcheck/input/input_plan.hpp"

namespace spellcheck {

FilterChain::FilterChain(const InputFile& file, const TextFilters& f, const InputFormats& formats) {
  // The records' text first; then markup: a URL in an attribute is blanked
  // with its tag, and one in prose is then seen whole.
  if (auto corpus = make_corpus_filter(file.format, formats)) {
    corpus_ = corpus.get();
    stages_.push_back({std::move(corpus)});
  }
  if (auto markup = make_markup_filter(file.markup)) stages_.push_back({std::move(markup)});
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

bool FilterChain::on_record(RecordFn f, const std::string& id_field) {
  if (auto* jsonl = dynamic_cast<JsonlFilter*>(corpus_)) {
    jsonl->on_record(std::move(f), id_field);
    return true;
  }
  if (auto* warc = dynamic_cast<WarcFilter*>(corpus_)) {
    warc->on_record(std::move(f));
    return true;
  }
  return false;
}

void FilterChain::dropped(size_t bytes) {
  for (Stage& s : stages_) s.done -= bytes;
}

}  // namespace spellcheck
