// Category handlers: the list (whole or paged, from prebuilt JSON) and a category's products through the
// shared list path (single rows: catalogue_reads.hpp, catalogue_writes.hpp, routed from routes.cpp).

#include <string>
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

}  // namespace

// GET /categories?offset=&limit=&sortBy=&order=&q=&select= : every category, or one page when offset or
// limit is given
handler_result handle_get_categories(request_context& ctx, store_services& app) {
    store_lists::category_list source;
    co_return co_await store_lists::serve_list(ctx, app, source);
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

}  // namespace storefront::server
