#include "spellcheck/input/markup_filter.hpp"

namespace spellcheck {

std::unique_ptr<MarkupFilter> make_markup_filter(Markup m) {
  switch (m) {
    default: return nullptr;
  }
}

}  // namespace spellcheck
