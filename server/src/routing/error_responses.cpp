// Failure -> HTTP mapping, in one place so every endpoint answers errors the same way.

#include "server/routing/error_responses.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <string>

#include "core/enum_names.hpp"
#include "core/errc.hpp"
#include "server/codec/error_style.hpp"
#include "server/codec/json_writer.hpp"
#include "server/services/blocking_offload.hpp"
#include "storage/storage_error.hpp"

namespace storefront::server {

namespace {

// The problems of a failed validation in one message, "; " between them.
std::string joined_problems(const core::validation_errors& errors) {
    std::string message;
    for (const auto& m : errors.messages) {
        message += message.empty() ? "" : "; ";
        message += m;
    }
    return message;
}

// An error whose /api/v1 body is the public service's literal.
response literal_error(http::status status, std::string_view message, std::string_view store_body) {
    return error_answer({status, std::string(message), std::string(store_body)});
}

response unauthorized(std::string_view challenge) {
    response r = literal_error(
        http::status::unauthorized, "Unauthorized", R"({"message":"Unauthorized","statusCode":401})"
    );
    if (!challenge.empty()) {
        r.with_header("WWW-Authenticate", challenge);
    }
    return r;
}

// The plain answer to an errc: its status, the message a client reads where the caller gave none, and the
// seconds of a Retry-After (none when empty).
struct errc_answer {
    core::errc value;
    http::status status;
    std::string_view message;
    std::string_view retry_after;
};

response plain_answer(const errc_answer& row, std::string_view message) {
    response r = http_error(row.status, message.empty() ? row.message : message);
    if (!row.retry_after.empty()) {
        r.with_header("Retry-After", row.retry_after);
    }
    return r;
}

// /api/v1's answers, but for the three 401s error_response writes itself.
constexpr errc_answer store_answers[] = {
    {core::errc::not_found, http::status::not_found, "Not found", ""},
    {core::errc::busy, http::status::service_unavailable, "Server busy, retry later", "1"},
    {core::errc::storage_unavailable, http::status::service_unavailable, "Storage unavailable", "2"},
    {core::errc::conflict, http::status::conflict, "Already exists", ""},
    {core::errc::in_use, http::status::conflict, "Already exists", ""},
    {core::errc::storage_full, http::status::insufficient_storage, "Storage full", ""},
    {core::errc::invalid_reference, http::status::bad_request, "Refers to an entity that does not exist", ""},
    {core::errc::seed_read_only, http::status::forbidden, "Seed data is read-only", ""},
    {core::errc::seed_user_read_only, http::status::unauthorized, "Seed data is read-only", ""},
    {core::errc::forbidden, http::status::forbidden, "Forbidden resource", ""},
    {core::errc::invalid_input, http::status::bad_request, "Invalid input", ""},
    {core::errc::out_of_stock, http::status::conflict, "Not enough stock", ""},
    {core::errc::cart_empty, http::status::conflict, "The cart is empty", ""},
    {core::errc::transition_not_allowed,
     http::status::conflict,
     "Not allowed in the order's current state",
     ""},
    {core::errc::idempotency_mismatch,
     http::status::unprocessable_entity,
     "This Idempotency-Key was used with a different request",
     ""},
    {core::errc::idempotency_in_progress,
     http::status::conflict,
     "The first request with this Idempotency-Key is still running",
     ""},
};
// Every errc but ok has an answer: these rows and the three 401s (idempotency_in_progress is the last).
static_assert(std::size(store_answers) + 3 == static_cast<std::size_t>(core::errc::idempotency_in_progress));

// /api/v3's answers; the shop's codes and invalid_refresh_token (/api/v1 only) have none: 500.
constexpr errc_answer pet_answers[] = {
    {core::errc::not_found, http::status::not_found, "Not found", ""},
    {core::errc::conflict, http::status::conflict, "Already exists", ""},
    {core::errc::storage_full, http::status::insufficient_storage, "Image storage is full", ""},
    {core::errc::busy, http::status::service_unavailable, "Server busy, retry later", "1"},
    {core::errc::invalid_token, http::status::unauthorized, "Unauthorized", ""},
    {core::errc::invalid_credentials, http::status::unauthorized, "Unauthorized", ""},
    {core::errc::forbidden, http::status::forbidden, "Forbidden", ""},
    {core::errc::storage_unavailable, http::status::service_unavailable, "Storage unavailable", "2"},
    {core::errc::in_use, http::status::conflict, "Still in use", ""},
    {core::errc::invalid_reference, http::status::bad_request, "Refers to an entity that does not exist", ""},
    {core::errc::seed_read_only, http::status::forbidden, "Seed data is read-only", ""},
    {core::errc::seed_user_read_only, http::status::forbidden, "Seed data is read-only", ""},
};

}  // namespace

response error_response(boost::system::error_code ec, std::string_view message) {
    if (ec.category() == core::storefront_category()) {
        switch (static_cast<core::errc>(ec.value())) {
            case core::errc::invalid_credentials:
                return unauthorized({});
            case core::errc::invalid_token:
                return unauthorized(R"(Bearer error="invalid_token")");
            case core::errc::invalid_refresh_token:
                return literal_error(
                    http::status::unauthorized,
                    "Invalid",
                    R"({"message":"Invalid","error":"Unauthorized","statusCode":401})"
                );
            default:
                break;
        }
        if (const errc_answer* row = core::row_of(store_answers, static_cast<core::errc>(ec.value()))) {
            return plain_answer(*row, message);
        }
    }
    return internal_error();
}

response validation_failed(const core::validation_errors& errors) {
    std::string out;
    json_writer w(out);
    w.begin_object().key("message").begin_array();
    for (const auto& message : errors.messages) {
        w.value(message);
    }
    w.end_array().key("error").value("Bad Request").key("statusCode").value(std::int64_t{400}).end_object();
    return error_answer({http::status::bad_request, joined_problems(errors), std::move(out)});
}

response route_not_found(std::string_view method, std::string_view path) {
    return http_error(http::status::not_found, "Cannot " + std::string(method) + " " + std::string(path));
}

response method_not_allowed(std::string_view method, std::string_view path, std::string_view allow) {
    response r = http_error(
        http::status::method_not_allowed,
        "Method " + std::string(method) + " not allowed on " + std::string(path)
    );
    r.with_header("Allow", allow);
    return r;
}

response entity_not_found(
    core::compat_mode mode, std::string_view path, const missing_entity& what, std::string_view message
) {
    if (mode != core::compat_mode::public_service) {
        return error_response(core::errc::not_found, message);
    }
    // The criteria as the public service prints them: JSON.stringify({key: value}, null, 4).
    std::string criteria = "{\n    ";
    append_json_string(criteria, what.key_name);
    criteria += ": ";
    if (const auto* id = std::get_if<std::int64_t>(&what.key)) {
        criteria += std::to_string(*id);
    } else {
        append_json_string(criteria, std::get<std::string>(what.key));
    }
    criteria += "\n}";
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch()
    );
    const std::string described =
        "Could not find any entity of type \"" + std::string(what.type) + "\" matching: " + criteria;
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("path")
        .value(path)
        .key("timestamp")
        .value(iso8601_ms(now.count()))
        .key("name")
        .value("EntityNotFoundError")
        .key("message")
        .value(described)
        .end_object();
    return error_answer({http::status::bad_request, described, std::move(out)});
}

