#pragma once
// The users' refused writes, named once for every surface, as catalogue_refusals.hpp names the
// catalogue's: /api/v1 answers them with refusal_answer, GraphQL with refused.

#include <cstdint>
#include <string_view>

#include <boost/system/error_code.hpp>

#include "server/api/store/catalogue_refusals.hpp"

namespace storefront::server {

// The text of a registration or change to an e-mail another user has.
inline constexpr std::string_view email_taken_message = "A user with this email already exists";

// A refused write of user `id` (0 for a create); `seed_message` names the refused change of a demo user
// (core's seed_user_update_message or seed_user_delete_message; empty for a create).
[[nodiscard]] refusal user_refusal(
    boost::system::error_code ec, std::int64_t id, std::string_view seed_message
);

}  // namespace storefront::server
