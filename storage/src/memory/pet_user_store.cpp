// memory_pet_user_store: a map from username to credentials. Ids are assigned as one more than the
// largest id in use; usernames are the key, as in the public petstore.

#include "memory/pet_user_store.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "common/found.hpp"

namespace storefront::storage {

memory_pet_user_store::memory_pet_user_store(std::vector<core::pet_user_credentials> users) {
    for (auto& u : users) {
        const std::string name = u.profile.username;
        if (u.profile.id <= 0 || !users_.emplace(name, std::move(u)).second) {
            throw std::invalid_argument("invalid id or duplicate username " + name);
        }
    }
}

std::int64_t memory_pet_user_store::next_id() const {
    std::int64_t largest = 0;
    for (const auto& [name, u] : users_) {
        largest = std::max(largest, u.profile.id);
    }
    if (largest == std::numeric_limits<std::int64_t>::max()) {
        throw std::overflow_error("no free user id left");
    }
    return largest + 1;
}

core::result<core::pet_user_credentials> memory_pet_user_store::find(std::string_view username) const {
    std::shared_lock lock(mutex_);
    return detail::find_in(users_, username);
}

core::pet_user memory_pet_user_store::add(core::pet_user_credentials user) {
    std::unique_lock lock(mutex_);
    if (user.profile.id == 0) {
        user.profile.id = next_id();
    }
    core::pet_user profile = user.profile;
    users_.insert_or_assign(profile.username, std::move(user));
    return profile;
}

core::result<core::pet_user> memory_pet_user_store::replace(
    std::string_view username, core::pet_user_credentials user
) {
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

core::result<void> memory_pet_user_store::remove(std::string_view username) {
    std::unique_lock lock(mutex_);
    const auto it = users_.find(username);
    if (it == users_.end()) {
        return core::errc::not_found;
    }
    users_.erase(it);
    return {};
}

}  // namespace storefront::storage
