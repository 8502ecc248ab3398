#pragma once
// Error types and how they map to exit codes (SPEC: bad input exits 2).
#include <stdexcept>
#include <string>

namespace spellcheck {

// A bad option, or a rank/thread configuration we cannot run with.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A missing, unreadable, or empty-but-required input file.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

}  // namespace spellcheck
