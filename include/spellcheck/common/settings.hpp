#pragma once
// Every environment variable the program reads, read here and nowhere else
// (the SPELLCHECK_* defaults of options go through the option parser:
// options.cpp). Each call reads the variable afresh (the callers that need
// one value for the run keep the first they read). A malformed value counts
// as unset: these are deployment settings and test hooks, not options, and
// a job must not fail on one. --help and the man page list them.
#include <cstddef>
#include <optional>
#include <string>

namespace spellcheck::settings {

// DICPATH: folders (':'-separated) where --lang looks first, as hunspell.
std::string dicpath();
// SPELLCHECK_RANKS_PER_NODE: ranks per node, declared (an emulated
// cluster, a test); 0 when unset: from MPI's shared-memory split.
int ranks_per_node();
// SLURM_NODEID: this rank's node under Slurm, when set.
std::optional<long> slurm_node_id();
// SPELLCHECK_CHANNEL_WEIGHTS: the ranked noisy channel's weights,
// "name=value,..." (noisy_channel.hpp); nullptr when unset.
const char* channel_weights();
// GLIBC_TUNABLES, as the C library read it (nullptr: unset).
const char* glibc_tunables();

// Test hooks: they exist to reach rare paths with small inputs.
namespace test_hooks {
// SPELLCHECK_MAX_MESSAGE_BYTES: the largest message (bytes, at least 1).
std::optional<size_t> max_message_bytes();
// SPELLCHECK_STREAM_PIECE_BYTES: the pieces a stream is read in.
std::optional<size_t> stream_piece_bytes();
// SPELLCHECK_FAULT: a fault to plant (common/fault.hpp); nullptr when unset.
const char* fault();
}  // namespace test_hooks

}  // namespace spellcheck::settings
