#pragma once
// Under a sanitizer (ASan + UBSan, TSan) the code runs 10-30 times slower,
// so the exhaustive and random sweeps take every kSweepStride-th case: the
// same code paths, the same checks, a fraction of the CI minutes. The
// plain build sweeps everything.
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPELLCHECK_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SPELLCHECK_TEST_SANITIZED 1
#endif
#endif

namespace spellcheck::testing {

#ifdef SPELLCHECK_TEST_SANITIZED
inline constexpr size_t kSweepStride = 7;
#else
inline constexpr size_t kSweepStride = 1;
#endif

}  // namespace spellcheck::testing
