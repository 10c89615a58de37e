#pragma once
// Whether an access token's login is still live, answered from memory on the hot path: a store access
// token names its refresh family, and the token is valid only while that family is (a logout, a password,
// e-mail or role change, a delete, or the family's absolute end ends it). Families this instance revoked are
// known dead at once; a live answer is trusted for `live_for` (1 s by default), so a revocation made by
// another instance sharing the database ends the token here within that time, at one storage read per
// login per second at most. The caller's role is remembered with a live answer the same way: a role change
// and a delete end every login of the account, so the user is read again only when its login is.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/auth_tokens.hpp"
#include "core/errc.hpp"
#include "core/write_policy.hpp"
#include "storage/session_store.hpp"

namespace storefront::server {

class session_gate {
  public:
    explicit session_gate(
        storage::session_store& store, std::chrono::milliseconds live_for = std::chrono::seconds(1)
    );

    // The cached answer for family `id` of `user_id`, or nullopt when storage must be asked (check()).
    [[nodiscard]] std::optional<bool> cached(std::string_view id, std::int64_t user_id) const;

    // The caller of family `id` of `user_id` when its login is known live (as cached()) and its user was
    // read since (remember_caller); nullopt when storage must be asked.
    [[nodiscard]] std::optional<core::actor> known_caller(std::string_view id, std::int64_t user_id) const;
    // Remembers the caller read for a login that is known live, until its liveness is checked again.
    void remember_caller(std::string_view id, const core::actor& who);

    // Asks storage (blocking: call it on the storage offload) and remembers the answer.
    [[nodiscard]] core::result<bool> check(std::string_view id, std::int64_t user_id, std::int64_t now);

    // The user of a valid access token whose login is live (blocking on a cache miss);
    // errc::invalid_token otherwise, also for a token outside any login's family.
    [[nodiscard]] core::result<std::int64_t> access_user(
        const core::auth_tokens& tokens, std::string_view token, std::int64_t now
    );

    // A sandbox that got stores of its own keeps the logins made while it read the shared seed: they are
    // looked up (and revoked) in `earlier` too. Set once, before the gate is used.
    void inherit(storage::session_store& earlier) { earlier_ = &earlier; }

    // The store's revoke and revoke_user, with this instance's cache told at once (blocking).
    bool revoke(std::string_view id, std::int64_t user_id);
    [[nodiscard]] core::result<std::int64_t> revoke_user(std::int64_t user_id);

  private:
    struct entry {
        std::int64_t user_id = 0;
        bool live = false;
        std::chrono::steady_clock::time_point checked;
        std::optional<std::string> role;  // the user's, read after `checked` (remember_caller)
    };
    void remember(std::string_view id, std::int64_t user_id, bool live);
    // Family `id`'s entry when it is `user_id`'s and may be trusted now (dead, or live and checked less than
    // live_for ago); nullptr otherwise. Under mutex_.
    [[nodiscard]] const entry* trusted_locked(std::string_view id, std::int64_t user_id) const;

    static constexpr std::size_t max_entries = 100'000;  // then the cache starts over (one read per login)

    storage::session_store& store_;
    storage::session_store* earlier_ = nullptr;
    std::chrono::milliseconds live_for_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, entry> entries_;
};

}  // namespace storefront::server
