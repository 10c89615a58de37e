#pragma once
// Switching a store to --write-policy roles: admins that registered themselves under open (possible before
// issue 45) must not keep their role. At start, every non-seed admin whose e-mail --admins does not name is
// demoted to customer and their logins are revoked; each demotion is logged (by id).

#include <cstdint>
#include <string>
#include <vector>

#include "storage/session_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// The ids demoted. Blocking (storage calls); throws what the stores throw.
std::vector<std::int64_t> demote_self_made_admins(
    storage::user_store& users, storage::session_store& sessions, const std::vector<std::string>& kept_emails
);

}  // namespace storefront::server
