// memory_user_store: users in an id-sorted vector plus a map from normalised e-mail to position,
// so logins and availability checks are O(log n).

#include "memory_user_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/email.hpp"

namespace storefront::storage {

memory_user_store::memory_user_store(std::vector<core::user_credentials> users) : users_(std::move(users)) {
    std::sort(users_.begin(), users_.end(), [](const auto& a, const auto& b) {
        return a.profile.id < b.profile.id;
    });
    for (std::size_t i = 0; i < users_.size(); ++i) {
        auto& profile = users_[i].profile;
        if (i > 0 && users_[i - 1].profile.id == profile.id) {
            throw std::invalid_argument("duplicate user id " + std::to_string(profile.id));
        }
        std::optional<std::string> normalized = core::normalize_email(profile.email);
        if (!normalized) {
            throw std::invalid_argument("invalid e-mail for user " + std::to_string(profile.id));
        }
        profile.email = *normalized;
        if (!index_by_email_.emplace(std::move(*normalized), i).second) {
            throw std::invalid_argument("duplicate e-mail for user " + std::to_string(profile.id));
        }
    }
}

std::vector<core::user> memory_user_store::list_users(const core::page_request& page) const {
    const core::index_range range = core::page_slice(page, users_.size());
    std::vector<core::user> out;
    out.reserve(range.last - range.first);
    for (std::size_t i = range.first; i < range.last; ++i) {
        out.push_back(users_[i].profile);
    }
    return out;
}

std::size_t memory_user_store::user_count() const {
    return users_.size();
}

std::optional<core::user> memory_user_store::find_user(std::int64_t id) const {
    const auto it = std::lower_bound(users_.begin(), users_.end(), id, [](const auto& u, std::int64_t key) {
        return u.profile.id < key;
    });
    if (it == users_.end() || it->profile.id != id) {
        return std::nullopt;
    }
    return it->profile;
}

std::optional<core::user_credentials> memory_user_store::find_credentials(std::string_view normalized_email
) const {
    if (const core::user_credentials* found = lookup(normalized_email)) {
        return *found;
    }
    return std::nullopt;
}

bool memory_user_store::email_taken(std::string_view normalized_email) const {
    return lookup(normalized_email) != nullptr;
}

// Users never change yet, so the first revision is the only one.
std::uint64_t memory_user_store::revision() const {
    return 1;
}

const core::user_credentials* memory_user_store::lookup(std::string_view normalized_email) const {
    const auto it = index_by_email_.find(normalized_email);
    return it == index_by_email_.end() ? nullptr : &users_[it->second];
}

}  // namespace storefront::storage
