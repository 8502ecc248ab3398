#include "spellcheck/suggest/detail/candidate_lookups.hpp"

#include <memory>
#include <stdexcept>

namespace spellcheck {

std::vector<Slot> slots_of(const std::vector<uint64_t>& tags) {
  std::vector<Slot> out;
  out.reserve(tags.size());
  for (const uint64_t t : tags) out.push_back(slot_of_tag(t));
  return out;
}

LookupService::Answer shard_answer(const Shard& shard) {
  // Where each record of the request being answered starts (kept between
  // requests: its capacity).
  auto record_at = std::make_shared<std::vector<size_t>>();
  return [&shard, record_at](std::string_view records, std::string& bits) {
    std::vector<size_t>& at = *record_at;
    at.clear();
    for (size_t pos = 0; pos < records.size();) {
      if (records.size() - pos < kLookupRecordHeader) throw std::runtime_error("a lookup record cut short");
      at.push_back(pos);
      pos += kLookupRecordHeader + wire::peek_le<uint16_t>(records.data() + pos + sizeof(uint64_t));
      if (pos > records.size()) throw std::runtime_error("a lookup record cut short");
    }
    bits.assign((at.size() + 7) / 8, '\0');
    shard.contains_each(
        at.size(), [&](size_t i) { return wire::peek_le<uint64_t>(records.data() + at[i]); },
        [&](size_t i) {
          const auto len = wire::peek_le<uint16_t>(records.data() + at[i] + sizeof(uint64_t));
          return records.substr(at[i] + kLookupRecordHeader, len);
        },
        [&](size_t i) { bits[i / 8] = static_cast<char>(bits[i / 8] | (1 << (i % 8))); });
    return at.size();
  };
}

}  // namespace spellcheck
