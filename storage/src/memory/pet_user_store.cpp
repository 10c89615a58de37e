// memory_pet_user_store: a map from username to credentials. Ids are assigned as one more than the
// largest id in use; usernames are the key, as in the public petstore.

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>

#include "common/found.hpp"
#include "memory/seed_map.hpp"
#include "memory/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

class memory_pet_user_store final : public pet_user_store {
  public:
    // Throws std::invalid_argument for a non-positive id or a duplicate username.
    explicit memory_pet_user_store(std::vector<core::pet_user_credentials> users)
        : users_(detail::seed_map<decltype(users_)>(
              std::move(users),
              [](const core::pet_user_credentials& u) { return u.profile.username; },
              [](const core::pet_user_credentials& u) { return u.profile.id; },
              "invalid id or duplicate username "
          )) {}

    core::result<core::pet_user_credentials> find(std::string_view username) const override {
        std::shared_lock lock(mutex_);
        return detail::find_in(users_, username);
    }

    core::pet_user add(core::pet_user_credentials user) override {
        std::unique_lock lock(mutex_);
        if (user.profile.id == 0) {
            user.profile.id = next_id();
        }
        core::pet_user profile = user.profile;
        users_.insert_or_assign(profile.username, std::move(user));
        return profile;
    }

    core::result<core::pet_user> replace(std::string_view username, core::pet_user_credentials user)
        override {
        std::unique_lock lock(mutex_);
        const auto it = users_.find(username);
        if (it == users_.end()) {
            return core::errc::not_found;
        }
        if (user.profile.username != username && users_.find(user.profile.username) != users_.end()) {
            return core::errc::conflict;
        }
        if (user.profile.id == 0) {
            user.profile.id = it->second.profile.id;
        }
        core::pet_user profile = user.profile;
        users_.erase(it);
        users_.emplace(profile.username, std::move(user));
        return profile;
    }

    core::result<void> remove(std::string_view username) override {
        std::unique_lock lock(mutex_);
        const auto it = users_.find(username);
        if (it == users_.end()) {
            return core::errc::not_found;
        }
        users_.erase(it);
        return {};
    }

    std::size_t count() const override {
        std::shared_lock lock(mutex_);
        return users_.size();
    }

  private:
    // Call with the lock held.
    std::int64_t next_id() const {
        std::int64_t largest = 0;
        for (const auto& [name, u] : users_) {
            largest = std::max(largest, u.profile.id);
        }
        if (largest == std::numeric_limits<std::int64_t>::max()) {
            throw std::overflow_error("no free user id left");
        }
        return largest + 1;
    }

    mutable std::shared_mutex mutex_;
    std::map<std::string, core::pet_user_credentials, std::less<>> users_;
};

}  // namespace

std::unique_ptr<pet_user_store> make_memory_pet_user_store(std::vector<core::pet_user_credentials> users) {
    return std::make_unique<memory_pet_user_store>(std::move(users));
}

}  // namespace storefront::storage
