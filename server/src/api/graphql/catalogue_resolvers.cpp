// Products and categories over GraphQL: the same filters and texts, paging rule, write policy and seed
// protection as /api/v1 (core's rules, the view's catalogue store); unknown ids and duplicate slugs are
// NOT_FOUND and BAD_USER_INPUT, never internal errors.

#include <cmath>
#include <cstdio>
#include <string>

#include <boost/json/array.hpp>

#include "core/catalogue_rules.hpp"
#include "core/list_page.hpp"
#include "core/pagination.hpp"
#include "core/write_policy.hpp"
#include "graph_call.hpp"
#include "graph_values.hpp"
#include "resolvers.hpp"
#include "server/api/store/catalogue_actions.hpp"
#include "server/api/store/json_mapping.hpp"

namespace storefront::server {

namespace {

using graphql::resolve_info;
using graphql::resolved;

// A GraphQL number argument as the query-string text REST's filter rules read ("1" for 1.0).
std::string as_query_text(const boost::json::value& v) {
    if (v.is_int64()) {
        return std::to_string(v.get_int64());
    }
    if (v.is_uint64()) {
        return std::to_string(v.get_uint64());
    }
    if (v.is_double()) {
        const double d = v.get_double();
        if (std::floor(d) == d && std::fabs(d) < 9.0e15) {
            return std::to_string(static_cast<std::int64_t>(d));
        }
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", d);
        return text;
    }
    if (v.is_string()) {
        return std::string(v.get_string());
    }
    return {};
}

boost::json::value product_array(const std::vector<core::product>& items, const store_services& app) {
    boost::json::array out;
    out.reserve(items.size());
    for (const auto& p : items) {
        out.push_back(graph_value(p, app));
    }
    return out;
}

std::optional<resolved> may_write(graph_call& call) {
    if (auto allowed = core::may_write_catalogue(call.app.write_policy(), caller_of(call)); !allowed) {
        return refused(allowed.error());
    }
    return std::nullopt;
}

// The id of the row a write names, when the caller may write: else the answer (a bad id, the write policy).
boost::system::result<std::int64_t, resolved> write_target(const resolve_info& info) {
    const auto id = id_argument(info);
    if (!id) {
        return {boost::system::in_place_error, bad_id()};
    }
    if (auto no = may_write(call_of(info))) {
        return {boost::system::in_place_error, std::move(*no)};
    }
    return {boost::system::in_place_value, *id};
}

// products(limit, offset, price, price_min, price_max, title, categoryId, categorySlug): the REST filters;
// a page only when limit > 0 and offset >= 0 are both given, else the whole list.
resolved products(const resolve_info& info) {
    auto& call = call_of(info);
    core::query_params params;
    for (const char* name : {"price", "price_min", "price_max", "title", "categoryId", "categorySlug"}) {
        if (const auto* v = info.arguments.if_contains(name); v != nullptr && !v->is_null()) {
            params.push_back({name, as_query_text(*v)});
        }
    }
    auto filter = core::parse_product_filter(params);
    if (!filter) {
        return invalid_input(filter.error());
    }
    core::page_request page = core::every_item;
    const auto* limit = info.arguments.if_contains("limit");
    const auto* offset = info.arguments.if_contains("offset");
    if (limit != nullptr && offset != nullptr && limit->is_int64() && offset->is_int64() &&
        limit->get_int64() > 0 && offset->get_int64() >= 0) {
        page = {static_cast<std::size_t>(offset->get_int64()), static_cast<std::size_t>(limit->get_int64())};
    }
    if (params.empty()) {
        return resolved::ok(cached_values(call.app.product_json(), page));  // what REST pages are cut from
    }
    return resolved::ok(product_array(call.app.catalogue().list_products(*filter, page), call.app));
}

// product(id), category(id): the row, from the cached list when it is current.
template <class Actions>
resolved row(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = id_argument(info);
    if (!id) {
        return bad_id();
    }
    if (auto cached = cached_value(call.app, (call.app.*Actions::cached)(), *id)) {
        return resolved::ok(std::move(*cached));
    }
    const auto found = (call.app.catalogue().*Actions::find)(*id);
    return found ? resolved::ok(graph_value(*found, call.app)) : missing(Actions::names.type, *id);
}

resolved categories(const resolve_info& info) {
    return resolved::ok(cached_values(call_of(info).app.category_json(), core::every_item));
}

// Category.products: the category's products in id order (declared but never resolved by the public
// service).
resolved category_products(const resolve_info& info) {
    auto& call = call_of(info);
    core::product_filter filter;
    if (const auto* id = info.parent.is_object() ? info.parent.as_object().if_contains("id") : nullptr;
        id != nullptr && id->is_int64()) {
        filter.category_id = id->get_int64();
    }
    return resolved::ok(product_array(call.app.catalogue().list_products(filter, core::every_item), call.app)
    );
}

// The input object `input` read by `rule` (a draft or a patch) and written (Actions::write) as a write of
// row `id` (0 for a create): the row, published as created or updated, or its refusal.
template <class Actions, class Rule>
resolved input_written(graph_call& call, std::int64_t id, const boost::json::value& input, Rule rule) {
    const auto fields = rule(input_of(input));
    if (!fields) {
        return invalid_input(fields.error());
    }
    const auto done = Actions::write(call.app.catalogue(), id, *fields);
    if (!done) {
        return refused(Actions::refused(call.app.catalogue(), done.error(), id, *fields));
    }
    call.app.publish_here(written_event<Actions>(id), to_json(*done, call.app.public_url()));
    return resolved::ok(graph_value(*done, call.app));
}

// add<Aggregate>(data): the new row, for a caller who may write.
template <class Actions>
resolved add_row(const resolve_info& info) {
    auto& call = call_of(info);
    if (auto no = may_write(call)) {
        return std::move(*no);
    }
    return input_written<Actions>(call, 0, info.arguments.at("data"), Actions::read_draft);
}

// update<Aggregate>(id, changes): the updated row.
template <class Actions>
resolved update_row(const resolve_info& info) {
    const auto id = write_target(info);
    if (!id) {
        return id.error();
    }
    return input_written<Actions>(call_of(info), *id, info.arguments.at("changes"), Actions::read_patch);
}

// delete<Aggregate>(id): true.
template <class Actions>
resolved delete_row(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = write_target(info);
    if (!id) {
        return id.error();
    }
    auto& store = call.app.catalogue();
    if (const auto done = Actions::remove(store, *id); !done) {
        return refused(Actions::refused(store, done.error(), *id));
    }
    call.app.publish_here(Actions::names.deleted, "{\"id\":" + std::to_string(*id) + "}");
    return resolved::ok(true);
}

}  // namespace

void add_catalogue_resolvers(graphql::schema& schema) {
    schema.resolve("Query", "products", guarded(products));
    schema.resolve("Query", "product", guarded(row<product_actions>));
    schema.resolve("Query", "categories", guarded(categories));
    schema.resolve("Query", "category", guarded(row<category_actions>));
    schema.resolve("Category", "products", guarded(category_products));
    schema.resolve("Mutation", "addProduct", guarded(add_row<product_actions>));
    schema.resolve("Mutation", "updateProduct", guarded(update_row<product_actions>));
    schema.resolve("Mutation", "deleteProduct", guarded(delete_row<product_actions>));
    schema.resolve("Mutation", "addCategory", guarded(add_row<category_actions>));
    schema.resolve("Mutation", "updateCategory", guarded(update_row<category_actions>));
    schema.resolve("Mutation", "deleteCategory", guarded(delete_row<category_actions>));
}

}  // namespace storefront::server
