#pragma once
// Runs Argon2id verification and hashing off the I/O threads on a small thread pool, with a bounded queue so
// a flood of logins cannot pile up unbounded memory. The awaiting coroutine resumes on its own executor.

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

namespace storefront::server {

class password_worker {
  public:
    password_worker(std::size_t threads, std::size_t max_queued);
    ~password_worker();

    // true/false for a match; nullopt when the queue is full (answer 503).
    // An empty `hash` spends the time of a verify and answers false (unknown user).
    [[nodiscard]] boost::asio::awaitable<std::optional<bool>> verify(std::string password, std::string hash);

    // A fresh Argon2id hash of `password` (pet-store users set passwords); nullopt when the queue is full.
    // Shares the verifiers' threads and queue bound.
    [[nodiscard]] boost::asio::awaitable<std::optional<std::string>> hash(std::string password);

    void stop();

  private:
    // Runs `job` on the pool if the queue has room (nullopt otherwise); resumes on the caller's executor.
    template <class Result, class Job>
    boost::asio::awaitable<std::optional<Result>> run_bounded(Job job);

    boost::asio::thread_pool pool_;
    std::size_t max_queued_;
    std::atomic<std::size_t> queued_{0};
};

}  // namespace storefront::server
