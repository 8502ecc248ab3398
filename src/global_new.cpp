// The executable's operator new and delete: every block from
// allocate_maybe_huge (common/huge_pages.hpp), so that large ones lie on
// huge pages when --huge-pages turns them on. Not in sanitizer builds,
// whose runtimes track new and delete themselves.
#include <cstdlib>
#include <new>

#include "spellcheck/common/huge_pages.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SPELLCHECK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPELLCHECK_SANITIZED 1
#endif

#ifndef SPELLCHECK_SANITIZED
namespace {
void* allocate_or_throw(std::size_t n) {
  void* p = spellcheck::allocate_maybe_huge(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return allocate_or_throw(n); }
void* operator new[](std::size_t n) { return allocate_or_throw(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return spellcheck::allocate_maybe_huge(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return spellcheck::allocate_maybe_huge(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#endif
