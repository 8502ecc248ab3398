// OutputFile on every kind of target: a new or existing regular file, a
// symbolic link (kept) to a file, a dangling link, a FIFO, /dev/null, a
// directory, an unwritable directory, stdout; and that a killed process
// leaves no temporary file.
#include "spellcheck/output/output_file.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "spellcheck/common/errors.hpp"

#include "temp_files.hpp"

namespace fs = std::filesystem;
using namespace spellcheck;
using spellcheck::testing::TempDir;
using spellcheck::testing::write;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Names in a directory (not recursive).
std::set<std::string> names(const fs::path& d) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(d)) out.insert(e.path().filename().string());
  return out;
}

struct stat stat_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st;
}

struct stat lstat_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st;
}

// Sets the umask for a scope.
struct Umask {
  mode_t old;
  explicit Umask(mode_t m) : old(::umask(m)) {}
  ~Umask() { ::umask(old); }
};

void write_through(const std::string& path, const std::string& text, bool unnamed = true) {
  OutputFile f(path, unnamed);
  f.append(text);
  f.commit();
}

}  // namespace

TEST_CASE("a new file appears only on commit, whole; nothing is left beside it") {
  for (bool unnamed : {true, false}) {
    CAPTURE(unnamed);
    TempDir t;
    const std::string path = t.str("out.txt");
    {
      OutputFile f(path, unnamed);
      f.write("half");
      CHECK(f.kind() == (unnamed ? OutputFile::Kind::unnamed : OutputFile::Kind::named));
      CHECK(f.target() == path);
      if (unnamed) CHECK(fs::is_empty(t.path));  // O_TMPFILE: no name until commit
    }                                            // never committed
    CHECK_FALSE(fs::exists(path));
    CHECK(fs::is_empty(t.path));
    {
      OutputFile f(path, unnamed);
      f.append("wh");
      f.write("ole");                         // unbuffered: after what was appended
      f.append(std::string(300 << 10, 'x'));  // more than the buffer
      f.append("\n");
      f.commit();
    }
    CHECK(slurp(path) == "whole" + std::string(300 << 10, 'x') + "\n");
    CHECK(names(t.path) == std::set<std::string>{"out.txt"});
  }
}

TEST_CASE("an existing file is replaced in one step and keeps its permission bits") {
  for (bool unnamed : {true, false}) {
    CAPTURE(unnamed);
    TempDir t;
    const fs::path p = t.path / "out.txt";
    write(p, "old contents, longer than the new ones");
    REQUIRE(::chmod(p.c_str(), 0640) == 0);
    const ino_t old_inode = stat_of(p).st_ino;
    std::ifstream reader(p);  // a reader of the old file keeps reading it
    {
      OutputFile f(p.string(), unnamed);
      f.append("new");
      CHECK(slurp(p) == "old contents, longer than the new ones");  // untouched until commit
      f.commit();
    }
    CHECK(slurp(p) == "new");
    CHECK(stat_of(p).st_ino != old_inode);
    CHECK((stat_of(p).st_mode & 07777) == 0640);
    std::string old;
    std::getline(reader, old);
    CHECK(old == "old contents, longer than the new ones");
    CHECK(names(t.path) == std::set<std::string>{"out.txt"});
  }
}

TEST_CASE("a new file gets 0666 & ~umask") {
  for (mode_t mask : {mode_t{022}, mode_t{077}, mode_t{002}}) {
    for (bool unnamed : {true, false}) {
      CAPTURE(mask);
      CAPTURE(unnamed);
      TempDir t;
      Umask u(mask);
      write_through(t.str("new.txt"), "x", unnamed);
      CHECK((stat_of(t.path / "new.txt").st_mode & 07777) == (0666 & ~mask));
    }
  }
}

