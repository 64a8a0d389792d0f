// POSIX: posix_spawnp with pipes, poll for output and for the limits, kill(-pgid) to end the group.
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace gpulab::lab {
namespace {

class Pipe {
 public:
  Pipe() {
    if (::pipe2(m_fd, O_CLOEXEC) != 0) m_fd[0] = m_fd[1] = -1;
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return m_fd[0] >= 0; }
  int read_end() const { return m_fd[0]; }
  int write_end() const { return m_fd[1]; }
  void close_read() {
    if (m_fd[0] >= 0) ::close(m_fd[0]);
    m_fd[0] = -1;
  }
  void close_write() {
    if (m_fd[1] >= 0) ::close(m_fd[1]);
    m_fd[1] = -1;
  }

 private:
  int m_fd[2] = {-1, -1};
};

class SpawnActions {
 public:
  SpawnActions() { ::posix_spawn_file_actions_init(&m_actions); }
  ~SpawnActions() { ::posix_spawn_file_actions_destroy(&m_actions); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &m_actions; }

 private:
  posix_spawn_file_actions_t m_actions;
};

class SpawnAttributes {
 public:
  SpawnAttributes() { ::posix_spawnattr_init(&m_attr); }
  ~SpawnAttributes() { ::posix_spawnattr_destroy(&m_attr); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  posix_spawnattr_t* get() { return &m_attr; }

 private:
  posix_spawnattr_t m_attr;
};

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const ChildLimits& limits) {
  ChildResult result;
  if (argv.empty()) {
    result.error = "no program";
    return result;
  }
  Pipe out, err;
  if (!out.ok() || !err.ok()) {
    result.error = std::string("cannot make a pipe: ") + std::strerror(errno);
    return result;
  }
  SpawnActions actions;
  ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), 1);
  ::posix_spawn_file_actions_adddup2(actions.get(), err.write_end(), 2);
  ::posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
  SpawnAttributes attributes;
  // Its own process group (killed as one), and default signal handling whatever the parent blocks or ignores.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  ::posix_spawnattr_setsigmask(attributes.get(), &none);
  ::posix_spawnattr_setsigdefault(attributes.get(), &all);
  ::posix_spawnattr_setpgroup(attributes.get(), 0);
  ::posix_spawnattr_setflags(attributes.get(), POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], actions.get(), attributes.get(), args.data(), environ);
  out.close_write();
  err.close_write();
  if (spawned != 0) {
    result.error = "cannot run " + argv[0] + ": " + std::strerror(spawned);
    return result;
  }
  result.started = true;

  std::string pending;  // stdout bytes after the last newline
  pollfd fds[2] = {{out.read_end(), POLLIN, 0}, {err.read_end(), POLLIN, 0}};
  bool killed = false;
  int open_pipes = 2;
  while (open_pipes > 0) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!killed && elapsed > limits.wall_seconds) result.timed_out = true;
    if (!killed && limits.stop && limits.stop()) result.stopped = true;
    if (!killed && (result.timed_out || result.stopped)) {
      ::kill(-pid, SIGKILL);
      killed = true;
    }
    if (::poll(fds, 2, 100) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n <= 0) {
        fds[i].fd = -1;
        --open_pipes;
        continue;
      }
      if (i == 1) {
        result.err.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      result.out.append(buffer, static_cast<std::size_t>(n));
      pending.append(buffer, static_cast<std::size_t>(n));
      for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
        if (limits.on_stdout_line) limits.on_stdout_line(pending.substr(0, nl));
        pending.erase(0, nl + 1);
      }
    }
  }
  if (!pending.empty() && limits.on_stdout_line) limits.on_stdout_line(pending);
  // The pipes closed: the child (and whatever kept them open) is done or dying; a child that closed its output
  // early and kept running is ended too.
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!killed && (elapsed > limits.wall_seconds || (limits.stop && limits.stop()))) {
      result.timed_out = elapsed > limits.wall_seconds;
      result.stopped = !result.timed_out;
      ::kill(-pid, SIGKILL);
      killed = true;
    }
    ::usleep(20000);
  }
  if (killed) ::kill(-pid, SIGKILL);  // anything left in the group
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string find_program(const std::vector<std::string>& names) {
  struct stat st {};
  for (const std::string& name : names) {
    if (name.empty()) continue;
    if (name.find('/') != std::string::npos) {
      if (::stat(name.c_str(), &st) == 0 && (st.st_mode & S_IXUSR)) return name;
      continue;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    std::size_t from = 0;
    while (from <= dirs.size()) {
      const std::size_t colon = dirs.find(':', from);
      const std::string dir = dirs.substr(from, colon == std::string::npos ? std::string::npos : colon - from);
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
      if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR)) return candidate;
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
  }
  return {};
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace gpulab::lab
