#pragma once
// The values resolvers trade in: core types as the GraphQL objects (the REST JSON, so dates and image URLs
// are written once), arguments as core's input fields, ids, and domain errors as GraphQL field errors.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>

#include "core/input.hpp"
#include "core/model.hpp"
#include "core/pagination.hpp"
#include "core/validation.hpp"
#include "graphql/executor.hpp"
#include "server/api/store/catalogue_refusals.hpp"
#include "server/api/store/store_services.hpp"

namespace storefront::server {

[[nodiscard]] boost::json::value graph_value(const core::product& p, const store_services& app);
[[nodiscard]] boost::json::value graph_value(const core::category& c, const store_services& app);
// With `password` the fixed mask: storefront keeps only hashes.
[[nodiscard]] boost::json::value graph_value(const core::user& u, const store_services& app);

// Items `page` of `list`'s current revision (rebuilt first if the store moved on: call where blocking is
// allowed), as GraphQL values: the serialised JSON REST pages are cut from, parsed, no store query.
[[nodiscard]] boost::json::value cached_values(fragment_list& list, const core::page_request& page);
// Item `id` from `list` when store_services::cached_item has it (the process is the sole writer), else
// nullopt (ask the store).
[[nodiscard]] std::optional<boost::json::value> cached_value(
    const store_services& app, fragment_list& list, std::int64_t id
);

// An input object argument as core's rules read a JSON body (integral floats as integers: categoryId 1).
[[nodiscard]] core::input_fields input_of(const boost::json::value& object);

// The ID argument `name` as a store id; nullopt when it is not an integer (see bad_id).
[[nodiscard]] std::optional<std::int64_t> id_argument(
    const graphql::resolve_info& info, std::string_view name = "id"
);
[[nodiscard]] graphql::resolved bad_id();

// BAD_USER_INPUT naming every problem (the REST texts).
[[nodiscard]] graphql::resolved invalid_input(const core::validation_errors& problems);
// NOT_FOUND "Product 7 not found".
[[nodiscard]] graphql::resolved missing(std::string_view type, std::int64_t id);
// A refused write or lookup: forbidden/seed -> FORBIDDEN, token and credential errors -> UNAUTHENTICATED,
// conflicts and bad references -> BAD_USER_INPUT, not_found -> NOT_FOUND, full -> INSUFFICIENT_STORAGE,
// with `message` (or a default text).
[[nodiscard]] graphql::resolved refused(boost::system::error_code ec, std::string_view message = {});
// A refused write named as REST names it (catalogue_refusals.hpp).
[[nodiscard]] graphql::resolved refused(const refusal& named);

}  // namespace storefront::server
