// User handlers: pages of public profiles and e-mail availability.

#include "core/email.hpp"
#include "core/pagination.hpp"
#include "server/api/store/handlers.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

// GET /users?offset=&limit= : one page of users in id order
handler_result handle_get_users(request_context& ctx, app_services& app) {
    const auto page = core::parse_page(ctx.query);
    if (!page) {
        co_return validation_failed(page.error());
    }
    co_return shared_json_response(app.user_json().page(*page));
}

// POST /users/is-available {email} : whether no user has that e-mail yet
handler_result handle_post_users_is_available(request_context& ctx, app_services& app) {
    auto decoded = decode_body(ctx.request[http::field::content_type], ctx.request.body());
    if (!decoded) {
        co_return std::move(decoded).error();
    }
    const auto& fields = *decoded;
    core::validation_errors problems;
    std::optional<std::string> email;
    if (!fields.contains("email")) {
        problems.messages.push_back(missing_field_message("email"));
    } else if (auto text = fields.string("email"); !text) {
        problems.messages.push_back(not_string_message("email"));
    } else if (email = core::normalize_email(*text); !email) {
        problems.messages.push_back("email must be an email");
    }
    if (!problems.messages.empty()) {
        co_return validation_failed(problems);
    }
    const bool available = !app.users().email_taken(*email);
    co_return json_response(
        http::status::ok, available ? R"({"isAvailable":true})" : R"({"isAvailable":false})"
    );
}

}  // namespace storefront::server
