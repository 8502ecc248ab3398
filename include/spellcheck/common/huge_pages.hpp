#pragma once
// Large blocks on transparent huge pages. The large tables here (the
// shards, the ranked index, the exchange buffers) are read at random and
// first touched once: with 4 KiB pages each first touch is a page fault
// and each random read likely a TLB miss. With huge pages on, blocks of
// 2 MiB or more are aligned to 2 MiB and advised as huge pages
// (MADV_HUGEPAGE). Whether that wins depends on the kernel: with THP's
// defrag setting "madvise" (Debian's default) or "always", every advised
// fault may first compact memory synchronously, and runs were slower than
// on ordinary pages (results/huge-pages.md). So --huge-pages auto, the
// default, turns them on only where the kernel never stalls for them.
// The executable's operator new takes its blocks from here (global_new.cpp).
#include <cstddef>
#include <string>

namespace spellcheck {

// Whether blocks of kHugePage or more are advised (default: no).
void set_huge_pages(bool on);
bool huge_pages();

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// n bytes (at least one), aligned to kHugePage and advised when n is at
// least that and huge pages are on; std::free releases them. nullptr when
// out of memory.
void* allocate_maybe_huge(std::size_t n) noexcept;

// The kernel's transparent huge page settings: the selected word of
// /sys/kernel/mm/transparent_hugepage/enabled and .../defrag (the one in
// brackets, "always [madvise] never" -> "madvise"); empty where unreadable.
struct ThpSettings {
  std::string enabled;
  std::string defrag;
};
ThpSettings read_thp_settings();
// The selected word of one such file's text.
std::string selected_thp_word(const std::string& text);
// --huge-pages auto: on only when THP can serve advised blocks (enabled
// "always" or "madvise") without compacting synchronously (defrag "defer"
// or "never").
bool huge_pages_pay(const ThpSettings& thp);

// Whether this process runs with glibc's malloc on huge pages (the user's
// GLIBC_TUNABLES holds glibc.malloc.hugetlb=1 or 2; --stats).
bool malloc_huge_pages();

}  // namespace spellcheck
