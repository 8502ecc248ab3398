#include "spellcheck/common/removal_on_signal.hpp"

#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace spellcheck {

namespace {

// A fixed table, no allocation: the handler may run at any point, also in
// the middle of a registration. A slot is free (0), being written (1) or
// ready (2); the handler reads ready slots only.
constexpr int kSlots = 8;
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];
std::atomic<bool> g_installed{false};

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

extern "C" void on_termination_signal(int sig) {
  remove_registered_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

void install_removal_on_signal() {
  if (g_installed.exchange(true)) return;
  for (int sig : kSignals) {
    struct sigaction sa = {};
    sa.sa_handler = on_termination_signal;
    sigemptyset(&sa.sa_mask);
    for (int other : kSignals) sigaddset(&sa.sa_mask, other);  // one handler at a time
    sa.sa_flags = 0;
    // A signal someone chose to ignore (nohup) stays ignored.
    struct sigaction old = {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

void remove_registered_files() noexcept {
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
}

RemovalOnSignal::RemovalOnSignal(const std::string& path) {
  if (path.size() >= PATH_MAX) throw std::runtime_error("temporary file name too long: " + path);
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!g_slots[i].state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(2, std::memory_order_release);
    slot_ = i;
    return;
  }
  throw std::runtime_error("too many temporary files registered for removal");
}

RemovalOnSignal& RemovalOnSignal::operator=(RemovalOnSignal&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void RemovalOnSignal::release() noexcept {
  if (slot_ < 0) return;
  g_slots[slot_].state.store(0, std::memory_order_release);
  slot_ = -1;
}

}  // namespace spellcheck
