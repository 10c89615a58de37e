#pragma once
// The catalogue's writes, one set of actions per aggregate that /api/v1 (catalogue_writes.hpp) and GraphQL
// (catalogue_resolvers.cpp) both run: how a body is read, which store call writes it, how a refusal is
// named (catalogue_refusals.hpp) and which event announces it. The surfaces differ only in how they
// answer.

#include <cstdint>
#include <string_view>

#include <boost/system/error_code.hpp>

#include "core/catalogue_rules.hpp"
#include "server/api/store/catalogue_refusals.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::server {

struct product_actions {
    static constexpr std::string_view type = "Product";  // as a missing id names it
    static constexpr std::string_view created = "product.created";
    static constexpr std::string_view updated = "product.updated";
    static constexpr std::string_view deleted = "product.deleted";
    static constexpr auto read_draft = &core::read_product_draft;
    static constexpr auto read_patch = &core::read_product_patch;

    static core::result<core::product> create(storage::catalogue_store& s, const core::product_draft& d) {
        return s.create_product(d);
    }
    static core::result<core::product> update(
        storage::catalogue_store& s, std::int64_t id, const core::product_patch& p
    ) {
        return s.update_product(id, p);
    }
    static core::result<void> remove(storage::catalogue_store& s, std::int64_t id) {
        return s.delete_product(id);
    }
    // The refusal `ec` of a create (id 0) with `d`, an update of `id` with `p`, a delete of `id`.
    static refusal refused(
        const storage::catalogue_store&,
        boost::system::error_code ec,
        std::int64_t id,
        const core::product_draft& d
    ) {
        return product_refusal(ec, id, d.title, d.category_id);
    }
    static refusal refused(
        const storage::catalogue_store&,
        boost::system::error_code ec,
        std::int64_t id,
        const core::product_patch& p
    ) {
        return product_refusal(ec, id, p.title.value_or(""), p.category_id.value_or(0));
    }
    static refusal refused(const storage::catalogue_store&, boost::system::error_code ec, std::int64_t id) {
        return product_refusal(ec, id, "", 0);
    }
};

struct category_actions {
    static constexpr std::string_view type = "Category";
    static constexpr std::string_view created = "category.created";
    static constexpr std::string_view updated = "category.updated";
    static constexpr std::string_view deleted = "category.deleted";
    static constexpr auto read_draft = &core::read_category_draft;
    static constexpr auto read_patch = &core::read_category_patch;

    static core::result<core::category> create(storage::catalogue_store& s, const core::category_draft& d) {
        return s.create_category(d);
    }
    static core::result<core::category> update(
        storage::catalogue_store& s, std::int64_t id, const core::category_patch& p
    ) {
        return s.update_category(id, p);
    }
    static core::result<void> remove(storage::catalogue_store& s, std::int64_t id) {
        return s.delete_category(id);
    }
    // A refused delete counts the category's products in `s` (blocking: call where the store may be).
    static refusal refused(
        const storage::catalogue_store& s,
        boost::system::error_code ec,
        std::int64_t id,
        const core::category_draft& d
    ) {
        return category_refusal(s, ec, id, d.name);
    }
    static refusal refused(
        const storage::catalogue_store& s,
        boost::system::error_code ec,
        std::int64_t id,
        const core::category_patch& p
    ) {
        return category_refusal(s, ec, id, p.name.value_or(""));
    }
    static refusal refused(const storage::catalogue_store& s, boost::system::error_code ec, std::int64_t id) {
        return category_refusal(s, ec, id, "");
    }
};

}  // namespace storefront::server
