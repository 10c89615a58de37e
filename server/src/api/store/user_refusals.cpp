// The users' refused writes, named once (user_refusals.hpp).

#include "server/api/store/user_refusals.hpp"

#include <string>

#include "core/errc.hpp"

namespace storefront::server {

refusal user_refusal(boost::system::error_code ec, std::int64_t id, std::string_view seed_message) {
    switch (static_cast<core::errc>(ec.value())) {
        case core::errc::not_found:
            return {ec, missing_text("User", id)};
        case core::errc::seed_user_read_only:
            return {ec, std::string(seed_message)};
        case core::errc::conflict:
            return {ec, std::string(email_taken_message)};
        default:
            return {ec, {}};
    }
}

}  // namespace storefront::server
