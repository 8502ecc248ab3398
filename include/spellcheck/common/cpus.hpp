#pragma once
// The CPUs this process may run on (its affinity mask), to warn when a rank
// asks for more threads than it has CPUs: mpirun binds each rank to one core
// by default when it starts few ranks, and a team of two threads on one
// core runs no faster than one (slower: results/design-choices.md).

namespace spellcheck {

// CPUs in this process's affinity mask; 0 when it cannot be read.
int cpus_available();

// Whether a team of `threads` is more than `cpus` known CPUs can run.
bool threads_exceed_cpus(int threads, int cpus);
// What to do about it, for the warning.
const char* threads_over_cpus_advice();

}  // namespace spellcheck
