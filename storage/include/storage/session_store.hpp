#pragma once
// Port for refresh-token families (one per login): which generation of a family's refresh token is the
// current one, so that each refresh rotates the token, a replayed old token revokes the whole family
// (reuse detection), and logout revokes a family. Shared by every instance through the database.
// Adapters are safe to call from several threads at once; every call is atomic.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/errc.hpp"

namespace storefront::storage {

class session_store {
  public:
    virtual ~session_store() = default;

    // Records family `id` (random, from core::random_session_id) of `user_id` at generation 0, valid until
    // `expires_at` (unix seconds). Families that expired before `now` are dropped on the way, so the store
    // holds live logins only. errc::storage_full when it holds as many as it may.
    [[nodiscard]] virtual core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) = 0;

    // Moves family `id` from `generation` to the next one, valid until the earlier of its current end and
    // `expires_at` (a family's end never moves later: it has an absolute lifetime); returns the new
    // generation. errc::invalid_refresh_token when the family is unknown, revoked or expired, or when
    // `generation` is not the current one: then (an old token replayed) the family is revoked first.
    [[nodiscard]] virtual core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) = 0;

    // Revokes family `id` if it belongs to `user_id`; errc::not_found when there is no such live family.
    [[nodiscard]] virtual core::result<void> revoke(std::string_view id, std::int64_t user_id) = 0;

    // Whether family `id` of `user_id` is live at `now` (known, not revoked, not expired): the access
    // tokens of a login are valid only while its family is.
    [[nodiscard]] virtual core::result<bool> is_live(
        std::string_view id, std::int64_t user_id, std::int64_t now
    ) const = 0;

    // Revokes every family of `user_id` (a credentials or role change, a delete); how many there were.
    [[nodiscard]] virtual core::result<std::int64_t> revoke_user(std::int64_t user_id) = 0;
};

}  // namespace storefront::storage
