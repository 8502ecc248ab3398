// FirstError carries the first exception of an OpenMP region's threads out
// of the region (one escaping it would terminate the process), whatever the
// team size; later work is skipped.
#include "spellcheck/common/first_error.hpp"

#include <doctest/doctest.h>
#include <omp.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "spellcheck/common/errors.hpp"

using namespace spellcheck;

TEST_CASE("the first exception of a parallel loop is rethrown after it") {
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    omp_set_num_threads(threads);
    FirstError err;
    std::atomic<int> ran{0};
#pragma omp parallel for schedule(dynamic, 1)
    for (long i = 0; i < 1000; ++i)
      err.run([&] {
        ran.fetch_add(1);
        if (i % 100 == 37) throw InputError("item " + std::to_string(i));
      });
    CHECK(err.failed());
    CHECK(ran.load() < 1000);  // work after the failure is skipped
    CHECK_THROWS_AS(err.rethrow(), InputError);
  }
  omp_set_num_threads(saved);
}

TEST_CASE("no exception: nothing rethrown; non-std exceptions are kept too") {
  FirstError ok;
#pragma omp parallel
  ok.run([] {});
  CHECK_FALSE(ok.failed());
  CHECK_NOTHROW(ok.rethrow());
  FirstError odd;
#pragma omp parallel num_threads(3)
  {
    if (omp_get_thread_num() == omp_get_num_threads() - 1) odd.run([] { throw 42; });
  }
  CHECK(odd.failed());
  CHECK_THROWS_AS(odd.rethrow(), int);
}
