// session_gate: a small map of family id to (owner, live, when checked) in front of the session store.

#include "server/services/session_gate.hpp"

namespace storefront::server {

session_gate::session_gate(storage::session_store& store, std::chrono::milliseconds live_for)
    : store_(store), live_for_(live_for) {}

std::optional<bool> session_gate::cached(std::string_view id, std::int64_t user_id) const {
    std::lock_guard lock(mutex_);
    const entry* e = trusted_locked(id, user_id);
    return e != nullptr ? std::optional(e->live) : std::nullopt;
}

const session_gate::entry* session_gate::trusted_locked(std::string_view id, std::int64_t user_id) const {
    const auto it = entries_.find(std::string(id));
    if (it == entries_.end() || it->second.user_id != user_id) {
        return nullptr;
    }
    if (it->second.live && std::chrono::steady_clock::now() - it->second.checked >= live_for_) {
        return nullptr;  // another instance may have revoked it meanwhile (dead families never come back)
    }
    return &it->second;
}

std::optional<core::actor> session_gate::known_caller(std::string_view id, std::int64_t user_id) const {
    std::lock_guard lock(mutex_);
    const entry* e = trusted_locked(id, user_id);
    if (e == nullptr || !e->live || !e->role) {
        return std::nullopt;
    }
    return core::actor{user_id, *e->role};
}

void session_gate::remember_caller(std::string_view id, const core::actor& who) {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(std::string(id));
    if (it != entries_.end() && it->second.live && it->second.user_id == who.user_id) {
        it->second.role = who.role;
    }
}

core::result<bool> session_gate::check(std::string_view id, std::int64_t user_id, std::int64_t now) {
    auto live = store_.is_live(id, user_id, now);
    if (live && !*live && earlier_ != nullptr) {
        live = earlier_->is_live(id, user_id, now);
    }
    if (live) {
        remember(id, user_id, *live);
    }
    return live;
}

core::result<std::int64_t> session_gate::access_user(
    const core::auth_tokens& tokens, std::string_view token, std::int64_t now
) {
    const auto claims = tokens.verify_access_claims(token, now);
    if (!claims) {
        return claims.error();
    }
    if (claims->session.empty()) {
        return core::errc::invalid_token;  // not a login's: nothing could end it
    }
    auto live = cached(claims->session, claims->user_id);
    if (!live) {
        const auto checked = check(claims->session, claims->user_id, now);
        if (!checked) {
            return checked.error();
        }
        live = *checked;
    }
    if (!*live) {
        return core::errc::invalid_token;
    }
    return claims->user_id;
}

bool session_gate::revoke(std::string_view id, std::int64_t user_id) {
    bool revoked = store_.revoke(id, user_id).has_value();
    if (earlier_ != nullptr) {
        revoked = earlier_->revoke(id, user_id).has_value() || revoked;
    }
    remember(id, user_id, false);
    return revoked;
}

core::result<std::int64_t> session_gate::revoke_user(std::int64_t user_id) {
    auto revoked = store_.revoke_user(user_id);
    if (earlier_ != nullptr && revoked) {
        const auto earlier = earlier_->revoke_user(user_id);
        revoked = earlier ? core::result<std::int64_t>(*revoked + *earlier) : earlier;
    }
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_) {
        if (e.user_id == user_id) {
            e.live = false;
        }
    }
    return revoked;
}

void session_gate::remember(std::string_view id, std::int64_t user_id, bool live) {
    std::lock_guard lock(mutex_);
    if (entries_.size() >= max_entries) {
        entries_.clear();
    }
    entries_[std::string(id)] = entry{user_id, live, std::chrono::steady_clock::now(), std::nullopt};
}

}  // namespace storefront::server
