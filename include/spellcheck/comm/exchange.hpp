#pragma once
// Routing words to the ranks that own them (owner = owner_of(word_hash), see word_hash.hpp), with
// one personalised all-to-all of the words and, where words carry numbers
// (occurrence counts, first positions), one more of those numbers.
#include <cstdint>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/common/word_list.hpp"

namespace spellcheck {

struct Routed {
  WordList words;                             // the words this rank owns, from every rank
  std::vector<uint64_t> hashes;               // word_hash of each (sent along, not recomputed)
  std::vector<std::vector<uint64_t>> values;  // columns of numbers, one number per word each, if any were sent
};

// Collective: sends word i (and values[c][i] of every column c) to
// owner_of(hashes[i], p) (or, with bucket_bits, to Ownership's owner).
// Takes everything by value: on one rank it is the result as it is (no
// copy: fresh memory is costly).
Routed route_by_owner(const mpi::Comm& comm, WordList words, std::vector<uint64_t> hashes,
                      std::vector<std::vector<uint64_t>> values = {}, unsigned bucket_bits = 0);

}  // namespace spellcheck
