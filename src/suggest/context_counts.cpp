#include "spellcheck/suggest/detail/context_counts.hpp"

#include <algorithm>

namespace spellcheck::detail {

std::string send_to_owners(const mpi::Comm& comm, std::vector<std::string>& to) {
  mpi::Bytes out;
  for (std::string& b : to) {
    out.data += b;
    out.counts.push_back(b.size());
    b = std::string();
  }
  return mpi::alltoallv_bytes(comm, out).data;
}

// Each rank's buffer of (key, count) records to its owner; summed there.
CountTable sum_at_owners(const mpi::Comm& comm, std::vector<std::string>& to) {
  const std::string recv = send_to_owners(comm, to);
  CountTable owned(recv.size() / 16);
  for (size_t at = 0; at < recv.size();) {
    const uint64_t k = wire::read_le_at<uint64_t>(recv, at, "context counts");
    owned.add(k, wire::read_le_at<uint64_t>(recv, at, "context counts"));
  }
  return owned;
}

CountTable ask_counts(const mpi::Comm& comm, const std::vector<uint64_t>& keys, const CountTable& owned) {
  const BloomFilter counted =
      shared_filter(comm, owned.size(), [&](auto insert) { owned.for_each([&](uint64_t k, uint64_t) { insert(k); }); });
  const size_t p = static_cast<size_t>(comm.size());
  std::vector<std::vector<uint32_t>> asked(p);  // indices into keys, per owner
  for (uint32_t i = 0; i < keys.size(); ++i)
    if (counted.maybe_contains(keys[i], 0)) asked[static_cast<size_t>(owner_of(keys[i], comm.size()))].push_back(i);
  mpi::Bytes send;
  for (const auto& ids : asked) {
    for (const uint32_t i : ids) wire::append_le<uint64_t>(send.data, keys[i]);
    send.counts.push_back(ids.size() * 8);
  }
  const mpi::Bytes questions = mpi::alltoallv_bytes(comm, send);
  mpi::Bytes answers;
  answers.counts = questions.counts;
  for (size_t at = 0; at < questions.data.size();)
    wire::append_le<uint64_t>(answers.data,
                              owned.count(wire::read_le_at<uint64_t>(questions.data, at, "context keys")));
  const mpi::Bytes replies = mpi::alltoallv_bytes(comm, answers);
  CountTable counts(keys.size() / 4);
  size_t at = 0;
  for (const auto& ids : asked)
    for (const uint32_t i : ids)
      if (const uint64_t n = wire::read_le_at<uint64_t>(replies.data, at, "context counts"); n > 0)
        counts.add(keys[i], n);
  return counts;
}

BloomFilter correct_filter(const mpi::Comm& comm, const std::vector<WordCount>& word_counts) {
  uint64_t n = 0;
  for (const WordCount& w : word_counts) n += w.correct;
  return shared_filter(comm, n, [&](auto insert) {
    for (const WordCount& w : word_counts)
      if (w.correct) insert(known_key(w.key));
  });
}

CountTable correct_counts(const mpi::Comm& comm, const std::vector<uint64_t>& known_keys,
                          const std::vector<WordCount>& word_counts) {
  const BloomFilter wanted = shared_filter(comm, known_keys.size(), [&](auto insert) {
    for (const uint64_t k : known_keys) insert(k);
  });
  const CountTable owned = counts_at_owners(comm, wanted, [&](auto send) {
    for (const WordCount& w : word_counts)
      if (w.correct) send(known_key(w.key), w.count);
  });
  return ask_counts(comm, known_keys, owned);
}

namespace {
constexpr size_t kPrefetchAhead = 16;
}

void make_distinct(std::vector<uint64_t>& keys) {
  CountTable distinct(keys.size() / 4);  // (a hash set: often far fewer distinct keys than keys)
  const size_t n = keys.size();
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) distinct.prefetch(keys[i + kPrefetchAhead]);
    distinct.add(keys[i], 0);
  }
  keys.clear();
  distinct.for_each([&](uint64_t k, uint64_t) { keys.push_back(k); });
}

void look_up_counts(const CountTable& table, const std::vector<uint64_t>& keys, std::vector<uint64_t>& counts) {
  const size_t n = keys.size();
  counts.resize(n);
  for (size_t i = 0; i < std::min(n, kPrefetchAhead); ++i) table.prefetch(keys[i]);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) table.prefetch(keys[i + kPrefetchAhead]);
    counts[i] = table.count(keys[i]);
  }
}

}  // namespace spellcheck::detail
