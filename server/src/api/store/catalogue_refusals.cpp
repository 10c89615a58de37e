// The catalogue's refused writes, named once (catalogue_refusals.hpp).

#include "server/api/store/catalogue_refusals.hpp"

#include "core/catalogue_rules.hpp"
#include "core/errc.hpp"
#include "core/slug.hpp"
#include "core/write_policy.hpp"

namespace storefront::server {

namespace {

std::string slug_taken(std::string_view kind, std::string_view title) {
    return "A " + std::string(kind) + " with slug \"" + core::make_slug(title) + "\" already exists";
}

}  // namespace

std::string missing_text(std::string_view type, std::int64_t id) {
    return std::string(type) + " " + std::to_string(id) + " not found";
}

refusal product_refusal(
    boost::system::error_code ec, std::int64_t id, std::string_view title, std::int64_t category_id
) {
    switch (static_cast<core::errc>(ec.value())) {
        case core::errc::not_found:
            return {ec, missing_text("Product", id)};
        case core::errc::seed_read_only:
            return {ec, std::string(core::seed_product_message)};
        case core::errc::invalid_reference:
            return {ec, missing_text("Category", category_id)};
        case core::errc::conflict:
            return {ec, slug_taken("product", title)};
        default:
            return {ec, {}};
    }
}

refusal category_refusal(
    const storage::catalogue_store& catalogue,
    boost::system::error_code ec,
    std::int64_t id,
    std::string_view name
) {
    switch (static_cast<core::errc>(ec.value())) {
        case core::errc::not_found:
            return {ec, missing_text("Category", id)};
        case core::errc::seed_read_only:
            return {ec, std::string(core::seed_category_message)};
        case core::errc::conflict:
            return {ec, slug_taken("category", name)};
        case core::errc::in_use: {
            core::product_filter of_category;
            of_category.category_id = id;
            return {ec, core::category_in_use_message(id, catalogue.count_products(of_category))};
        }
        default:
            return {ec, {}};
    }
}

}  // namespace storefront::server
