// Refresh families in memory: rotation, replay detection and revocation under one mutex.

#include "storage/session_store.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <string>
#include <unordered_map>

#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

class memory_session_store final : public session_store {
  public:
    static constexpr std::size_t max_families = 1'000'000;

    core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) override {
        std::lock_guard lock(mutex_);
        if (families_.size() >= max_families) {
            drop_expired(now);  // a full sweep only when the cap is reached, so logins stay O(1)
            if (families_.size() >= max_families) {
                return core::errc::storage_full;
            }
        }
        families_[std::string(id)] = family{user_id, 0, expires_at};
        return {};
    }

    core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) override {
        std::lock_guard lock(mutex_);
        const auto it = families_.find(std::string(id));
        if (it == families_.end()) {
            return core::errc::invalid_refresh_token;
        }
        if (it->second.expires_at <= now || it->second.generation != generation) {
            families_.erase(it);  // expired, or an old token replayed: nobody refreshes this family again
            return core::errc::invalid_refresh_token;
        }
        it->second.generation = generation + 1;
        it->second.expires_at = std::min(it->second.expires_at, expires_at);
        return it->second.generation;
    }

    core::result<void> revoke(std::string_view id, std::int64_t user_id) override {
        std::lock_guard lock(mutex_);
        const auto it = families_.find(std::string(id));
        if (it == families_.end() || it->second.user_id != user_id) {
            return core::errc::not_found;
        }
        families_.erase(it);
        return {};
    }

    core::result<bool> is_live(std::string_view id, std::int64_t user_id, std::int64_t now) const override {
        std::lock_guard lock(mutex_);
        const auto it = families_.find(std::string(id));
        return it != families_.end() && it->second.user_id == user_id && it->second.expires_at > now;
    }

    core::result<std::int64_t> revoke_user(std::int64_t user_id) override {
        std::lock_guard lock(mutex_);
        std::int64_t removed = 0;
        for (auto it = families_.begin(); it != families_.end();) {
            if (it->second.user_id == user_id) {
                it = families_.erase(it);
                ++removed;
            } else {
                ++it;
            }
        }
        return removed;
    }

  private:
    struct family {
        std::int64_t user_id = 0;
        std::int64_t generation = 0;
        std::int64_t expires_at = 0;
    };
    void drop_expired(std::int64_t now) {
        for (auto it = families_.begin(); it != families_.end();) {
            it = it->second.expires_at <= now ? families_.erase(it) : std::next(it);
        }
    }

    mutable std::mutex mutex_;
    std::unordered_map<std::string, family> families_;
};

}  // namespace

std::unique_ptr<session_store> make_memory_session_store() {
    return std::make_unique<memory_session_store>();
}

}  // namespace storefront::storage
