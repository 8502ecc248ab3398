#include "spellcheck/common/huge_pages.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "spellcheck/common/settings.hpp"

namespace spellcheck {

namespace {
std::atomic<bool> huge_pages_on{false};

std::string read_small_file(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

void set_huge_pages(bool on) { huge_pages_on.store(on, std::memory_order_relaxed); }
bool huge_pages() { return huge_pages_on.load(std::memory_order_relaxed); }

void* allocate_maybe_huge(std::size_t n) noexcept {
  if (n > static_cast<std::size_t>(PTRDIFF_MAX)) return nullptr;  // no such block (malloc's answer too)
  if (n < kHugePage || !huge_pages()) return std::malloc(n ? n : 1);
  const std::size_t rounded = (n + kHugePage - 1) / kHugePage * kHugePage;
  if (rounded < n) return nullptr;  // wrapped: no such block
  void* p = std::aligned_alloc(kHugePage, rounded);
  // Advice only: where it fails the block is ordinary memory.
  if (p != nullptr) ::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

std::string selected_thp_word(const std::string& text) {
  const size_t open = text.find('[');
  const size_t close = text.find(']', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return text.substr(open + 1, close - open - 1);
}

ThpSettings read_thp_settings() {
  return {selected_thp_word(read_small_file("/sys/kernel/mm/transparent_hugepage/enabled")),
          selected_thp_word(read_small_file("/sys/kernel/mm/transparent_hugepage/defrag"))};
}

bool huge_pages_pay(const ThpSettings& thp) {
  const bool served = thp.enabled == "always" || thp.enabled == "madvise";
  const bool no_stall = thp.defrag == "defer" || thp.defrag == "never";
  return served && no_stall;
}

bool malloc_huge_pages() {
  const char* t = settings::glibc_tunables();
  return t != nullptr &&
         (std::strstr(t, "glibc.malloc.hugetlb=1") != nullptr || std::strstr(t, "glibc.malloc.hugetlb=2") != nullptr);
}

}  // namespace spellcheck
