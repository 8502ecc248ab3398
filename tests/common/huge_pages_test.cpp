// allocate_maybe_huge: large blocks aligned to 2 MiB and advised as huge
// pages (the kernel marks their mapping "hg" in /proc/self/smaps), small
// ones and everything with huge pages off left as malloc gives them.
#include "spellcheck/common/huge_pages.hpp"

#include <doctest/doctest.h>

#include "spellcheck/dictionary/detail/arena.hpp"
#include "spellcheck/input/detail/word_table.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

using namespace spellcheck;

namespace {

// The VmFlags of the mapping that holds p, from /proc/self/smaps ("" when
// none does).
std::string vm_flags_of(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(' ') != std::string::npos &&
        line.find(':') > line.find(' ')) {
      inside = lo <= at && at < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

bool advised_huge(const void* p) { return vm_flags_of(p).find(" hg") != std::string::npos; }

}  // namespace

TEST_CASE("large blocks are aligned to 2 MiB and advised as huge pages; small ones and switched-off ones are not") {
  REQUIRE_FALSE(huge_pages());  // the default, until main decides
  set_huge_pages(true);
  const size_t big = 3 * kHugePage + 12345;
  void* p = allocate_maybe_huge(big);
  REQUIRE(p != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(p) % kHugePage == 0);
  std::memset(p, 1, big);  // every byte of it is ours
  CHECK(advised_huge(p));
  CHECK(advised_huge(static_cast<char*>(p) + big - 1));
  std::free(p);

  void* small = allocate_maybe_huge(1000);
  REQUIRE(small != nullptr);
  CHECK_FALSE(advised_huge(small));
  std::free(small);
  void* none = allocate_maybe_huge(0);  // malloc(0) may be null: this is not
  CHECK(none != nullptr);
  std::free(none);

  set_huge_pages(false);
  void* plain = allocate_maybe_huge(big);
  REQUIRE(plain != nullptr);
  std::memset(plain, 2, big);
  CHECK_FALSE(advised_huge(plain));
  std::free(plain);

  CHECK(allocate_maybe_huge(static_cast<size_t>(-1) - 10) == nullptr);  // no such block: null, not a wrapped size
}

TEST_CASE("the shard's arena and the word tables follow the switch: nothing advised with huge pages off") {
  const size_t big = size_t{8} << 20;
  for (const bool on : {false, true}) {
    set_huge_pages(on);
    Arena arena;
    void* block = arena.allocate(big, 16);  // a block of its own
    std::memset(block, 1, big);
    CHECK(advised_huge(static_cast<char*>(block) + big / 2) == on);
    ZeroArray<uint64_t> table(big / sizeof(uint64_t));
    table[table.size() / 2] = 1;
    CHECK(advised_huge(&table[table.size() / 2]) == on);
  }
  set_huge_pages(false);
}

TEST_CASE("auto: huge pages only where the kernel does not compact for them synchronously") {
  CHECK(selected_thp_word("always [madvise] never\n") == "madvise");
  CHECK(selected_thp_word("always defer defer+madvise [madvise] never\n") == "madvise");
  CHECK(selected_thp_word("[always] madvise never") == "always");
  CHECK(selected_thp_word("") == "");
  CHECK(selected_thp_word("madvise") == "");
  // This project's test machines: enabled=madvise, defrag=madvise (slower with huge pages).
  CHECK_FALSE(huge_pages_pay({"madvise", "madvise"}));
  CHECK_FALSE(huge_pages_pay({"always", "always"}));
  CHECK_FALSE(huge_pages_pay({"madvise", "defer+madvise"}));
  CHECK_FALSE(huge_pages_pay({"never", "never"}));
  CHECK_FALSE(huge_pages_pay({"", ""}));
  CHECK(huge_pages_pay({"madvise", "defer"}));
  CHECK(huge_pages_pay({"always", "never"}));
  CHECK(huge_pages_pay({"madvise", "never"}));
}
