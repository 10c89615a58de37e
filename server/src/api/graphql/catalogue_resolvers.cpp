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

resolved product(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = id_argument(info);
    if (!id) {
        return bad_id();
    }
    if (auto cached = cached_value(call.app, call.app.product_json(), *id)) {
        return resolved::ok(std::move(*cached));
    }
    const auto found = call.app.catalogue().find_product(*id);
    return found ? resolved::ok(graph_value(*found, call.app)) : missing("Product", *id);
}

resolved categories(const resolve_info& info) {
    return resolved::ok(cached_values(call_of(info).app.category_json(), core::every_item));
}

resolved category(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = id_argument(info);
    if (!id) {
        return bad_id();
    }
    if (auto cached = cached_value(call.app, call.app.category_json(), *id)) {
        return resolved::ok(std::move(*cached));
    }
    const auto found = call.app.catalogue().find_category(*id);
    return found ? resolved::ok(graph_value(*found, call.app)) : missing("Category", *id);
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

// The input object `input` read by `rule` (one of core's read_* rules) and written by `write` (giving the
// row): the row, published as `event`, or the refusal `name` (fields, errc) gives.
template <class Rule, class Write, class Name>
resolved written(
    graph_call& call,
    const boost::json::value& input,
    Rule rule,
    Write write,
    Name name,
    std::string_view event
) {
    const auto fields = rule(input_of(input));
    if (!fields) {
        return invalid_input(fields.error());
    }
    const auto row = write(*fields);
    if (!row) {
        return refused(name(*fields, row.error()));
    }
    call.app.publish_here(event, to_json(*row, call.app.public_url()));
    return resolved::ok(graph_value(*row, call.app));
}

// `done`, the delete of row `id`: true, published as `event`, or the refusal `name` (errc) gives.
template <class Name>
resolved removed(
    graph_call& call, std::int64_t id, const core::result<void>& done, Name name, std::string_view event
) {
    if (!done) {
        return refused(name(done.error()));
    }
    call.app.publish_here(event, "{\"id\":" + std::to_string(id) + "}");
    return resolved::ok(true);
}

resolved add_product(const resolve_info& info) {
    auto& call = call_of(info);
    if (auto no = may_write(call)) {
        return std::move(*no);
    }
    return written(
        call,
        info.arguments.at("data"),
        core::read_product_draft,
        [&](const core::product_draft& draft) { return call.app.catalogue().create_product(draft); },
        [](const core::product_draft& draft, boost::system::error_code ec) {
            return product_refusal(ec, 0, draft.title, draft.category_id);
        },
        "product.created"
    );
}

resolved update_product(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = write_target(info);
    if (!id) {
        return id.error();
    }
    return written(
        call,
        info.arguments.at("changes"),
        core::read_product_patch,
        [&](const core::product_patch& patch) { return call.app.catalogue().update_product(*id, patch); },
        [&](const core::product_patch& patch, boost::system::error_code ec) {
            return product_refusal(ec, *id, patch.title.value_or(""), patch.category_id.value_or(0));
        },
        "product.updated"
    );
}

resolved delete_product(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = write_target(info);
    if (!id) {
        return id.error();
    }
    return removed(
        call,
        *id,
        call.app.catalogue().delete_product(*id),
        [&](boost::system::error_code ec) { return product_refusal(ec, *id, "", 0); },
        "product.deleted"
    );
}

resolved add_category(const resolve_info& info) {
    auto& call = call_of(info);
    if (auto no = may_write(call)) {
        return std::move(*no);
    }
    return written(
        call,
        info.arguments.at("data"),
        core::read_category_draft,
        [&](const core::category_draft& draft) { return call.app.catalogue().create_category(draft); },
        [&](const core::category_draft& draft, boost::system::error_code ec) {
            return category_refusal(call.app.catalogue(), ec, 0, draft.name);
        },
        "category.created"
    );
}

resolved update_category(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = write_target(info);
    if (!id) {
        return id.error();
    }
    return written(
        call,
        info.arguments.at("changes"),
        core::read_category_patch,
        [&](const core::category_patch& patch) { return call.app.catalogue().update_category(*id, patch); },
        [&](const core::category_patch& patch, boost::system::error_code ec) {
            return category_refusal(call.app.catalogue(), ec, *id, patch.name.value_or(""));
        },
        "category.updated"
    );
}

resolved delete_category(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = write_target(info);
    if (!id) {
        return id.error();
    }
    return removed(
        call,
        *id,
        call.app.catalogue().delete_category(*id),
        [&](boost::system::error_code ec) { return category_refusal(call.app.catalogue(), ec, *id, ""); },
        "category.deleted"
    );
}

}  // namespace

void add_catalogue_resolvers(graphql::schema& schema) {
    schema.resolve("Query", "products", guarded(products));
    schema.resolve("Query", "product", guarded(product));
    schema.resolve("Query", "categories", guarded(categories));
    schema.resolve("Query", "category", guarded(category));
    schema.resolve("Category", "products", guarded(category_products));
    schema.resolve("Mutation", "addProduct", guarded(add_product));
    schema.resolve("Mutation", "updateProduct", guarded(update_product));
    schema.resolve("Mutation", "deleteProduct", guarded(delete_product));
    schema.resolve("Mutation", "addCategory", guarded(add_category));
    schema.resolve("Mutation", "updateCategory", guarded(update_category));
    schema.resolve("Mutation", "deleteCategory", guarded(delete_category));
}

}  // namespace storefront::server
