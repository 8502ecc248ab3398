#pragma once
// Carries exceptions out of OpenMP regions. An exception that escapes a
// parallel region (or one iteration of a worksharing loop) terminates the
// process, so every region body runs its work through FirstError::run: the
// first exception any thread throws is kept, later work is skipped (failed()),
// and rethrow() raises it on the calling thread after the region.
//
//   FirstError err;
//   #pragma omp parallel for
//   for (long i = 0; i < n; ++i) err.run([&] { work(i); });
//   err.rethrow();
#include <atomic>
#include <exception>
#include <mutex>
#include <utility>

namespace spellcheck {

class FirstError {
 public:
  // Runs f() unless an earlier call failed; keeps the first exception.
  template <class F>
  void run(F&& f) noexcept {
    if (failed()) return;
    try {
      std::forward<F>(f)();
    } catch (...) {
      capture();
    }
  }
  // Keeps the exception being handled if it is the first (call in a catch).
  void capture() noexcept {
    std::lock_guard<std::mutex> lk(mu_);
    if (!error_) error_ = std::current_exception();
    failed_.store(true, std::memory_order_relaxed);
  }
  bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }
  // After the region: throws the first exception, if any.
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mu_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace spellcheck