TEST_CASE("a symbolic link is followed to its file and kept; the temporary goes beside the real file") {
  TempDir t;
  write(t.path / "real/out.txt", "old");
  fs::create_directories(t.path / "links/deeper");
  fs::create_symlink("../real/out.txt", t.path / "links/l1");                 // relative, to another directory
  fs::create_symlink("../l1", t.path / "links/deeper/l2");                    // a chain of two
  fs::create_symlink((t.path / "links/deeper/l2").string(), t.path / "abs");  // absolute
  for (const char* link : {"links/l1", "links/deeper/l2", "abs"}) {
    CAPTURE(link);
    {
      OutputFile f(t.str(link));
      CHECK(fs::equivalent(f.target(), t.path / "real/out.txt"));
      f.append(std::string("via ") + link);
      f.commit();
    }
    CHECK(fs::is_symlink(t.path / link));
    CHECK(fs::is_regular_file(fs::symlink_status(t.path / "real/out.txt")));
    CHECK(slurp(t.path / "real/out.txt") == std::string("via ") + link);
    CHECK(names(t.path / "real") == std::set<std::string>{"out.txt"});
    CHECK(names(t.path / "links") == std::set<std::string>{"deeper", "l1"});
    CHECK(names(t.path / "links/deeper") == std::set<std::string>{"l2"});
  }
  // The named temporary file too is made beside the real file.
  {
    OutputFile f(t.str("links/l1"), false);
    CHECK(f.kind() == OutputFile::Kind::named);
    CHECK(names(t.path / "real").size() == 2);
    CHECK(names(t.path / "links") == std::set<std::string>{"deeper", "l1"});
    f.append("named");
    f.commit();
  }
  CHECK(fs::is_symlink(t.path / "links/l1"));
  CHECK(slurp(t.path / "real/out.txt") == "named");
  CHECK(names(t.path / "real") == std::set<std::string>{"out.txt"});
}

TEST_CASE("a dangling symbolic link: its target is created, the link kept") {
  TempDir t;
  fs::create_directories(t.path / "sub");
  fs::create_symlink("sub/new.txt", t.path / "dangling");
  write_through(t.str("dangling"), "made");
  CHECK(fs::is_symlink(t.path / "dangling"));
  CHECK(slurp(t.path / "sub/new.txt") == "made");
  CHECK(names(t.path / "sub") == std::set<std::string>{"new.txt"});
  // A link into a directory that does not exist: an InputError, nothing made.
  fs::create_symlink("nowhere/x.txt", t.path / "bad");
  CHECK_THROWS_WITH_AS(OutputFile(t.str("bad")),
                       ("cannot write '" + t.str("bad") + "': No such file or directory").c_str(), InputError);
  // A loop.
  fs::create_symlink("loop2", t.path / "loop1");
  fs::create_symlink("loop1", t.path / "loop2");
  CHECK_THROWS_AS(OutputFile(t.str("loop1")), InputError);
  CHECK(names(t.path) == std::set<std::string>{"bad", "dangling", "loop1", "loop2", "sub"});
}

TEST_CASE("a FIFO is written directly and stays a FIFO") {
  TempDir t;
  const fs::path fifo = t.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_symlink("fifo", t.path / "to-fifo");
  for (const char* name : {"fifo", "to-fifo"}) {
    CAPTURE(name);
    const std::string text = std::string(1 << 20, 'f') + name;  // more than a pipe holds
    std::string got;
    std::thread reader([&] {
      std::ifstream in(fifo, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      got = ss.str();
    });
    {
      OutputFile f(t.str(name));  // waits for the reader, as a shell redirection does
      CHECK(f.kind() == OutputFile::Kind::direct);
      f.append(text);
      f.commit();
    }
    reader.join();
    CHECK(got == text);
    CHECK(S_ISFIFO(lstat_of(fifo).st_mode));
    CHECK(fs::is_symlink(t.path / "to-fifo"));
    CHECK(names(t.path) == std::set<std::string>{"fifo", "to-fifo"});
  }
}

TEST_CASE("/dev/null stays a character device") {
  const struct stat before = lstat_of("/dev/null");
  REQUIRE(S_ISCHR(before.st_mode));
  {
    OutputFile f("/dev/null");
    CHECK(f.kind() == OutputFile::Kind::direct);
    f.append("nothing");
    f.commit();
  }
  write_file_atomically("/dev/null", "{}\n");
  TempDir t;
  fs::create_symlink("/dev/null", t.path / "null");
  write_through(t.str("null"), "via a link");
  const struct stat after = lstat_of("/dev/null");
  CHECK(S_ISCHR(after.st_mode));
  CHECK(after.st_rdev == before.st_rdev);
  CHECK(after.st_ino == before.st_ino);
  CHECK(fs::is_symlink(t.path / "null"));
}

TEST_CASE("a directory is an InputError with one line; so is a missing parent") {
  TempDir t;
  fs::create_directories(t.path / "d");
  fs::create_symlink("d", t.path / "to-d");
  for (const char* name : {"d", "to-d", "new/"}) {
    CAPTURE(name);
    const std::string p = t.str(name);
    CHECK_THROWS_WITH_AS(OutputFile(p, true), ("cannot write '" + p + "': Is a directory").c_str(), InputError);
  }
  CHECK_THROWS_WITH_AS(OutputFile(t.str("no-such-dir/x")),
                       ("cannot write '" + t.str("no-such-dir/x") + "': No such file or directory").c_str(),
                       InputError);
  CHECK(names(t.path) == std::set<std::string>{"d", "to-d"});
  CHECK(fs::is_empty(t.path / "d"));
}

TEST_CASE("an unwritable directory is an InputError, before any work") {
  TempDir t;
  fs::create_directories(t.path / "ro");
  REQUIRE(::chmod(t.path.c_str(), 0755) == 0);
  REQUIRE(::chmod((t.path / "ro").c_str(), 0555) == 0);
  const std::string p = t.str("ro/out.txt");
  const std::string want = "cannot write '" + p + "': Permission denied";
  if (::geteuid() != 0) {
    for (bool unnamed : {true, false}) CHECK_THROWS_WITH_AS(OutputFile(p, unnamed), want.c_str(), InputError);
  } else {
    // Root writes anywhere: the check runs in a child that drops to nobody.
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
      int code = 0;
      for (bool unnamed : {true, false}) {
        try {
          OutputFile f(p, unnamed);
          code |= 1;
        } catch (const InputError& e) {
          if (std::string(e.what()) != want) code |= 2;
        } catch (...) {
          code |= 4;
        }
      }
      ::_exit(code);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) {
      MESSAGE("cannot drop to nobody here: unwritable directory not checked as root");
    } else {
      CHECK(WEXITSTATUS(status) == 0);  // 1: opened, 2: other message, 4: other exception
    }
  }
  CHECK(fs::is_empty(t.path / "ro"));
}

