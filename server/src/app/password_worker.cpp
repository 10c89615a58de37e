// Argon2id off the I/O threads: a thread pool with a bounded number of queued jobs.

#include "server/app/password_worker.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "core/password.hpp"
#include "server/ops/metrics.hpp"

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

template <class Result, class Job>
asio::awaitable<std::optional<Result>> password_worker::run_bounded(Job job) {
    if (queued_.fetch_add(1) >= max_queued_) {
        queued_.fetch_sub(1);
        metrics().password_job_rejected();
        co_return std::nullopt;
    }
    metrics().password_job_queued();
    struct release {
        std::atomic<std::size_t>& counter;
        ~release() {
            counter.fetch_sub(1);
            metrics().password_job_done();
        }
    } guard{queued_};
    // Named locals into co_await, not temporaries: GCC 12 destroys those twice (bug 99576).
    auto on_pool_job = [&job]() -> asio::awaitable<Result> { co_return job(); };
    auto on_pool = asio::co_spawn(pool_, std::move(on_pool_job), asio::use_awaitable);
    Result result = co_await std::move(on_pool);
    co_return result;
}

asio::awaitable<std::optional<bool>> password_worker::verify(std::string password, std::string hash) {
    auto job = [&] {
        if (hash.empty()) {
            core::burn_verify_time(password);
            return false;
        }
        return core::verify_password(password, hash);
    };
    auto outcome = run_bounded<bool>(std::move(job));
    co_return co_await std::move(outcome);
}

asio::awaitable<std::optional<std::string>> password_worker::hash(std::string password) {
    auto job = [&] { return core::hash_password(password); };
    auto outcome = run_bounded<std::string>(std::move(job));
    co_return co_await std::move(outcome);
}

}  // namespace storefront::server
