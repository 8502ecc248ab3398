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
// --exit-status: the run went well and found misspelled words.
inline constexpr int kExitMisspelled = 3;

// The exit status an exception stands for: bad usage or input 2, else 1.
inline int exit_code_of(const std::exception& e) {
  return dynamic_cast<const UsageError*>(&e) || dynamic_cast<const InputError*>(&e) ? kExitBadInput : kExitFailure;
}

}  // namespace spellcheck
