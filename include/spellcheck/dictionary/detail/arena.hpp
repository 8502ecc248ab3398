#pragma once
// Arena: a thread-safe bump allocator for the shard's hash-table nodes. The
// table allocates one or two small nodes per entry; a general allocator
// spends on the order of a hundred instructions on each malloc and as many
// again on each free at exit, a large share of a small run. Here an allocation
// is a bump in the thread's own 64 KB slab, a free is nothing, and the
// memory goes back in a few large (2 MB-aligned) blocks when the arena
// dies. The blocks are advised as huge pages only with --huge-pages on
// (common/huge_pages.hpp): where a huge-page fault may compact memory first,
// they cost more than they save.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include <sys/mman.h>

#include "spellcheck/common/huge_pages.hpp"

namespace spellcheck {

class Arena {
 public:
  explicit Arena(size_t chunk_bytes = size_t{4} << 20) : chunk_bytes_(chunk_bytes) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    for (void* c : chunks_) std::free(c);
  }

  // Every size is rounded up to 16 bytes, so with 64-byte aligned chunks
  // every slot is 16-byte aligned, enough for the table's types.
  void* allocate(size_t bytes, size_t align) {
    if (align > kGranule) throw std::bad_alloc();
    bytes = (bytes + kGranule - 1) / kGranule * kGranule;
    if (bytes > kSlab) return shared(bytes);
    // Each thread bumps through a slab of its own, taken from the shared
    // chunk now and then: one atomic add on a line every thread writes, per
    // node, had two threads indexing slower than one.
    thread_local Slab slab;
    if (slab.arena != id_ || slab.cur + bytes > slab.end) {
      char* p = static_cast<char*>(shared(kSlab));
      slab = Slab{id_, p, p + kSlab};
    }
    void* r = slab.cur;
    slab.cur += bytes;
    return r;
  }
  size_t bytes_reserved() const { return reserved_; }

 private:
  static constexpr size_t kSlab = size_t{64} << 10;
  struct Slab {
    uint64_t arena = 0;  // id_ of the arena it came from (ids are never reused)
    char* cur = nullptr;
    char* end = nullptr;
  };
  static uint64_t next_id() {
    static std::atomic<uint64_t> ids{0};
    return ids.fetch_add(1, std::memory_order_relaxed) + 1;
  }

  void* shared(size_t bytes) {
    if (bytes > chunk_bytes_ / 4) return fresh_chunk(bytes, false);  // big arrays get their own block
    for (;;) {
      Chunk* c = current_.load(std::memory_order_acquire);
      if (c) {
        const size_t at = c->used.fetch_add(bytes, std::memory_order_relaxed);
        if (at + bytes <= c->size) return c->data + at;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (current_.load(std::memory_order_acquire) != c) continue;  // another thread refilled
      fresh_chunk(chunk_bytes_, true);
    }
  }

  static constexpr size_t kGranule = 16;
  static constexpr size_t kHeader = 64;  // Chunk header, padded to a cache line
  static constexpr size_t kHuge = size_t{2} << 20;

  // Caller holds mutex_ when make_current.
  void* fresh_chunk(size_t bytes, bool make_current) {
    std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
    if (!make_current) lock.lock();
    const size_t total = (kHeader + bytes + kHuge - 1) / kHuge * kHuge;
    void* raw = std::aligned_alloc(kHuge, total);
    if (!raw) throw std::bad_alloc();
    if (huge_pages()) madvise(raw, total, MADV_HUGEPAGE);
    chunks_.push_back(raw);
    reserved_ += bytes;
    if (!make_current) return static_cast<char*>(raw) + kHeader;
    Chunk* c = ::new (raw) Chunk;
    c->size = bytes;
    c->data = static_cast<char*>(raw) + kHeader;
    current_.store(c, std::memory_order_release);
    return c->data;
  }

  struct Chunk {
    std::atomic<size_t> used{0};
    size_t size = 0;
    char* data = nullptr;
  };
  const uint64_t id_ = next_id();
  size_t chunk_bytes_;
  std::atomic<Chunk*> current_{nullptr};
  std::mutex mutex_;
  std::vector<void*> chunks_;
  size_t reserved_ = 0;
};

// Standard allocator interface over an Arena; deallocate does nothing.
template <class T>
struct ArenaAllocator {
  using value_type = T;
  Arena* arena;
  explicit ArenaAllocator(Arena* a) noexcept : arena(a) {}
  template <class U>
  ArenaAllocator(const ArenaAllocator<U>& o) noexcept : arena(o.arena) {}
  T* allocate(size_t n) { return static_cast<T*>(arena->allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T*, size_t) noexcept {}
  template <class U>
  bool operator==(const ArenaAllocator<U>& o) const noexcept {
    return arena == o.arena;
  }
};

}  // namespace spellcheck
