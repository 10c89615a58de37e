// demote_self_made_admins: one pass over the users in id order, a page at a time.

#include "server/services/self_made_admins.hpp"

#include <algorithm>

#include "core/email.hpp"
#include "core/model.hpp"
#include "server/telemetry/log.hpp"

namespace storefront::server {

std::vector<std::int64_t> demote_self_made_admins(
    storage::user_store& users, storage::session_store& sessions, const std::vector<std::string>& kept_emails
) {
    constexpr std::size_t page_size = 500;
    std::vector<std::int64_t> suspects;
    for (std::size_t offset = 0;; offset += page_size) {
        const auto page = users.list_users({offset, page_size});
        for (const auto& user : page) {
            // Normalised as --admins is: an address may be stored with the case it was sent in.
            const auto email = core::normalize_email(user.email).value_or(user.email);
            const bool kept = std::find(kept_emails.begin(), kept_emails.end(), email) != kept_emails.end();
            if (user.role == "admin" && !user.seed && !kept) {
                suspects.push_back(user.id);
            }
        }
        if (page.size() < page_size) {
            break;
        }
    }
    std::vector<std::int64_t> demoted;
    for (const auto id : suspects) {
        core::user_patch patch;
        patch.role = "customer";
        if (users.update_user(id, patch)) {
            (void)sessions.revoke_user(id);
            demoted.push_back(id);
            log_event(
                "warning",
                "admin_demoted",
                {field("user_id", static_cast<long long>(id)),
                 field("why", "a non-seed admin not named by --admins under --write-policy roles")}
            );
        }
    }
    return demoted;
}

}  // namespace storefront::server
