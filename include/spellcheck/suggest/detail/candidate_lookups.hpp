#pragma once
// The candidate phase's lookups as records of the lookup service's
// requests (comm/lookup_service.hpp): [u64 hash][u16 length][bytes] (the
// owner reuses the hash: no rehash), each tagged with its Slot, and the
// owner's answer: the records looked up in its shard together (their
// misses overlap).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/comm/lookup_service.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/dictionary/shard.hpp"
#include "spellcheck/suggest/candidates.hpp"

namespace spellcheck {

inline constexpr size_t kLookupRecordHeader = sizeof(uint64_t) + sizeof(uint16_t);

inline uint64_t slot_tag(Slot s) { return (static_cast<uint64_t>(s.word) << 32) | s.edit.bits; }
inline Slot slot_of_tag(uint64_t tag) {
  return Slot{static_cast<uint32_t>(tag >> 32), EditRef{static_cast<uint32_t>(tag)}};
}

// Adds the lookup of candidate `cand` (hash h) for slot s. (A candidate is
// at most 60,001 bytes: max_word_length + 1.)
inline void add_lookup(RequestBatch& b, uint64_t h, std::string_view cand, Slot s) {
  const auto len = static_cast<uint16_t>(cand.size());
  char* p = b.add_record(kLookupRecordHeader + len, slot_tag(s));
  wire::store_le<uint64_t>(p, h);
  wire::store_le<uint16_t>(p + sizeof h, len);
  std::memcpy(p + kLookupRecordHeader, cand.data(), len);
}

// The confirmed tags as slots.
std::vector<Slot> slots_of(const std::vector<uint64_t>& tags);

// The lookup service's answer from this rank's shard (which must outlive it).
LookupService::Answer shard_answer(const Shard& shard);

}  // namespace spellcheck
