// Temporary files registered for removal go when a termination signal ends
// the process, and only then; the signal still ends it. Each case runs in a
// forked child, which the signal kills.
#include "spellcheck/common/removal_on_signal.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace spellcheck;

namespace {

bool exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

std::string make_file(const std::string& dir, const char* name) {
  const std::string p = dir + "/" + name;
  std::FILE* f = std::fopen(p.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fclose(f);
  return p;
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/removal-on-signal-test-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

// Runs body in a child; returns its wait status.
template <class Body>
int in_child(Body body) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("a termination signal removes the registered files and still ends the process") {
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGQUIT}) {
    CAPTURE(sig);
    TempDir dir;
    const std::string kept = make_file(dir.path, "kept"), released = make_file(dir.path, "released"),
                      registered = make_file(dir.path, "registered");
    const int status = in_child([&] {
      install_removal_on_signal();
      RemovalOnSignal a(registered);
      RemovalOnSignal b(released);
      b.release();
      std::raise(sig);
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(!exists(registered));
    CHECK(exists(released));
    CHECK(exists(kept));
  }
}

TEST_CASE("a registration ends with its object, moves with it, and the table refuses too many") {
  TempDir dir;
  const std::string moved = make_file(dir.path, "moved"), ended = make_file(dir.path, "ended");
  const int status = in_child([&] {
    install_removal_on_signal();
    { RemovalOnSignal gone(ended); }
    RemovalOnSignal from(moved);
    RemovalOnSignal to(std::move(from));
    if (from.active() || !to.active()) ::_exit(3);
    // Every slot taken (one is `to`): the next one throws.
    std::vector<RemovalOnSignal> all;
    try {
      for (int i = 0; i < 100; ++i) all.emplace_back(dir.path + "/none" + std::to_string(i));
      ::_exit(4);
    } catch (const std::exception&) {
    }
    all.clear();
    RemovalOnSignal again(dir.path + "/none");  // freed slots are reused
    std::raise(SIGTERM);
  });
  CHECK(WIFSIGNALED(status));
  CHECK(!exists(moved));
  CHECK(exists(ended));
}

TEST_CASE("abort's removal and an ignored signal") {
  TempDir dir;
  const std::string now = make_file(dir.path, "now");
  const int status = in_child([&] {
    std::signal(SIGHUP, SIG_IGN);  // nohup: stays ignored
    install_removal_on_signal();
    RemovalOnSignal r(now);
    std::raise(SIGHUP);
    if (!exists(now)) ::_exit(5);
    remove_registered_files();
    ::_exit(exists(now) ? 6 : 0);
  });
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
