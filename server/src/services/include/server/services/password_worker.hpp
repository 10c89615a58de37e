#pragma once
// Runs Argon2id verification and hashing off the I/O threads on a small thread pool, with a bounded queue so
// a flood of logins cannot pile up unbounded memory. The awaiting coroutine resumes on its own executor.

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/asio/awaitable.hpp>

#include "server/services/blocking_offload.hpp"

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

    // Runs `call` (which hashes or verifies itself, and may use the stores) on these threads: for GraphQL
    // operations that log in or set passwords. nullopt when the queue is full.
    template <class Call>
    [[nodiscard]] boost::asio::awaitable<std::optional<std::invoke_result_t<Call&>>> run(Call call) {
        return pool_.try_run(std::move(call));
    }

    void stop();

    [[nodiscard]] std::size_t queued() const { return pool_.queued(); }
    [[nodiscard]] std::size_t rejected() const { return pool_.rejected(); }

  private:
    blocking_offload
        pool_;  // its own threads: logins must not wait behind slow storage calls, nor the reverse
};

}  // namespace storefront::server
