// Product handlers: filtered pages (unfiltered ones from prebuilt JSON) and related products, by id and slug,
// through the shared list path (single rows: catalogue_reads.hpp, catalogue_writes.hpp, routed from
// routes.cpp).

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalogue_rules.hpp"
#include "core/pagination.hpp"
#include "core/write_policy.hpp"
#include "list_answer.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/api/store/store_params.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

using namespace store_params;

// The related products of one product, answered whole unless offset or limit is given; `fetch` finds them
// (or answers 404 for an unknown product).
struct related_list {
    static constexpr core::list_kind kind = core::list_kind::products;
    static constexpr bool whole_by_default = true;
    std::function<boost::asio::awaitable<or_response<std::vector<core::product>>>()> fetch;

    boost::asio::awaitable<or_response<std::vector<core::product>>> everything(store_services&) {
        co_return co_await fetch();
    }
};

}  // namespace

// GET
// /products?offset=&limit=&title=&price=&price_min=&price_max=&categoryId=&categorySlug=&sortBy=&order=&q=
// &select= : one page
handler_result handle_get_products(request_context& ctx, store_services& app) {
    store_lists::product_list source;
    core::validation_errors problems;
    if (auto filter = core::parse_product_filter(ctx.query)) {
        source.filter = std::move(*filter);
    } else {
        problems = filter.error();
    }
    co_return co_await store_lists::serve_list(ctx, app, source, std::move(problems));
}

// GET /products/{id}/related?offset=&limit=&sortBy=&order=&q=&select= : every other product of its
// category, in id order (a page when offset or limit is given)
handler_result handle_get_related_products(request_context& ctx, store_services& app) {
    const auto id = path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    related_list source{[&]() -> boost::asio::awaitable<or_response<std::vector<core::product>>> {
        auto related = co_await app.storage([&] { return app.catalogue().related_products(*id); });
        if (!related) {
            co_return entity_missing(ctx, app, "Product", *id);
        }
        co_return std::move(*related);
    }};
    co_return co_await store_lists::serve_list(ctx, app, source);
}

// GET /products/slug/{slug}/related?… : the same, for the product with that slug
handler_result handle_get_related_products_by_slug(request_context& ctx, store_services& app) {
    const std::string slug = path_slug(ctx);
    related_list source{[&]() -> boost::asio::awaitable<or_response<std::vector<core::product>>> {
        const auto product = co_await app.storage([&] { return app.catalogue().find_product_by_slug(slug); });
        if (!product) {
            co_return entity_missing(ctx, app, "Product", slug);
        }
        auto related = co_await app.storage([&] { return app.catalogue().related_products(product->id); });
        if (!related) {
            co_return entity_missing(ctx, app, "Product", slug);  // deleted in between
        }
        co_return std::move(*related);
    }};
    co_return co_await store_lists::serve_list(ctx, app, source);
}

}  // namespace storefront::server
