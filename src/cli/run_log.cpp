#include "cli/run_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>

#include "mdremap/error.hpp"

namespace mdremap::cli {

namespace {

Verbosity g_verbosity = Verbosity::normal;
const bool g_stdout_tty = isatty(STDOUT_FILENO) != 0;

// False with errno set where a write failed (a closed terminal, a full disk).
bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w == 0) errno = ENOSPC;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// One of stdout and stderr: its pipe, the descriptor it printed to before, and the copy thread.
struct Tee {
  int fd = -1;        // 1 or 2
  int original = -1;  // where the stream went before the log
  int read_end = -1;
  std::thread copier;
  std::string line;  // the log's unfinished line
};

struct Log {
  std::mutex m;
  int file = -1;
  std::string path;
  std::string error;  // the first failed write to the log: the run goes on, its exit code fails
  Tee tees[2];
  bool open = false;
};

Log& the_log() {
  static Log log;
  return log;
}

// A finished line as the log keeps it: after its last '\r' (a progress line rewritten in place),
// without the terminal's erase-line sequence.
std::string settled(const std::string& line) {
  std::string s = line.substr(line.rfind('\r') == std::string::npos ? 0 : line.rfind('\r') + 1);
  for (std::size_t k; (k = s.find("\033[K")) != std::string::npos;) s.erase(k, 3);
  return s;
}

void to_log(Log& log, const std::string& text) {
  if (text.empty()) return;
  std::lock_guard<std::mutex> g(log.m);
  if (log.file >= 0 && !write_all(log.file, text.data(), text.size()) && log.error.empty())
    log.error = fmt::format("cannot write the log file '{}': {}", log.path, std::strerror(errno));
}

// A line that starts with kLogOnly is the log's alone (log_only): it travels through stdout so
// that it keeps its place among the lines printed around it, and the terminal never sees it.
constexpr char kLogOnly = '\x01';

void copy(Log& log, Tee& t) {
  char buf[8192];
  std::string out;
  bool line_start = true, private_line = false;
  for (;;) {
    const ssize_t n = ::read(t.read_end, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::string done;
    out.clear();
    for (ssize_t k = 0; k < n; ++k) {
      const char c = buf[k];
      if (line_start) private_line = c == kLogOnly;
      line_start = c == '\n';
      if (!private_line) out += c;
      if (c == kLogOnly && private_line && t.line.empty()) continue;
      t.line += c;
      if (c == '\n') {
        done += settled(t.line);
        t.line.clear();
      }
    }
    write_all(t.original, out.data(), out.size());
    if (!done.empty()) to_log(log, done);
  }
  const std::string rest = settled(t.line);
  if (!rest.empty()) to_log(log, rest + "\n");
  t.line.clear();
}

}  // namespace

Verbosity verbosity() {
  return g_verbosity;
}
void set_verbosity(Verbosity v) {
  g_verbosity = v;
}
bool stdout_is_tty() {
  return g_stdout_tty;
}

void start_log(const std::string& path, bool append, const std::vector<std::string>& argv,
               const std::string& build) {
  Log& log = the_log();
  if (log.open) throw Error("the run log is already open");
  const int file =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
  if (file < 0)
    throw Error(fmt::format("cannot write the log file {}: {}", path, std::strerror(errno)));
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
  const std::time_t now = std::time(nullptr);
  const std::string head =
      fmt::format("# mdremap log {:%Y-%m-%d %H:%M:%S}\n# command: {}\n# build: {}\n",
                  fmt::localtime(now), cmd, build);
  if (!write_all(file, head.data(), head.size())) {
    const int e = errno;
    ::close(file);
    throw Error(fmt::format("cannot write the log file {}: {}", path, std::strerror(e)));
  }
  std::fflush(stdout);
  std::fflush(stderr);
  for (int k = 0; k < 2; ++k) {
    Tee& t = log.tees[k];
    t.fd = k + 1;
    int p[2];
    if (::pipe(p) != 0) {
      ::close(file);
      throw Error(fmt::format("cannot copy the output into {}: {}", path, std::strerror(errno)));
    }
    ::fcntl(p[0], F_SETFD, FD_CLOEXEC);
    t.original = ::fcntl(t.fd, F_DUPFD_CLOEXEC, 3);
    t.read_end = p[0];
    ::dup2(p[1], t.fd);  // children (a plotting script) print into the log as well
    ::close(p[1]);
  }
  // A pipe makes stdout fully buffered: keep its lines as prompt as on a terminal.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  log.file = file;
  log.path = path;
  log.open = true;
  for (auto& t : log.tees) t.copier = std::thread(copy, std::ref(log), std::ref(t));
}

void log_only(const std::string& text) {
  if (!the_log().open) return;
  for (std::size_t pos = 0, nl; pos < text.size(); pos = nl + 1) {
    nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::fputc(kLogOnly, stdout);
    std::fwrite(text.data() + pos, 1, nl - pos, stdout);
    std::fputc('\n', stdout);
  }
  std::fflush(stdout);
}

void detail(const std::string& text) {
  if (verbose()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
    std::fflush(stdout);
  } else {
    log_only(text);
  }
}

std::string finish_log() {
  Log& log = the_log();
  if (!log.open) return "";
  std::fflush(stdout);
  std::fflush(stderr);
  for (auto& t : log.tees)
    ::dup2(t.original, t.fd);  // closes the pipe's write end: its copier reads to the end
  for (auto& t : log.tees) {
    if (t.copier.joinable()) t.copier.join();  // it still writes to t.original
    ::close(t.read_end);
    ::close(t.original);
  }
  if (::close(log.file) != 0 && log.error.empty())
    log.error = fmt::format("cannot write the log file '{}': {}", log.path, std::strerror(errno));
  log.file = -1;
  log.open = false;
  return log.error;
}

}  // namespace mdremap::cli
