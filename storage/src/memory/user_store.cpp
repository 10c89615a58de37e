// memory_user_store: users by id and by lower-cased e-mail; reads share a lock, writes take it alone and
// record the changed user (moving the revision) before releasing it.

#include "storage/user_store.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/change_journal.hpp"
#include "common/clock.hpp"
#include "common/found.hpp"
#include "common/next_id.hpp"
#include "common/patch.hpp"
#include "core/email.hpp"
#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

constexpr auto is_seed_user = [](const core::user_credentials& user) { return user.profile.seed; };

// The index key of an address: ASCII lower case, as core::normalize_email gives the lookups (a user may be
// stored with the case it was sent in, under --compat public).
std::string folded(std::string_view email) {
    std::string out(email);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

class memory_user_store final : public user_store {
  public:
    static constexpr std::size_t default_max_users = 100'000;

    // Takes users with their password hashes (never clear text). E-mails are normalised with
    // core::normalize_email; throws std::invalid_argument for an invalid or duplicate e-mail or id.
    explicit memory_user_store(
        std::vector<core::user_credentials> users, std::size_t max_users = default_max_users
    )
        : max_users_(max_users) {
        for (auto& u : users) {
            auto& profile = u.profile;
            std::optional<std::string> normalized = core::normalize_email(profile.email);
            if (!normalized) {
                throw std::invalid_argument("invalid e-mail for user " + std::to_string(profile.id));
            }
            profile.email = *normalized;
            const std::int64_t id = profile.id;
            if (!id_by_email_.emplace(std::move(*normalized), id).second) {
                throw std::invalid_argument("duplicate e-mail for user " + std::to_string(id));
            }
            if (!users_.emplace(id, std::move(u)).second) {
                throw std::invalid_argument("duplicate user id " + std::to_string(id));
            }
            last_id_ = std::max(last_id_, id);
        }
    }

    std::vector<core::user> list_users(const core::page_request& page) const override {
        std::shared_lock lock(mutex_);
        std::vector<core::user> out;
        const core::index_range range = core::page_slice(page, users_.size());
        auto it = users_.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(range.first));
        for (std::size_t i = range.first; i < range.last; ++i, ++it) {
            out.push_back(it->second.profile);
        }
        return out;
    }

    std::size_t user_count() const override {
        std::shared_lock lock(mutex_);
        return users_.size();
    }

    core::result<core::user> find_user(std::int64_t id) const override {
        std::shared_lock lock(mutex_);
        const auto it = users_.find(id);
        if (it == users_.end()) {
            return core::errc::not_found;
        }
        return it->second.profile;
    }

    core::result<core::user_credentials> find_credentials(std::string_view normalized_email) const override {
        std::shared_lock lock(mutex_);
        return detail::find_indexed(id_by_email_, users_, normalized_email);
    }

    core::result<bool> email_taken(std::string_view normalized_email) const override {
        std::shared_lock lock(mutex_);
        return id_by_email_.contains(normalized_email);
    }

    core::result<core::user> create_user(const core::user_draft& draft) override {
        std::unique_lock lock(mutex_);
        if (users_.size() >= max_users_) {
            return core::errc::storage_full;
        }
        std::string key = folded(draft.email);
        if (id_by_email_.contains(key)) {
            return core::errc::conflict;
        }
        core::user_credentials u;
        u.profile.id = next_id(last_id_);
        u.profile.email = draft.email;
        u.profile.name = draft.name;
        u.profile.role = draft.role;
        u.profile.avatar = draft.avatar;
        u.profile.created_at = u.profile.updated_at = detail::now_ms();
        u.password_hash = draft.password_hash;
        last_id_ = u.profile.id;
        id_by_email_.emplace(std::move(key), u.profile.id);
        const core::user profile = u.profile;
        users_.emplace(profile.id, std::move(u));
        journal_.record(core::row_table::users, profile.id);
        return profile;
    }

    core::result<core::user> update_user(std::int64_t id, const core::user_patch& patch) override {
        std::unique_lock lock(mutex_);
        const auto found = detail::find_writable(users_, id, is_seed_user, core::errc::seed_user_read_only);
        if (!found) {
            return found.error();
        }
        const auto it = *found;
        core::user_credentials u = it->second;
        if (patch.email && *patch.email != u.profile.email) {
            std::string key = folded(*patch.email);
            const std::string old_key = folded(u.profile.email);
            if (key != old_key) {
                if (id_by_email_.contains(key)) {
                    return core::errc::conflict;
                }
                id_by_email_.erase(old_key);
                id_by_email_.emplace(std::move(key), id);
            }
            u.profile.email = *patch.email;  // also a new case of the same address
        }
        detail::patch_field(u.profile.name, patch.name);
        detail::patch_field(u.profile.avatar, patch.avatar);
        detail::patch_field(u.profile.role, patch.role);
        detail::patch_field(u.password_hash, patch.password_hash);
        u.profile.updated_at = detail::now_ms();
        it->second = u;
        journal_.record(core::row_table::users, id);
        return u.profile;
    }

    core::result<void> delete_user(std::int64_t id) override {
        std::unique_lock lock(mutex_);
        const auto found = detail::find_writable(users_, id, is_seed_user, core::errc::seed_user_read_only);
        if (!found) {
            return found.error();
        }
        const auto it = *found;
        id_by_email_.erase(folded(it->second.profile.email));
        users_.erase(it);
        journal_.record(core::row_table::users, id);
        return {};
    }

    std::uint64_t revision() const override { return journal_.revision(); }

    core::result<core::row_changes> changes_since(std::uint64_t since) const override {
        return journal_.changes_since(since);
    }

  private:
    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::user_credentials> users_;
    std::map<std::string, std::int64_t, std::less<>> id_by_email_;  // e-mail lower-cased -> id
    std::int64_t last_id_ = 0;
    std::size_t max_users_;
    detail::change_journal journal_;  // written with the lock held, after a write
};

}  // namespace

std::unique_ptr<user_store> make_memory_user_store(std::vector<core::user_credentials> users) {
    return std::make_unique<memory_user_store>(std::move(users));
}

}  // namespace storefront::storage
