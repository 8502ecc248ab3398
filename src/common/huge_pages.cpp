#include "spellcheck/common/huge_pages.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace spellcheck {

namespace {
std::atomic<bool> huge_pages_on{true};
}  // namespace

void set_huge_pages(bool on) { huge_pages_on.store(on, std::memory_order_relaxed); }
bool huge_pages() { return huge_pages_on.load(std::memory_order_relaxed); }

void* allocate_maybe_huge(std::size_t n) noexcept {
  if (n < kHugePage || !huge_pages()) return std::malloc(n ? n : 1);
  const std::size_t rounded = (n + kHugePage - 1) / kHugePage * kHugePage;
  if (rounded < n) return nullptr;  // wrapped: no such block
  void* p = std::aligned_alloc(kHugePage, rounded);
  // Advice only: where it fails the block is ordinary memory.
  if (p != nullptr) ::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

bool malloc_huge_pages() {
  const char* t = std::getenv("GLIBC_TUNABLES");
  return t != nullptr && std::strstr(t, kHugeMallocTunable) != nullptr;
}

}  // namespace spellcheck
