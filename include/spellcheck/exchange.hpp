#pragma once
// Routing words to the ranks that own them (owner = owner_of(word_hash), see word_hash.hpp), with
// one personalised all-to-all of the words and, where words carry numbers
// (occurrence counts, first positions), one more of those numbers.
#include <cstdint>
#include <vector>

#include "spellcheck/mpi.hpp"
#include "spellcheck/word_list.hpp"

namespace spellcheck {

struct Routed {
  WordList words;                // the words this rank owns, from every rank
  std::vector<uint64_t> hashes;  // word_hash of each (recomputed here)
  std::vector<uint64_t> values;  // `per_word` numbers per word, if any were sent
};

// Collective: sends word i (and values[i*per_word .. +per_word)) to
// owner_of(hashes[i], p). Takes the words and numbers by value: on one rank
// they are the result as they are (no copy: fresh memory is costly).
Routed route_by_owner(const mpi::Comm& comm, WordList words, std::vector<uint64_t> hashes,
                      std::vector<uint64_t> values = {}, size_t per_word = 0);

}  // namespace spellcheck