TEST_CASE("\"\", \"-\" and /dev/stdout write to the descriptor as it is") {
  TempDir t;
  const fs::path p = t.path / "stdout.txt";
  write(p, "before\n");
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  REQUIRE(saved >= 0);
  const int fd = ::open(p.c_str(), O_WRONLY | O_APPEND);  // as `>> stdout.txt`
  REQUIRE(fd >= 0);
  REQUIRE(::dup2(fd, STDOUT_FILENO) == STDOUT_FILENO);
  ::close(fd);
  for (const char* name : {"", "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    OutputFile f(name);
    CHECK(f.kind() == OutputFile::Kind::standard);
    f.append(std::string(name) + "|");
    f.commit();
  }
  write_file_atomically("/dev/stdout", "stats\n");
  REQUIRE(::dup2(saved, STDOUT_FILENO) == STDOUT_FILENO);
  ::close(saved);
  CHECK(slurp(p) == "before\n|-|/dev/stdout|/dev/fd/1|/proc/self/fd/1|stats\n");
  CHECK(fs::is_regular_file(fs::symlink_status(p)));
  CHECK(names(t.path) == std::set<std::string>{"stdout.txt"});
  CHECK_THROWS_AS(OutputFile("/dev/fd/987"), InputError);  // not open
}

TEST_CASE("a killed writer leaves no temporary file (O_TMPFILE)") {
  TempDir t;
  const std::string p = t.str("out.txt");
  write(p, "kept");
  {
    OutputFile probe(t.str("probe.txt"));
    if (probe.kind() != OutputFile::Kind::unnamed) {
      MESSAGE("no O_TMPFILE on this file system: the named temporary file would stay");
      return;
    }
  }
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    try {
      OutputFile f(p);
      f.write(std::string(1 << 20, 'k'));
      const char c = 1;
      if (::write(ready[1], &c, 1) != 1) ::_exit(2);
      ::pause();  // killed here, mid-write
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(ready[1]);
  char c = 0;
  CHECK(::read(ready[0], &c, 1) == 1);
  ::close(ready[0]);
  ::kill(pid, SIGKILL);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(names(t.path) == std::set<std::string>{"out.txt"});
  CHECK(slurp(p) == "kept");
}

TEST_CASE("write errors surface as exceptions") {
  OutputFile f("/dev/full");
  CHECK(f.kind() == OutputFile::Kind::direct);
  f.append("x");
  CHECK_THROWS_AS(f.commit(), std::runtime_error);
  CHECK_THROWS_AS(write_file_atomically("/dev/full", "x"), std::runtime_error);
}
