#include "spellcheck/dictionary/shard.hpp"

#include <omp.h>

#include <memory>

#include "spellcheck/common/first_error.hpp"

namespace spellcheck {

void Shard::build(WordList entries, std::vector<uint64_t> hashes, bool with_trigrams) {
  entries_ = std::move(entries);
  const size_t n = entries_.size();
  const bool hash_here = hashes.size() != n;
  hashes_ = std::move(hashes);
  hashes_.resize(n);
  // One bucket per entry: in document mode most candidates that pass the
  // Bloom filter are real words, and each further node in a chain is one
  // more cache miss; shorter chains also build faster (fewer nodes to lock
  // and walk). Half as many buckets measured slower (results/design-choices.md).
  table_.rehash(n + 1);
  // Lower each entry's first byte in place: the stored key is the lowered
  // form, and the flag remembers what the entry was.
  FirstError err;
#pragma omp parallel
  {
    std::unique_ptr<TrigramFilter> tri;
    if (with_trigrams) err.run([&] { tri = std::make_unique<TrigramFilter>(); });
#pragma omp for schedule(dynamic, 4096) nowait
    for (size_t i = 0; i < n; ++i)
      err.run([&] {
        // The bucket a few entries ahead: a bucket is a cache miss.
        if (!hash_here && i + 8 < n) table_.prefetch_bucket(hashes_[i + 8]);
        char* w = entries_.bytes.data() + entries_.starts[i];
        const std::string_view word = entries_[i];
        if (tri) tri->add_entry(word);
        const uint8_t flag = is_ascii_upper(static_cast<unsigned char>(w[0])) ? kCapital : kExact;
        w[0] = ascii_lower(w[0]);
        if (hash_here) hashes_[i] = XXH3_64bits(word.data(), word.size());
        const uint64_t h = hashes_[i];
        // Most keys are new: inserted whole, without holding the entry's
        // lock. A key seen before (a duplicate line, or the capitalised
        // form's) gets its flag under the lock.
        if (!table_.insert(Entry{Key{word, h}, flag})) {
          Table::accessor acc;
          if (table_.find(acc, Key{word, h})) acc->second |= flag;
        }
      });
    if (tri) {
#pragma omp critical(spellcheck_shard_trigrams)
      for (size_t k = 0; k < TrigramFilter::kWords; ++k) trigrams_.data()[k] |= tri->data()[k];
    }
  }
  err.rethrow();
}

}  // namespace spellcheck
