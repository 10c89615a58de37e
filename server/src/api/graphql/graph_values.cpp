// GraphQL values of core types (through the REST JSON mapping), input conversion for core's rules, and
// the one errc -> GraphQL error code mapping of the surface.

#include "graph_values.hpp"

#include <cmath>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/catalogue_rules.hpp"
#include "core/compat.hpp"
#include "core/enum_names.hpp"
#include "core/errc.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/codec/request_body.hpp"

namespace storefront::server {

namespace {

// The GraphQL error code of each errc a resolver may answer, and the message where the caller gave none;
// any other code (the shop's, ok, another category) is an internal error.
struct refusal_code {
    core::errc value;
    std::string_view fallback;
    std::string_view code;
};
constexpr refusal_code refusal_codes[] = {
    {core::errc::not_found, "Not found", "NOT_FOUND"},
    {core::errc::invalid_credentials, "Unauthorized", "UNAUTHENTICATED"},
    {core::errc::invalid_token, "Unauthorized", "UNAUTHENTICATED"},
    {core::errc::invalid_refresh_token, "Unauthorized", "UNAUTHENTICATED"},
    {core::errc::forbidden, "Forbidden resource", "FORBIDDEN"},
    {core::errc::seed_read_only, "Seed data is read-only", "FORBIDDEN"},
    {core::errc::seed_user_read_only, "Seed data is read-only", "FORBIDDEN"},
    {core::errc::conflict, "Already exists", "BAD_USER_INPUT"},
    {core::errc::invalid_reference, "Refers to an entity that does not exist", "BAD_USER_INPUT"},
    {core::errc::in_use, "Still in use", "BAD_USER_INPUT"},
    {core::errc::storage_full, "Storage full", "INSUFFICIENT_STORAGE"},
    {core::errc::busy, "Service unavailable, retry later", "SERVICE_UNAVAILABLE"},
    {core::errc::storage_unavailable, "Service unavailable, retry later", "SERVICE_UNAVAILABLE"},
};

// Floats with no fraction as integers, all the way down (GraphQL's Float categoryId 1 arrives as 1.0).
void integral_floats_as_integers(boost::json::value& v) {
    if (v.is_double()) {
        const double d = v.get_double();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e15) {
            v = static_cast<std::int64_t>(d);
        }
    } else if (v.is_array()) {
        for (auto& item : v.get_array()) {
            integral_floats_as_integers(item);
        }
    } else if (v.is_object()) {
        for (auto& member : v.get_object()) {
            integral_floats_as_integers(member.value());
        }
    }
}

std::string join(const core::validation_errors& problems) {
    std::string out;
    for (const auto& message : problems.messages) {
        out.append(out.empty() ? "" : "; ").append(message);
    }
    return out.empty() ? std::string("Invalid input") : out;
}

}  // namespace

boost::json::value graph_value(const core::product& p, const store_services& app) {
    return boost::json::parse(to_json(p, app.public_url()));
}

boost::json::value graph_value(const core::category& c, const store_services& app) {
    return boost::json::parse(to_json(c, app.public_url()));
}

boost::json::value graph_value(const core::user& u, const store_services& app) {
    auto value = boost::json::parse(to_json(u, app.public_url()));
    value.as_object()["password"] = core::masked_password;
    return value;
}

boost::json::value cached_values(fragment_list& list, const core::page_request& page) {
    const auto snapshot = list.current();
    const auto range = core::page_slice(page, snapshot->size());
    boost::json::array out;
    out.reserve(range.last - range.first);
    for (auto i = range.first; i < range.last; ++i) {
        out.push_back(boost::json::parse(snapshot->at(i)));
    }
    return out;
}

std::optional<boost::json::value> cached_value(
    const store_services& app, fragment_list& list, std::int64_t id
) {
    if (auto json = app.cached_item(list, id)) {
        return boost::json::parse(*json);
    }
    return std::nullopt;
}

core::input_fields input_of(const boost::json::value& object) {
    boost::json::value copy = object;
    integral_floats_as_integers(copy);
    auto fields = decode_input("application/json", boost::json::serialize(copy));
    return fields ? std::move(*fields) : core::input_fields{};
}

std::optional<std::int64_t> id_argument(const graphql::resolve_info& info, std::string_view name) {
    const auto* id = info.arguments.if_contains(name);
    if (id == nullptr) {
        return std::nullopt;
    }
    if (id->is_int64()) {
        return id->get_int64();
    }
    if (id->is_string()) {
        return core::parse_path_id(id->get_string());
    }
    return std::nullopt;
}

graphql::resolved bad_id() {
    return graphql::resolved::fail(std::string(core::numeric_id_expected), "BAD_USER_INPUT");
}

graphql::resolved invalid_input(const core::validation_errors& problems) {
    return graphql::resolved::fail(join(problems), "BAD_USER_INPUT");
}

graphql::resolved missing(std::string_view type, std::int64_t id) {
    return graphql::resolved::fail(missing_text(type, id), "NOT_FOUND");
}

graphql::resolved refused(const refusal& named) {
    return refused(named.code, named.message);
}

graphql::resolved refused(boost::system::error_code ec, std::string_view message) {
    const refusal_code* row = ec.category() == core::storefront_category()
                                  ? core::row_of(refusal_codes, static_cast<core::errc>(ec.value()))
                                  : nullptr;
    if (row == nullptr) {
        return graphql::resolved::fail("Internal server error", "INTERNAL_SERVER_ERROR");
    }
    return graphql::resolved::fail(
        std::string(message.empty() ? row->fallback : message), std::string(row->code)
    );
}

}  // namespace storefront::server
