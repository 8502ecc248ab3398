#pragma once
// Fault injection, for the tests only: compiled in always, inert unless
// SPELLCHECK_FAULT is set or a test installs a hook. Each phase of a run has
// a fault point; the tests make one rank fail there and check that every
// rank stops (one error line, exit status 2, no output file, no hang).
//
//   SPELLCHECK_FAULT=PHASE:RANK        the first time rank RANK reaches PHASE's
//                                      point it throws InputError("injected
//                                      fault in PHASE on rank RANK")
//   SPELLCHECK_FAULT=PHASE:RANK:kill   ... it kills itself with SIGKILL instead
//
// PHASE is a name passed to point(): read, shuffle, index, filter, ingest,
// route, judge, candidates, lookups, report, gather.
#include <cstddef>
#include <string_view>

namespace spellcheck::fault {

// A fault point. Thread-safe (the candidate phase's workers reach it too).
// The environment fault fires once per process; then the hook, if any, is
// called (it may throw).
void point(std::string_view phase, int rank, size_t detail = 0);

// Tests in one process: a hook called at every point with the phase and a
// detail (the candidate phase: the first word of each chunk a thread
// takes). nullptr removes it.
using Hook = void (*)(std::string_view phase, size_t detail);
void set_hook(Hook hook);

}  // namespace spellcheck::fault
