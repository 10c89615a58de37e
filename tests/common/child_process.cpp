// child_process: fork + execv of the storefront binary (STOREFRONT_BINARY) with stdout and stderr on a pipe.

#include "common/child_process.hpp"

#include <poll.h>
#include <stdlib.h>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace storefront::test {

child_process::child_process(
    const std::vector<std::string>& args,
    const std::vector<std::string>& env,
    std::optional<std::filesystem::path> working_dir
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

child_process::~child_process() {
    if (pid_ > 0 && !exit_code_) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
}

std::optional<std::string> child_process::wait_for_line(
    const std::string& needle, std::chrono::seconds bound
) {
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

std::uint16_t child_process::wait_listening(std::chrono::seconds bound) {
    const auto line = wait_for_line("\"listening\"", bound);
    BOOST_TEST_REQUIRE(line.has_value(), output());
    return port_of(*line);
}

std::optional<int> child_process::wait_exit(std::chrono::seconds bound) {
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

void child_process::signal(int sig) {
    ::kill(pid_, sig);
}

void child_process::kill_hard() {
    ::kill(pid_, SIGKILL);
    (void)wait_exit(std::chrono::seconds(10));
}

std::uint16_t port_of(const std::string& listening_line) {
    return static_cast<std::uint16_t>(boost::json::parse(listening_line).at("port").as_int64());
}

std::vector<std::string> instance_args(const std::string& storage, const std::vector<std::string>& extra) {
    std::vector<std::string> args{
        "--port",
        "0",
        "--threads",
        "2",
        "--generated-locations",
        "1000",
        "--storage",
        storage,
        "--access-log",
        "false"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::uint16_t free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

}  // namespace storefront::test
