#pragma once
// The password check of an admitted login, the same for /api/v1 and /api/v3: one Argon2id verify on the
// password worker, and the attempt settled on the brake by its outcome.

#include <optional>
#include <string>
#include <utility>

#include <boost/asio/awaitable.hpp>

#include "core/errc.hpp"
#include "server/services/login_brake.hpp"
#include "server/services/password_worker.hpp"

namespace storefront::server {

// nullopt when `password` matches `hash` (the attempt succeeded); else why not: busy when the password
// worker's queue is full (answer 503, the attempt stays undecided), invalid_credentials for a wrong password
// or an empty `hash` (an unknown user, or one without a password: it still costs one verify, so timing
// reveals nothing), the attempt failed.
[[nodiscard]] inline boost::asio::awaitable<std::optional<core::errc>> check_password(
    password_worker& passwords, login_attempt& attempt, std::string password, std::string hash
) {
    const bool known = !hash.empty();
    auto verification = passwords.verify(std::move(password), std::move(hash));
    const auto match = co_await std::move(verification);
    if (!match) {
        co_return core::errc::busy;
    }
    if (!*match || !known) {
        attempt.failed();
        co_return core::errc::invalid_credentials;
    }
    attempt.succeeded();
    co_return std::nullopt;
}

}  // namespace storefront::server
