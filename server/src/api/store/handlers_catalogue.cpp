// Catalogue handlers: products pages and the category list, served from prebuilt JSON fragments.

#include "core/pagination.hpp"
#include "server/api/store/handlers.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

// GET /products?offset=&limit= : one page of products in id order
handler_result handle_get_products(request_context& ctx, app_services& app) {
    const auto page = core::parse_page(ctx.query);
    if (!page) {
        co_return validation_failed(page.error());
    }
    co_return shared_json_response(app.product_json().page(*page));
}

// GET /categories : every category in id order
handler_result handle_get_categories(request_context&, app_services& app) {
    co_return shared_json_response(app.category_json().all());
}

}  // namespace storefront::server
