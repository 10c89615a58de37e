// The catalogue's refused writes, named once (catalogue_refusals.hpp).

#include "server/api/store/catalogue_refusals.hpp"

#include <cctype>

#include "core/catalogue_rules.hpp"
#include "core/errc.hpp"
#include "core/slug.hpp"
#include "core/write_policy.hpp"

namespace storefront::server {

namespace {

// "A product with slug ..." for a row of `type` ("Product").
std::string slug_taken(std::string_view type, std::string_view title) {
    std::string kind(type);
    kind.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(kind.front())));
    return "A " + kind + " with slug \"" + core::make_slug(title) + "\" already exists";
}

// The refusals every catalogue row meets alike: row `id` of `type` ("Product") not found, a seed row (its
// `seed_message`), a slug taken by another row of its kind ("A product with slug ..."), else the default
// text.
refusal row_refusal(
    boost::system::error_code ec,
    std::string_view type,
    std::int64_t id,
    std::string_view seed_message,
    std::string_view title
) {
    if (ec == core::errc::not_found) {
        return {ec, missing_text(type, id)};
    }
    if (ec == core::errc::seed_read_only) {
        return {ec, std::string(seed_message)};
    }
    if (ec == core::errc::conflict) {
        return {ec, slug_taken(type, title)};
    }
    return {ec, {}};
}

}  // namespace

std::string missing_text(std::string_view type, std::int64_t id) {
    return std::string(type) + " " + std::to_string(id) + " not found";
}

refusal product_refusal(
    boost::system::error_code ec, std::int64_t id, std::string_view title, std::int64_t category_id
) {
    if (ec == core::errc::invalid_reference) {
        return {ec, missing_text("Category", category_id)};
    }
    return row_refusal(ec, "Product", id, core::seed_product_message, title);
}

refusal category_refusal(
    const storage::catalogue_store& catalogue,
    boost::system::error_code ec,
    std::int64_t id,
    std::string_view name
) {
    if (ec == core::errc::in_use) {
        core::product_filter of_category;
        of_category.category_id = id;
        return {ec, core::category_in_use_message(id, catalogue.count_products(of_category))};
    }
    return row_refusal(ec, "Category", id, core::seed_category_message, name);
}

}  // namespace storefront::server
