// Argon2id off the I/O threads: a thread pool with a bounded number of queued jobs.

#include "server/services/password_worker.hpp"

#include "core/password.hpp"

namespace storefront::server {

namespace asio = boost::asio;

password_worker::password_worker(std::size_t threads, std::size_t max_queued)
    : pool_(threads == 0 ? 1 : threads, max_queued) {}

password_worker::~password_worker() {
    stop();
}

void password_worker::stop() {
    pool_.stop();
}

asio::awaitable<std::optional<bool>> password_worker::verify(std::string password, std::string hash) {
    auto job = [&] {
        if (hash.empty()) {
            core::burn_verify_time(password);
            return false;
        }
        return core::verify_password(password, hash);
    };
    auto outcome = pool_.try_run(job);
    co_return co_await std::move(outcome);
}

asio::awaitable<std::optional<std::string>> password_worker::hash(std::string password) {
    auto job = [&] { return core::hash_password(password); };
    auto outcome = pool_.try_run(job);
    co_return co_await std::move(outcome);
}

}  // namespace storefront::server
