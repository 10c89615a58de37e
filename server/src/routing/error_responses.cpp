// Failure -> HTTP mapping, in one place so every endpoint answers errors the same way.

#include "server/routing/error_responses.hpp"

#include <algorithm>
#include <chrono>
#include <string>

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

}  // namespace

response error_response(boost::system::error_code ec, std::string_view message) {
    const auto with = [message](std::string_view fallback) { return message.empty() ? fallback : message; };
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
            case core::errc::not_found:
                return http_error(http::status::not_found, with("Not found"));
            case core::errc::busy:
                return http_error(http::status::service_unavailable, with("Server busy, retry later"))
                    .with_header("Retry-After", "1");
            case core::errc::storage_unavailable:
                return http_error(http::status::service_unavailable, with("Storage unavailable"))
                    .with_header("Retry-After", "2");
            case core::errc::conflict:
            case core::errc::in_use:
                return http_error(http::status::conflict, with("Already exists"));
            case core::errc::storage_full:
                return http_error(http::status::insufficient_storage, with("Storage full"));
            case core::errc::invalid_reference:
                return http_error(http::status::bad_request, with("Refers to an entity that does not exist"));
            case core::errc::seed_read_only:
                return http_error(http::status::forbidden, with("Seed data is read-only"));
            case core::errc::seed_user_read_only:
                return http_error(http::status::unauthorized, with("Seed data is read-only"));
            case core::errc::forbidden:
                return http_error(http::status::forbidden, with("Forbidden resource"));
            case core::errc::invalid_input:
                return http_error(http::status::bad_request, with("Invalid input"));
            case core::errc::out_of_stock:
                return http_error(http::status::conflict, with("Not enough stock"));
            case core::errc::cart_empty:
                return http_error(http::status::conflict, with("The cart is empty"));
            case core::errc::transition_not_allowed:
                return http_error(http::status::conflict, with("Not allowed in the order's current state"));
            case core::errc::idempotency_mismatch:
                return http_error(
                    http::status::unprocessable_entity,
                    with("This Idempotency-Key was used with a different request")
                );
            case core::errc::idempotency_in_progress:
                return http_error(
                    http::status::conflict,
                    with("The first request with this Idempotency-Key is still running")
                );
            case core::errc::ok:
                break;
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
        switch (static_cast<core::errc>(ec.value())) {
            case core::errc::not_found:
                return pet_error(http::status::not_found, "Not found");
            case core::errc::conflict:
                return pet_error(http::status::conflict, "Already exists");
            case core::errc::storage_full:
                return pet_error(http::status::insufficient_storage, "Image storage is full");
            case core::errc::busy:
                return pet_error(http::status::service_unavailable, "Server busy, retry later")
                    .with_header("Retry-After", "1");
            case core::errc::invalid_token:
            case core::errc::invalid_credentials:
                return pet_error(http::status::unauthorized, "Unauthorized");
            case core::errc::forbidden:
                return pet_error(http::status::forbidden, "Forbidden");
            case core::errc::storage_unavailable:
                return pet_error(http::status::service_unavailable, "Storage unavailable")
                    .with_header("Retry-After", "2");
            case core::errc::in_use:
                return pet_error(http::status::conflict, "Still in use");
            case core::errc::invalid_reference:
                return pet_error(http::status::bad_request, "Refers to an entity that does not exist");
            case core::errc::seed_read_only:
            case core::errc::seed_user_read_only:
                return pet_error(http::status::forbidden, "Seed data is read-only");
            case core::errc::invalid_refresh_token:
            case core::errc::invalid_input:  // the shop's outcomes: /api/v1 only
            case core::errc::out_of_stock:
            case core::errc::cart_empty:
            case core::errc::transition_not_allowed:
            case core::errc::idempotency_mismatch:
            case core::errc::idempotency_in_progress:
            case core::errc::ok:
                break;
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
