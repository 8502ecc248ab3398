// common/wire.hpp: integers little-endian whatever the machine, and the
// checked readers refuse bytes that end before the message does.
#include "spellcheck/common/wire.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace spellcheck;

TEST_CASE("integers travel little-endian") {
  std::string s;
  wire::append_le<uint32_t>(s, 0x01020304);
  wire::append_le<int64_t>(s, -2);
  CHECK(s.substr(0, 4) == std::string("\x04\x03\x02\x01", 4));
  CHECK(s.substr(4) == std::string("\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 8));
  const char* c = s.data();
  CHECK(wire::read_le<uint32_t>(c) == 0x01020304);
  CHECK(wire::read_le<int64_t>(c) == -2);
  char buf[2];
  wire::store_le<uint16_t>(buf, 0xABCD);
  CHECK(std::string(buf, 2) == "\xCD\xAB");
  CHECK(wire::peek_le<uint16_t>(buf) == 0xABCD);
}

TEST_CASE("checked reads step through a message and refuse one cut short") {
  std::string s;
  wire::append_le<uint64_t>(s, 42);
  const std::vector<uint16_t> flags{1, 65535, 7};
  wire::append_array_le(s, flags.data(), flags.size());
  s += "tail";
  size_t at = 0;
  CHECK(wire::read_le_at<uint64_t>(s, at, "m") == 42);
  std::vector<uint16_t> got(3);
  wire::read_array_le_at(s, at, got.data(), got.size(), "m");
  CHECK(got == flags);
  CHECK(wire::read_bytes_at(s, at, 4, "m") == "tail");
  CHECK(at == s.size());
  CHECK_THROWS_AS(wire::read_le_at<uint8_t>(s, at, "m"), wire::WireError);
  for (size_t cut = 0; cut < s.size(); ++cut) {
    const std::string_view part = std::string_view(s).substr(0, cut);
    size_t a = 0;
    CAPTURE(cut);
    CHECK_THROWS_WITH_AS(
        [&] {
          wire::read_le_at<uint64_t>(part, a, "a test message");
          wire::read_array_le_at(part, a, got.data(), got.size(), "a test message");
          wire::read_bytes_at(part, a, 4, "a test message");
        }(),
        "a test message: cut short", wire::WireError);
  }
  size_t beyond = s.size() + 1;
  CHECK_THROWS_AS(wire::read_le_at<uint8_t>(s, beyond, "m"), wire::WireError);
}
