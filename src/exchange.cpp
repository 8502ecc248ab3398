#include "spellcheck/exchange.hpp"

#include <cstring>

#include "spellcheck/word_hash.hpp"

namespace spellcheck {

Routed route_by_owner(const mpi::Comm& comm, const WordList& words, const std::vector<uint64_t>& hashes,
                      const std::vector<uint64_t>& values, size_t per_word) {
  const int p = comm.size();
  const size_t n = words.size();
  // Counting sort by owner: bytes per owner, then each word into its place.
  std::vector<int> owner(n);
  std::vector<size_t> word_bytes(static_cast<size_t>(p), 0), word_count(static_cast<size_t>(p), 0);
  for (size_t i = 0; i < n; ++i) {
    owner[i] = owner_of(hashes[i], p);
    word_bytes[static_cast<size_t>(owner[i])] += words[i].size() + 1;
    word_count[static_cast<size_t>(owner[i])] += 1;
  }
  mpi::Bytes send_words, send_values;
  send_words.counts = word_bytes;
  send_words.data.resize(words.bytes.size());
  send_values.counts.resize(static_cast<size_t>(p));
  std::vector<size_t> at(static_cast<size_t>(p)), vat(static_cast<size_t>(p));
  for (size_t r = 0, off = 0, voff = 0; r < static_cast<size_t>(p); ++r) {
    at[r] = off;
    vat[r] = voff;
    off += word_bytes[r];
    send_values.counts[r] = word_count[r] * per_word * sizeof(uint64_t);
    voff += send_values.counts[r];
  }
  send_values.data.resize(n * per_word * sizeof(uint64_t));
  for (size_t i = 0; i < n; ++i) {
    const size_t r = static_cast<size_t>(owner[i]);
    const std::string_view w = words[i];
    std::memcpy(send_words.data.data() + at[r], w.data(), w.size());
    send_words.data[at[r] + w.size()] = '\n';
    at[r] += w.size() + 1;
    if (per_word) {
      std::memcpy(send_values.data.data() + vat[r], values.data() + i * per_word, per_word * sizeof(uint64_t));
      vat[r] += per_word * sizeof(uint64_t);
    }
  }
  Routed out;
  out.words.bytes = std::move(mpi::alltoallv_bytes(comm, send_words).data);
  out.words.index();
  if (per_word) {
    const mpi::Bytes got = mpi::alltoallv_bytes(comm, send_values);
    out.values.resize(got.data.size() / sizeof(uint64_t));
    std::memcpy(out.values.data(), got.data.data(), got.data.size());
  }
  out.hashes.resize(out.words.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < out.words.size(); ++i) out.hashes[i] = word_hash(out.words[i]);
  return out;
}

}  // namespace spellcheck
