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

}  // namespace spellcheck
