// Category handlers: the list (whole or paged, from prebuilt JSON) and a category's products through the
// shared list path, by id and slug, and create/update/delete. Status codes for domain outcomes come from
// error_response.

#include <string>
#include <vector>

#include "core/catalogue_rules.hpp"
#include "core/pagination.hpp"
#include "core/slug.hpp"
#include "core/write_policy.hpp"
#include "list_answer.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/routing/error_responses.hpp"
#include "store_params.hpp"

namespace storefront::server {

namespace {

using namespace store_params;

// The answer to a refused category write, with the text that names what went wrong.
handler_result category_write_error(
    const request_context& ctx,
    boost::system::error_code ec,
    std::int64_t id,
    std::string_view name,
    store_services& app
) {
    switch (static_cast<core::errc>(ec.value())) {
        case core::errc::not_found:
            co_return entity_missing(ctx, app, "Category", id);
        case core::errc::seed_read_only:
            co_return error_response(ec, core::seed_category_message);
        case core::errc::conflict:
            co_return error_response(
                ec, "A category with slug \"" + core::make_slug(name) + "\" already exists"
            );
        case core::errc::in_use: {
            core::product_filter of_category;
            of_category.category_id = id;
            const std::size_t count =
                co_await app.storage([&] { return app.catalogue().count_products(of_category); });
            co_return error_response(ec, core::category_in_use_message(id, count));
        }
        default:
            co_return error_response(ec);
    }
}

}  // namespace

// GET /categories?offset=&limit=&sortBy=&order=&q=&select= : every category, or one page when offset or
// limit is given
handler_result handle_get_categories(request_context& ctx, store_services& app) {
    store_lists::category_list source;
    co_return co_await store_lists::serve_list(ctx, app, source);
}

// GET /categories/{id}?select= : one category
handler_result handle_get_category(request_context& ctx, store_services& app) {
    const auto find = [](store_services& s, std::int64_t id) { return s.catalogue().find_category(id); };
    const auto missing = [&ctx, &app](std::int64_t id) { return entity_missing(ctx, app, "Category", id); };
    return store_lists::serve_item(ctx, app, path_id, find, missing, &app.category_json());
}

// GET /categories/slug/{slug}?select= : one category by its slug
handler_result handle_get_category_by_slug(request_context& ctx, store_services& app) {
    const auto find = [](store_services& s, const std::string& slug) {
        return s.catalogue().find_category_by_slug(slug);
    };
    const auto missing = [&ctx, &app](const std::string& slug) {
        return entity_missing(ctx, app, "Category", slug);
    };
    return store_lists::serve_item(ctx, app, path_slug_key, find, missing);
}

// GET /categories/{id}/products?offset=&limit=&sortBy=&order=&q=&select= : one page of the category's
// products
handler_result handle_get_category_products(request_context& ctx, store_services& app) {
    const auto id = path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    store_lists::product_list source;
    source.filter.category_id = *id;
    source.parent_category = *id;
    source.missing_parent = [&ctx, &app, id = *id] { return entity_missing(ctx, app, "Category", id); };
    co_return co_await store_lists::serve_list(ctx, app, source);
}

// POST /categories {name, image} : 201 the new category
handler_result handle_post_category(request_context& ctx, store_services& app) {
    const auto draft = validated_body(ctx, core::read_category_draft);
    if (!draft) {
        co_return draft.error();
    }
    const auto created =
        co_await app.catalogue_write([&] { return app.catalogue().create_category(*draft); });
    if (!created) {
        co_return co_await category_write_error(ctx, created.error(), 0, draft->name, app);
    }
    std::string json = to_json(*created, app.public_url());
    co_await app.publish("category.created", json);
    co_return json_response(http::status::created, std::move(json));
}

// PUT /categories/{id} {name?, image?} : the updated category (a new name gives a new slug)
handler_result handle_put_category(request_context& ctx, store_services& app) {
    const auto id = path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    const auto patch = validated_body(ctx, core::read_category_patch);
    if (!patch) {
        co_return patch.error();
    }
    const auto updated =
        co_await app.catalogue_write([&] { return app.catalogue().update_category(*id, *patch); });
    if (!updated) {
        co_return co_await category_write_error(ctx, updated.error(), *id, patch->name.value_or(""), app);
    }
    std::string json = to_json(*updated, app.public_url());
    co_await app.publish("category.updated", json);
    co_return json_response(http::status::ok, std::move(json));
}

// DELETE /categories/{id} : true; 409 while products still belong to it
handler_result handle_delete_category(request_context& ctx, store_services& app) {
    const auto id = path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    if (const auto removed =
            co_await app.catalogue_write([&] { return app.catalogue().delete_category(*id); });
        !removed) {
        co_return co_await category_write_error(ctx, removed.error(), *id, "", app);
    }
    co_await app.publish_deleted("category.deleted", *id);
    co_return deleted();
}

}  // namespace storefront::server
