#include "spellcheck/common/fault.hpp"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <string>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/settings.hpp"

namespace spellcheck::fault {

namespace {

struct Planted {
  std::string phase;  // empty: nothing planted
  int rank = -1;
  bool kill = false;
};

// SPELLCHECK_FAULT, read once. A malformed value plants nothing (this is a
// test hook, not an option users set).
const Planted& planted() {
  static const Planted p = [] {
    Planted out;
    const char* env = settings::test_hooks::fault();
    if (!env) return out;
    const std::string spec(env);
    const size_t colon = spec.find(':');
    if (colon == std::string::npos || colon == 0) return out;
    const size_t second = spec.find(':', colon + 1);
    try {
      out.rank =
          std::stoi(spec.substr(colon + 1, second == std::string::npos ? std::string::npos : second - colon - 1));
    } catch (const std::exception&) {
      return out;
    }
    out.kill = second != std::string::npos && spec.substr(second + 1) == "kill";
    out.phase = spec.substr(0, colon);
    return out;
  }();
  return p;
}

std::atomic<bool> g_fired{false};
std::atomic<Hook> g_hook{nullptr};

}  // namespace

void point(std::string_view phase, int rank, size_t detail) {
  const Planted& p = planted();
  if (!p.phase.empty() && p.rank == rank && p.phase == phase && !g_fired.exchange(true)) {
    if (p.kill) std::raise(SIGKILL);
    throw InputError("injected fault in " + p.phase + " on rank " + std::to_string(rank));
  }
  if (const Hook hook = g_hook.load(std::memory_order_acquire)) hook(phase, detail);
}

void set_hook(Hook hook) { g_hook.store(hook, std::memory_order_release); }

}  // namespace spellcheck::fault