response wrong_method(
    core::compat_mode mode,
    std::string_view method,
    std::string_view requested_path,
    std::string_view path,
    std::string_view allow
) {
    if (mode == core::compat_mode::public_service) {
        return route_not_found(method, requested_path);
    }
    return method_not_allowed(method, path, allow);
}

response internal_error() {
    return literal_error(
        http::status::internal_server_error,
        "Internal server error",
        R"({"statusCode":500,"message":"Internal server error"})"
    );
}

response pet_error(http::status status, std::string_view message) {
    return http_error(status, message);
}

response pet_validation_failed(const core::validation_errors& errors) {
    const std::string message = joined_problems(errors);
    return pet_error(http::status::bad_request, message.empty() ? "Invalid input" : message);
}

response pet_error_response(boost::system::error_code ec) {
    if (ec.category() == core::storefront_category()) {
        if (const errc_answer* row = core::row_of(pet_answers, static_cast<core::errc>(ec.value()))) {
            return plain_answer(*row, {});
        }
    }
    return internal_error();
}

response pet_error_response(boost::system::error_code ec, std::string_view subject) {
    if (ec == core::errc::not_found) {
        return pet_error(http::status::not_found, std::string(subject) + " not found");
    }
    return pet_error_response(ec);
}

response pet_unauthorized(bool api_key, std::string_view scope, bool bad_token) {
    std::string message = bad_token ? "Invalid or expired bearer token" : "Missing or invalid credentials";
    message += api_key && !scope.empty() ? ": send the api_key header or a bearer token with scope "
               : api_key                 ? ": send a valid api_key header"
                                         : ": send a bearer token with scope ";
    if (!scope.empty()) {
        message += scope;
    }
    response r = pet_error(http::status::unauthorized, message);
    if (api_key) {
        r.with_header("WWW-Authenticate", R"(ApiKey realm="storefront-pet", header="api_key")");
    }
    if (!scope.empty()) {
        std::string challenge = R"(Bearer realm="storefront-pet", scope=")" + std::string(scope) + '"';
        if (bad_token) {
            challenge += R"(, error="invalid_token")";
        }
        r.with_header("WWW-Authenticate", challenge);
    }
    return r;
}

response pet_forbidden(std::string_view scope) {
    response r =
        pet_error(http::status::forbidden, "The bearer token lacks the " + std::string(scope) + " scope");
    r.with_header(
        "WWW-Authenticate",
        R"(Bearer realm="storefront-pet", error="insufficient_scope", scope=")" + std::string(scope) + '"'
    );
    return r;
}

response oauth_error(http::status status, std::string_view error, std::string_view description) {
    std::string out;
    json_writer w(out);
    w.begin_object().key("error").value(error).key("error_description").value(description).end_object();
    response r = json_response(status, std::move(out));
    r.with_header("Cache-Control", "no-store").with_header("Pragma", "no-cache");
    if (status == http::status::unauthorized) {
        r.with_header("WWW-Authenticate", R"(Basic realm="storefront-pet")");
    }
    return r;
}

std::optional<storage_failure> storage_failure_of(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const storage::storage_unavailable& e) {
        return storage_failure{core::errc::storage_unavailable, e.what()};
    } catch (const offload_rejected& e) {
        return storage_failure{core::errc::busy, e.what()};
    } catch (...) {
        return std::nullopt;
    }
}

response login_braked(std::uint32_t retry_after) {
    const std::string seconds = std::to_string(std::max<std::uint32_t>(1, retry_after));
    response r = http_error(
        http::status::too_many_requests,
        "Too many failed logins for this account or client; retry after " + seconds + " s"
    );
    r.with_header("Retry-After", seconds);
    r.deterministic = false;
    return r;
}

}  // namespace storefront::server
