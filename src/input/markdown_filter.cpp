#include "spellcheck/input/detail/markdown_filter.hpp"

#include <md4c.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spellcheck {

namespace {

// GitHub's dialect: tables, strikethrough, task lists, and permissive
// autolinks, so that bare URLs, www. addresses and e-mail addresses are
// links (their text blanked below), not prose.
constexpr unsigned kFlags = MD_DIALECT_GITHUB;

// The ranges of the document md4c reports as normal text. md4c's text
// callback points into the input for normal text (line breaks and NUL
// replacements point elsewhere: only pointers inside the input count).
class ProseRanges {
 public:
  ProseRanges(const char* doc, size_t size) : doc_(doc), size_(size) {}

  std::vector<std::pair<size_t, size_t>>& ranges() { return ranges_; }

  int text(MD_TEXTTYPE type, const char* p, size_t n) {
    if (type != MD_TEXT_NORMAL || p < doc_ || p > doc_ + size_ || n > size_ - static_cast<size_t>(p - doc_)) return 0;
    const auto at = static_cast<size_t>(p - doc_);
    ranges_.emplace_back(at, at + n);
    return 0;
  }

  void enter_link(const MD_SPAN_A_DETAIL& a) {
    link_from_ = ranges_.size();
    href_.clear();
    href_.append(a.href.text, a.href.size);
  }

  // An autolink's text is its target (less the "http://" or "mailto:" md4c
  // adds): not prose.
  void leave_link() {
    std::string text;
    for (size_t i = link_from_; i < ranges_.size(); ++i)
      text.append(doc_ + ranges_[i].first, ranges_[i].second - ranges_[i].first);
    const std::string_view href(href_);
    if (!text.empty() && href.ends_with(text)) {
      const std::string_view scheme = href.substr(0, href.size() - text.size());
      if (scheme.empty() || scheme == "http://" || scheme == "mailto:") ranges_.resize(link_from_);
    }
  }

 private:
  const char* doc_;
  size_t size_;
  std::vector<std::pair<size_t, size_t>> ranges_;
  size_t link_from_ = 0;
  std::string href_;
};

int on_text(MD_TEXTTYPE type, const MD_CHAR* p, MD_SIZE n, void* user) {
  return static_cast<ProseRanges*>(user)->text(type, p, n);
}

int on_enter_span(MD_SPANTYPE type, void* detail, void* user) {
  if (type == MD_SPAN_A) static_cast<ProseRanges*>(user)->enter_link(*static_cast<MD_SPAN_A_DETAIL*>(detail));
  return 0;
}

int on_leave_span(MD_SPANTYPE type, void*, void* user) {
  if (type == MD_SPAN_A) static_cast<ProseRanges*>(user)->leave_link();
  return 0;
}

int on_block(MD_BLOCKTYPE, void*, void*) { return 0; }

// A blanked byte: ' ', but '\n' stays.
void blank(unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = p[i] == '\n' ? '\n' : ' ';
}

class MarkdownFilter final : public MarkupFilter {
 public:
  bool whole_file() const override { return true; }

  size_t filter(unsigned char* buf, size_t n, bool at_end) override {
    if (!at_end) return 0;
    // md4c's sizes are unsigned int: a larger document (none is) stays as
    // it is, and so does one md4c fails on (out of memory).
    if (n > std::numeric_limits<MD_SIZE>::max()) return n;
    const char* doc = reinterpret_cast<const char*>(buf);
    ProseRanges prose(doc, n);
    MD_PARSER parser{};
    parser.flags = kFlags;
    parser.enter_block = on_block;
    parser.leave_block = on_block;
    parser.enter_span = on_enter_span;
    parser.leave_span = on_leave_span;
    parser.text = on_text;
    if (md_parse(doc, static_cast<MD_SIZE>(n), &parser, &prose) != 0) return n;
    auto& ranges = prose.ranges();
    std::sort(ranges.begin(), ranges.end());
    size_t done = 0;
    for (const auto& [from, to] : ranges) {
      if (from > done) blank(buf + done, from - done);
      done = std::max(done, to);
    }
    blank(buf + done, n - done);
    return n;
  }
};

}  // namespace

std::unique_ptr<MarkupFilter> make_markdown_filter() { return std::make_unique<MarkdownFilter>(); }

}  // namespace spellcheck
