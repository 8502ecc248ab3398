#include "spellcheck/common/settings.hpp"

#include <cstdlib>

namespace spellcheck::settings {

namespace {

const char* variable(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// A whole decimal number in [least, most], or nothing.
std::optional<unsigned long long> number(const char* name, unsigned long long least, unsigned long long most) {
  const char* v = variable(name);
  if (!v || *v == '-') return std::nullopt;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (*end != '\0' || n < least || n > most) return std::nullopt;
  return n;
}

}  // namespace

std::string dicpath() {
  const char* v = variable("DICPATH");
  return v ? v : "";
}

int ranks_per_node() {
  const auto v = number("SPELLCHECK_RANKS_PER_NODE", 1, (1 << 20) - 1);
  return v ? static_cast<int>(*v) : 0;
}

std::optional<long> slurm_node_id() {
  const auto v = number("SLURM_NODEID", 0, 1UL << 30);
  if (!v) return std::nullopt;
  return static_cast<long>(*v);
}

const char* channel_weights() { return variable("SPELLCHECK_CHANNEL_WEIGHTS"); }

const char* glibc_tunables() { return variable("GLIBC_TUNABLES"); }

namespace test_hooks {

std::optional<size_t> max_message_bytes() {
  const auto v = number("SPELLCHECK_MAX_MESSAGE_BYTES", 1, ~0ULL);
  if (!v) return std::nullopt;
  return static_cast<size_t>(*v);
}

std::optional<size_t> stream_piece_bytes() {
  const auto v = number("SPELLCHECK_STREAM_PIECE_BYTES", 0, ~0ULL);
  if (!v) return std::nullopt;
  return static_cast<size_t>(*v);
}

const char* fault() { return variable("SPELLCHECK_FAULT"); }

}  // namespace test_hooks

}  // namespace spellcheck::settings
