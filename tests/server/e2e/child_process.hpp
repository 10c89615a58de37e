#pragma once
// The storefront binary as a child process for tests that run it as users do: stdout captured line by line,
// signals, exit codes. Each child runs in a fresh working directory (removed afterwards) unless one is
// given, so the default SQLite file never lands in the build tree.

#include <chrono>
#include <filesystem>
#include <optional>
#include <poll.h>
#include <stdlib.h>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace storefront::test {

// A temporary directory, removed with everything in it when this goes out of scope.
class temp_dir {
  public:
    temp_dir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "storefront-test-XXXXXX").string();
        BOOST_TEST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
        path_ = pattern;
    }
    ~temp_dir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// A child storefront process with its stdout captured.
class child_process {
  public:
    child_process(
        const std::vector<std::string>& args,
        const std::vector<std::string>& env = {},
        std::optional<std::filesystem::path> working_dir = std::nullopt
    ) {
        if (!working_dir) {
            own_dir_.emplace();
            working_dir = own_dir_->path();
        }
        int out[2];
        BOOST_TEST_REQUIRE(::pipe(out) == 0);
        pid_ = ::fork();
        BOOST_TEST_REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            ::dup2(out[1], STDOUT_FILENO);
            ::dup2(out[1], STDERR_FILENO);
            ::close(out[0]);
            ::close(out[1]);
            if (::chdir(working_dir->c_str()) != 0) {
                ::_exit(126);
            }
            // Tests stop children often: no drain period unless a test asks for one (env or flag). A test
            // run under systemd must not have children notify it: only the tests' own sockets count.
            ::setenv("STOREFRONT_DRAIN_SECONDS", "0", 1);
            ::unsetenv("NOTIFY_SOCKET");
            ::unsetenv("WATCHDOG_USEC");
            ::unsetenv("WATCHDOG_PID");
            for (const auto& e : env) {
                ::putenv(const_cast<char*>(e.c_str()));
            }
            std::vector<char*> argv;
            std::string binary = STOREFRONT_BINARY;
            argv.push_back(binary.data());
            for (const auto& a : args) {
                argv.push_back(const_cast<char*>(a.c_str()));
            }
            argv.push_back(nullptr);
            ::execv(binary.c_str(), argv.data());
            ::_exit(127);
        }
        ::close(out[1]);
        out_ = out[0];
        ::fcntl(out_, F_SETFL, O_NONBLOCK);
    }
    ~child_process() {
        if (pid_ > 0 && !exit_code_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_);
    }

    // Reads output until a line contains `needle` or the deadline passes; returns that line.
    std::optional<std::string> wait_for_line(const std::string& needle, std::chrono::seconds bound) {
        const auto deadline = std::chrono::steady_clock::now() + bound;
        while (std::chrono::steady_clock::now() < deadline) {
            for (std::size_t nl; (nl = pending_.find('\n')) != std::string::npos;) {
                std::string line = pending_.substr(0, nl);
                pending_.erase(0, nl + 1);
                all_ += line + "\n";
                if (line.find(needle) != std::string::npos) {
                    return line;
                }
            }
            pollfd p{out_, POLLIN, 0};
            ::poll(&p, 1, 100);
            char buf[4096];
            const ssize_t n = ::read(out_, buf, sizeof buf);
            if (n > 0) {
                pending_.append(buf, static_cast<std::size_t>(n));
            } else if (n == 0) {
                break;
            }
        }
        return std::nullopt;
    }

    // The exit code, waiting at most `bound`; nullopt if still running.
    std::optional<int> wait_exit(std::chrono::seconds bound) {
        const auto deadline = std::chrono::steady_clock::now() + bound;
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                return exit_code_;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return std::nullopt;
    }

    void signal(int sig) { ::kill(pid_, sig); }
    // SIGKILL and reap: the process gets no chance to flush or clean up.
    void kill_hard() {
        ::kill(pid_, SIGKILL);
        (void)wait_exit(std::chrono::seconds(10));
    }
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
inline std::uint16_t port_of(const std::string& listening_line) {
    return static_cast<std::uint16_t>(boost::json::parse(listening_line).at("port").as_int64());
}

}  // namespace storefront::test
