#pragma once
// Who serves other ranks' lookups during the candidate phase (suggest.hpp).
// dedicated: the thread that initialised MPI serves and only serves,
// sleeping between polls when there is nothing to do, while a team of
// generator threads beside it makes the candidates; other ranks' requests
// are answered within a poll, not after a chunk of generation. shared: it
// generates too and serves between chunks, which leaves no core idle when a
// rank has as many threads as cores (this machine: 2 cores, 1 or 2 ranks).
// automatic: dedicated on a rank with 4 or more CPUs, shared below.
namespace spellcheck {

enum class CommThread { shared, dedicated, automatic };

inline constexpr int kDedicatedCommThreadCpus = 4;

// What automatic means on a rank with `cpus` CPUs (0: unknown, shared).
inline CommThread resolve_comm_thread(CommThread requested, int cpus) {
  if (requested != CommThread::automatic) return requested;
  return cpus >= kDedicatedCommThreadCpus ? CommThread::dedicated : CommThread::shared;
}

inline const char* comm_thread_name(CommThread c) {
  switch (c) {
    case CommThread::shared: return "shared";
    case CommThread::dedicated: return "dedicated";
    case CommThread::automatic: return "auto";
  }
  return "?";
}

}  // namespace spellcheck
