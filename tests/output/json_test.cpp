// JSON output: string escaping (valid UTF-8 kept, invalid bytes as U+FFFD)
// and objects, as --stats and --format jsonl write them.
#include "spellcheck/output/detail/json.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

using namespace spellcheck;

namespace {
std::string json(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}
}  // namespace

TEST_CASE("append_json_string: escaping") {
  CHECK(json("plain") == "\"plain\"");
  CHECK(json("") == "\"\"");
  CHECK(json("a\"b") == "\"a\\\"b\"");
  CHECK(json("a\\b") == "\"a\\\\b\"");
  CHECK(json("tab\there") == "\"tab\\u0009here\"");
  CHECK(json(std::string_view("nul\0x", 5)) == "\"nul\\u0000x\"");
  CHECK(json("\x01\x1f") == "\"\\u0001\\u001f\"");
  CHECK(json("\x7f") == "\"\x7f\"");
  CHECK(json("d\xC3\xA9j\xC3\xA0") == "\"d\xC3\xA9j\xC3\xA0\"");  // valid UTF-8 as it is
  CHECK(json("\xCE\xA9\xF0\x9D\x84\x9E") == "\"\xCE\xA9\xF0\x9D\x84\x9E\"");
  CHECK(json("a\xFF"
             "b") ==
        "\"a\xEF\xBF\xBD"
        "b\"");                                                               // an invalid byte: U+FFFD
  CHECK(json("\xC3") == "\"\xEF\xBF\xBD\"");                                  // truncated
  CHECK(json("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                  // overlong: one per byte
  CHECK(json("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // a surrogate
}

TEST_CASE("JsonObject: fields in order, nested, numbers, and keys and values escaped") {
  JsonObject inner;
  inner.add("n", uint64_t{18446744073709551615ULL}).add("x", 0.5).add("ok", true);
  JsonObject o;
  o.add("path", std::string("dir/\xFF\"q\".txt"))
      .add("inner", inner)
      .add("list", std::vector<JsonObject>{inner, JsonObject()});
  o.add("k\n", "v");
  CHECK(o.str() ==
        "{\"path\":\"dir/\xEF\xBF\xBD\\\"q\\\".txt\",\"inner\":{\"n\":18446744073709551615,\"x\":0.5,\"ok\":true},"
        "\"list\":[{\"n\":18446744073709551615,\"x\":0.5,\"ok\":true},{}],\"k\\u000a\":\"v\"}");
}
