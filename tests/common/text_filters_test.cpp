// --filter values and the markup a file's name implies.
#include "spellcheck/common/text_filters.hpp"

#include <doctest/doctest.h>

#include "spellcheck/common/errors.hpp"

using namespace spellcheck;

namespace {

TextFilters parsed(std::initializer_list<const char*> values) {
  TextFilters f;
  for (const char* v : values) add_filter_list(f, v);
  return f;
}

}  // namespace

TEST_CASE("filter lists: names, commas, repetition, none clears") {
  CHECK(parsed({"url"}).url);
  CHECK_FALSE(parsed({"url"}).digits);
  const TextFilters both = parsed({"url,digits"});
  CHECK((both.url && both.digits && !both.auto_markup && both.markup == Markup::none));
  CHECK(parsed({"url", "digits"}) == both);
  CHECK(parsed({"html"}).markup == Markup::html);
  CHECK(parsed({"markdown"}).markup == Markup::markdown);
  CHECK(parsed({"tex"}).markup == Markup::tex);
  CHECK(parsed({"nroff"}).markup == Markup::nroff);
  CHECK(parsed({"auto"}) == auto_filters());
  CHECK((auto_filters().url && auto_filters().digits && auto_filters().auto_markup));
  CHECK_FALSE(parsed({"auto", "none"}).any());
  CHECK(parsed({"none", "url"}) == parsed({"url"}));
  CHECK_THROWS_AS(parsed({"urls"}), UsageError);
  CHECK_THROWS_AS(parsed({"url,"}), UsageError);
  CHECK_THROWS_AS(parsed({""}), UsageError);
}

TEST_CASE("the markup a name implies") {
  CHECK(markup_for_name("a/b/index.html") == Markup::html);
  CHECK(markup_for_name("INDEX.HTM") == Markup::html);
  CHECK(markup_for_name("page.xhtml") == Markup::html);
  CHECK(markup_for_name("README.md") == Markup::markdown);
  CHECK(markup_for_name("notes.markdown") == Markup::markdown);
  CHECK(markup_for_name("/usr/share/doc/x/README.md.gz") == Markup::markdown);
  CHECK(markup_for_name("paper.tex") == Markup::tex);
  CHECK(markup_for_name("/usr/share/man/man1/ls.1.gz") == Markup::nroff);
  CHECK(markup_for_name("perlfunc.1p") == Markup::nroff);
  CHECK(markup_for_name("Digest::SHA.3pm.gz") == Markup::nroff);
  CHECK(markup_for_name("ls.8") == Markup::nroff);
  CHECK(markup_for_name("notes.txt") == Markup::none);
  CHECK(markup_for_name("file.0") == Markup::none);
  CHECK(markup_for_name(".1") == Markup::none);
  CHECK(markup_for_name("v1.10") == Markup::none);
  CHECK(markup_for_name("archive.1.tar") == Markup::none);
  CHECK(markup_for_name("html") == Markup::none);
  CHECK(markup_for_name("dir.html/file") == Markup::none);
  TextFilters f = auto_filters();
  CHECK(markup_of(f, "x.md") == Markup::markdown);
  add_filter_list(f, "html");  // one markup for every file wins over the name
  CHECK(markup_of(f, "x.md") == Markup::html);
  CHECK(markup_of(parsed({"url"}), "x.md") == Markup::none);
}
