// Argon2id off the I/O threads: a thread pool with a bounded number of queued jobs.

#include "server/password_worker.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "core/password.hpp"

namespace storefront::server {

namespace asio = boost::asio;

password_worker::password_worker(std::size_t threads, std::size_t max_queued)
    : pool_(threads == 0 ? 1 : threads), max_queued_(max_queued) {}

password_worker::~password_worker() {
    stop();
}

void password_worker::stop() {
    pool_.join();
}

asio::awaitable<std::optional<bool>> password_worker::verify(std::string password, std::string hash) {
    if (queued_.fetch_add(1) >= max_queued_) {
        queued_.fetch_sub(1);
        co_return std::nullopt;
    }
    struct release {
        std::atomic<std::size_t>& counter;
        ~release() { counter.fetch_sub(1); }
    } guard{queued_};
    // The job runs on the pool; co_spawn's completion brings us back to the caller's executor.
    auto job = [&]() -> asio::awaitable<bool> {
        if (hash.empty()) {
            core::burn_verify_time(password);
            co_return false;
        }
        co_return core::verify_password(password, hash);
    };
    auto on_pool = asio::co_spawn(pool_, std::move(job), asio::use_awaitable);
    const bool match = co_await std::move(on_pool);
    co_return match;
}

asio::awaitable<std::optional<std::string>> password_worker::hash(std::string password) {
    if (queued_.fetch_add(1) >= max_queued_) {
        queued_.fetch_sub(1);
        co_return std::nullopt;
    }
    struct release {
        std::atomic<std::size_t>& counter;
        ~release() { counter.fetch_sub(1); }
    } guard{queued_};
    auto job = [&]() -> asio::awaitable<std::string> { co_return core::hash_password(password); };
    auto on_pool = asio::co_spawn(pool_, std::move(job), asio::use_awaitable);
    std::string hashed = co_await std::move(on_pool);
    co_return hashed;
}

}  // namespace storefront::server
