// libFuzzer target: the input plan's wire format (the broadcast every rank
// decodes) and the stream split. Malformed bytes must be refused with an
// exception; a plan that decodes must encode back to the same bytes, have
// ascending offsets, and split_stream over 1-8 ranks must cover every
// stream byte exactly once, in order.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "spellcheck/input/input_plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  spellcheck::InputPlan plan;
  try {
    plan = spellcheck::deserialize_input_plan(bytes);
  } catch (const std::runtime_error&) {
    return 0;
  }
  if (spellcheck::serialize_input_plan(plan) != bytes) std::abort();
  if (plan.offsets.size() != plan.files.size() + 1) std::abort();
  for (size_t i = 0; i < plan.files.size(); ++i)
    if (plan.offsets[i + 1] != plan.offsets[i] + plan.files[i].size || plan.offsets[i + 1] < plan.offsets[i])
      std::abort();  // (the second: a sum that wrapped round)
  for (int ranks = 1; ranks <= 8; ++ranks) {
    uint64_t at = 0;  // the next stream byte expected
    for (int r = 0; r < ranks; ++r)
      for (const auto& range : spellcheck::split_stream(plan, r, ranks)) {
        if (range.file_index >= plan.files.size() || range.begin >= range.end) std::abort();
        if (range.end > plan.files[range.file_index].size) std::abort();
        if (plan.offsets[range.file_index] + range.begin != at) std::abort();
        at = plan.offsets[range.file_index] + range.end;
      }
    if (at != plan.total_bytes()) std::abort();
  }
  return 0;
}
