#pragma once
// The storefront binary as a child process for tests that run it as users do: stdout captured line by line,
// signals, exit codes. Each child runs in a fresh working directory (removed afterwards) unless one is
// given, so the default SQLite file never lands in the build tree.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <signal.h>  // the SIGTERM, SIGINT, ... that signal() sends
#include <sys/types.h>

#include "common/temp_dir.hpp"

namespace storefront::test {

// A child storefront process with its stdout captured.
class child_process {
  public:
    child_process(
        const std::vector<std::string>& args,
        const std::vector<std::string>& env = {},
        std::optional<std::filesystem::path> working_dir = std::nullopt
    );
    ~child_process();
    child_process(const child_process&) = delete;
    child_process& operator=(const child_process&) = delete;

    // Reads output until a line contains `needle` or the deadline passes; returns that line.
    std::optional<std::string> wait_for_line(const std::string& needle, std::chrono::seconds bound);

    // Waits for the "listening" line (the test stops, showing the output, if none comes within `bound`);
    // returns its port.
    std::uint16_t wait_listening(std::chrono::seconds bound);

    // The exit code, waiting at most `bound`; nullopt if still running.
    std::optional<int> wait_exit(std::chrono::seconds bound);

    void signal(int sig);
    // The child's process id (for /proc/<pid>/status and limits).
    [[nodiscard]] pid_t pid() const { return pid_; }
    // SIGKILL and reap: the process gets no chance to flush or clean up.
    void kill_hard();
    const std::string& output() const { return all_; }

  private:
    std::optional<temp_dir> own_dir_;  // declared first: removed after the child is gone
    pid_t pid_ = -1;
    int out_ = -1;
    std::string pending_;
    std::string all_;
    std::optional<int> exit_code_;
};

// The port of the "listening" log line.
std::uint16_t port_of(const std::string& listening_line);

// The flags of a test instance on `storage`: a free port, two I/O threads, 1000 generated locations and no
// access log, then `extra`.
std::vector<std::string> instance_args(
    const std::string& storage, const std::vector<std::string>& extra = {}
);

// A port nothing listens on right now (the kernel's pick, released again).
std::uint16_t free_port();

}  // namespace storefront::test
