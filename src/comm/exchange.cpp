#include "spellcheck/comm/exchange.hpp"

#include <cstring>

#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

Routed route_by_owner(const mpi::Comm& comm, WordList words, std::vector<uint64_t> hashes,
                      std::vector<std::vector<uint64_t>> values, unsigned bucket_bits) {
  const int p = comm.size();
  const Ownership owner_of_hash{p, bucket_bits};
  const size_t n = words.size();
  if (p == 1) return Routed{std::move(words), std::move(hashes), std::move(values)};
  // Each word's hash travels with it, ahead of its numbers, so that owners
  // never hash it again.
  const size_t per_word = values.size();
  const size_t stride = 1 + per_word;
  constexpr size_t kU64 = sizeof(uint64_t);
  // Counting sort by owner: sizes per owner, then each word into its place.
  std::vector<int> owner(n);
  std::vector<size_t> word_bytes(static_cast<size_t>(p), 0), word_count(static_cast<size_t>(p), 0);
  for (size_t i = 0; i < n; ++i) {
    owner[i] = owner_of_hash(hashes[i]);
    word_bytes[static_cast<size_t>(owner[i])] += words[i].size() + 1;
    word_count[static_cast<size_t>(owner[i])] += 1;
  }
  mpi::Bytes send_words, send_numbers;
  send_words.counts = word_bytes;
  send_words.data.resize(words.bytes.size());
  send_numbers.counts.resize(static_cast<size_t>(p));
  send_numbers.data.resize(n * stride * kU64);
  std::vector<size_t> at(static_cast<size_t>(p)), nat(static_cast<size_t>(p));
  for (size_t r = 0, off = 0, noff = 0; r < static_cast<size_t>(p); ++r) {
    at[r] = off;
    nat[r] = noff;
    off += word_bytes[r];
    send_numbers.counts[r] = word_count[r] * stride * kU64;
    noff += send_numbers.counts[r];
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t r = static_cast<size_t>(owner[i]);
    const std::string_view w = words[i];
    std::memcpy(send_words.data.data() + at[r], w.data(), w.size());
    send_words.data[at[r] + w.size()] = '\n';
    at[r] += w.size() + 1;
    char* num = send_numbers.data.data() + nat[r];
    wire::store_le<uint64_t>(num, hashes[i]);
    for (size_t c = 0; c < per_word; ++c) wire::store_le<uint64_t>(num + (1 + c) * kU64, values[c][i]);
    nat[r] += stride * kU64;
  }
  Routed out;
  out.words.bytes = std::move(mpi::alltoallv_bytes(comm, send_words).data);
  out.words.index();
  const mpi::Bytes got = mpi::alltoallv_bytes(comm, send_numbers);
  const size_t m = out.words.size();
  out.hashes.resize(m);
  out.values.assign(per_word, std::vector<uint64_t>(m));
  const char* num = got.data.data();
  for (size_t i = 0; i < m; ++i, num += stride * kU64) {
    out.hashes[i] = wire::peek_le<uint64_t>(num);
    for (size_t c = 0; c < per_word; ++c) out.values[c][i] = wire::peek_le<uint64_t>(num + (1 + c) * kU64);
  }
  return out;
}

}  // namespace spellcheck
