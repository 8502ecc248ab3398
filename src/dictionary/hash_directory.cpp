#include "spellcheck/dictionary/detail/hash_directory.hpp"

namespace spellcheck {

void HashDirectory::build(const std::vector<uint64_t>& keys, const std::vector<uint32_t>& starts) {
  slots_.reset(keys.size());
  for (size_t g = 0; g < keys.size(); ++g) slots_.insert(keys[g], Bounds{starts[g], starts[g + 1]});
}

}  // namespace spellcheck
