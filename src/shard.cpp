#include "spellcheck/shard.hpp"

#include <omp.h>

#include <memory>

namespace spellcheck {

void Shard::build(WordList entries) {
  entries_ = std::move(entries);
  const size_t n = entries_.size();
  hashes_.assign(n, 0);
  table_.rehash(n + n / 2);
  // Lower each entry's first byte in place: the stored key is the lowered
  // form, and the flag remembers what the entry was.
#pragma omp parallel
  {
    auto tri = std::make_unique<TrigramFilter>();
#pragma omp for schedule(dynamic, 4096) nowait
  for (size_t i = 0; i < n; ++i) {
    char* w = entries_.bytes.data() + entries_.starts[i];
    const std::string_view word = entries_[i];
    tri->add_entry(word);
    const uint8_t flag = is_ascii_upper(static_cast<unsigned char>(w[0])) ? kCapital : kExact;
    w[0] = ascii_lower(w[0]);
    const uint64_t h = XXH3_64bits(word.data(), word.size());
    hashes_[i] = h;
    auto [it, inserted] = table_.emplace(Key{word, h}, flag);
    if (!inserted) it->second.fetch_or(flag, std::memory_order_relaxed);
  }
#pragma omp critical(spellcheck_shard_trigrams)
    for (size_t k = 0; k < TrigramFilter::kWords; ++k) trigrams_.data()[k] |= tri->data()[k];
  }
}

}  // namespace spellcheck
