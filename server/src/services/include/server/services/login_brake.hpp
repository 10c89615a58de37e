#pragma once
// The brake on password guessing (issue 45): failed logins are counted per account (the normalised e-mail
// or pet-store username) and per client address. Each key has `free_failures` failures without delay; every
// further failure pauses that key for a time that doubles from `first_pause` up to `max_pause` (bounded, so
// nobody can lock a real user out for longer than max_pause at a time); `forget_after` without a failure
// forgets the key. Attempts in flight count against the budget, so concurrent guessers cannot overrun it. A
// success resets the account's count (not the client's). Refused attempts cost no password check.
// Thread-safe; time is passed in (steady milliseconds) so tests own the clock.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace storefront::server {

struct login_brake_settings {
    std::uint32_t account_free_failures = 5;
    std::uint32_t client_free_failures = 20;
    std::chrono::milliseconds first_pause{std::chrono::seconds(5)};
    std::chrono::milliseconds max_pause{std::chrono::seconds(60)};
    std::chrono::milliseconds forget_after{std::chrono::minutes(15)};
};

class login_brake {
  public:
    explicit login_brake(login_brake_settings settings = {});

    // Admits one attempt for `account` from `client` (either may be empty: not counted), or refuses it with
    // the seconds to wait (>= 1). An admitted attempt must be settled with settle().
    struct verdict {
        bool admitted = false;
        std::uint32_t retry_after = 0;
    };
    [[nodiscard]] verdict admit(std::string_view account, std::string_view client, std::int64_t now_ms);

    enum class outcome { success, failure, undecided };
    void settle(std::string_view account, std::string_view client, outcome result, std::int64_t now_ms);

    // Steady-clock milliseconds, for callers.
    [[nodiscard]] static std::int64_t now_ms();

    // What every brake of the process counted, for /metrics (ops reads it: services cannot include ops).
    struct totals {
        std::uint64_t refused = 0;  // attempts admit() refused
        std::uint64_t failed = 0;   // attempts settled as failures (a wrong e-mail, username or password)
    };
    [[nodiscard]] static totals counted() noexcept;

  private:
    struct key_state {
        std::uint32_t failures = 0;
        std::uint32_t in_flight = 0;
        std::int64_t paused_until = 0;
        std::int64_t last_failure = 0;
    };
    using table = std::unordered_map<std::string, key_state>;

    // 0 when `state` admits one more attempt, else the milliseconds to wait.
    std::int64_t wait_of(key_state& state, std::uint32_t free_failures, std::int64_t now) const;
    void fail(key_state& state, std::uint32_t free_failures, std::int64_t now) const;
    void prune(table& keys, std::int64_t now) const;

    static constexpr std::size_t max_keys = 200'000;  // then keys without a pause are dropped

    login_brake_settings settings_;
    std::mutex mutex_;
    table accounts_;
    table clients_;
};

// One admitted attempt, settled when it goes out of scope: undecided (a busy worker, a storage failure, an
// exception) unless succeeded() or failed() says otherwise.
class login_attempt {
  public:
    login_attempt(login_brake& brake, std::string account, std::string client)
        : brake_(brake), account_(std::move(account)), client_(std::move(client)) {}
    login_attempt(const login_attempt&) = delete;
    login_attempt& operator=(const login_attempt&) = delete;
    ~login_attempt() { brake_.settle(account_, client_, result_, login_brake::now_ms()); }

    void succeeded() { result_ = login_brake::outcome::success; }
    void failed() { result_ = login_brake::outcome::failure; }

  private:
    login_brake& brake_;
    std::string account_;
    std::string client_;
    login_brake::outcome result_ = login_brake::outcome::undecided;
};

}  // namespace storefront::server
