#pragma once
// Large blocks on transparent huge pages. Every large table here (the
// shards, the ranked index, the exchange buffers) is read at random and
// first touched once: with 4 KiB pages each first touch is a page fault
// and each random read likely a TLB miss. Blocks of 2 MiB or more are
// therefore aligned to 2 MiB and advised as huge pages (MADV_HUGEPAGE,
// which the kernel's default THP mode "madvise" honours; where THP is off
// it is ignored). The executable's operator new takes its blocks from
// here (global_new.cpp); --no-huge-pages switches it off.
#include <cstddef>

namespace spellcheck {

// Whether blocks of kHugePage or more are advised (default: yes).
void set_huge_pages(bool on);
bool huge_pages();

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// n bytes (at least one), aligned to kHugePage and advised when n is at
// least that and huge pages are on; std::free releases them. nullptr when
// out of memory.
void* allocate_maybe_huge(std::size_t n) noexcept;

// The blocks below kHugePage come from malloc's heap, on 4 KiB pages unless
// glibc's malloc advises its heap itself (the tunable glibc.malloc.hugetlb=1,
// read only when a process starts). Called first in main: unless huge pages
// are off (--no-huge-pages in argv), the tunable is set or the build is a
// sanitizer's, re-executes the program (/proc/self/exe, same argv) with the
// tunable added to GLIBC_TUNABLES. Returns when it does not (or the exec
// fails). Defined beside operator new (global_new.cpp): the executable's.
// Measured on docs/large with the index read from --index-cache, 2 ranks x
// 1 thread: ranked phase 4.48 -> 3.83 s (the lookups' many small blocks
// fault in 2 MiB at a time); SPEC mode unchanged (README).
void exec_with_huge_malloc(int argc, char** argv) noexcept;
inline constexpr const char* kHugeMallocTunable = "glibc.malloc.hugetlb=1";
// Whether this process runs with glibc.malloc.hugetlb=1 (--stats).
bool malloc_huge_pages();

}  // namespace spellcheck
