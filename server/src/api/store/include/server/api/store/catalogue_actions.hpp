#pragma once
// The catalogue's reads and writes, one set of actions per aggregate that /api/v1 (catalogue_writes.hpp,
// catalogue_reads.hpp) and GraphQL (catalogue_resolvers.cpp) both run: which store call finds a row and which
// cached list holds it, how a body is read, which store call writes it, how a refusal is named
// (catalogue_refusals.hpp) and which event announces it. The surfaces differ only in how they answer.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/system/error_code.hpp>

#include "core/catalogue_rules.hpp"
#include "server/api/store/catalogue_refusals.hpp"
#include "server/api/store/store_services.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::server {

// What an aggregate's rows are called where a missing id is named ("Product 7 not found"), and the events
// that announce its writes.
struct catalogue_names {
    std::string_view type;
    std::string_view created;
    std::string_view updated;
    std::string_view deleted;
};

// What a draft or a patch gives of a field, for naming a refusal (a patch without it: empty, 0).
[[nodiscard]] inline std::string_view given(const std::string& v) {
    return v;
}
[[nodiscard]] inline std::string_view given(const std::optional<std::string>& v) {
    return v ? std::string_view(*v) : std::string_view();
}
[[nodiscard]] inline std::int64_t given(std::int64_t v) {
    return v;
}
[[nodiscard]] inline std::int64_t given(const std::optional<std::int64_t>& v) {
    return v.value_or(0);
}

// The store calls writing one aggregate: `write` of a draft creates a row, of a patch updates row `id`;
// `remove` deletes row `id`.
template <auto Create, auto Update, auto Delete>
struct store_writes {
    template <class Draft>
    requires std::is_invocable_v<decltype(Create), storage::catalogue_store&, const Draft&>
    static auto write(storage::catalogue_store& s, std::int64_t, const Draft& d) {
        return std::invoke(Create, s, d);
    }
    template <class Patch>
    requires std::is_invocable_v<decltype(Update), storage::catalogue_store&, std::int64_t, const Patch&>
    static auto write(storage::catalogue_store& s, std::int64_t id, const Patch& p) {
        return std::invoke(Update, s, id, p);
    }
    static core::result<void> remove(storage::catalogue_store& s, std::int64_t id) {
        return std::invoke(Delete, s, id);
    }
};

// Each aggregate's actions: `write` of a draft creates a row, of a patch updates row `id`; `refused` names
// the refusal `ec` of a write of row `id` (0 for a create) with the body's fields, or of its delete.
struct product_actions : store_writes<
                             &storage::catalogue_store::create_product,
                             &storage::catalogue_store::update_product,
                             &storage::catalogue_store::delete_product> {
    static constexpr catalogue_names names{
        "Product", "product.created", "product.updated", "product.deleted"};
    static constexpr auto read_draft = &core::read_product_draft;
    static constexpr auto read_patch = &core::read_product_patch;
    static constexpr auto find = &storage::catalogue_store::find_product;
    static constexpr auto find_by_slug = &storage::catalogue_store::find_product_by_slug;
    static constexpr auto cached = &store_services::product_json;

    template <class Fields>
    static refusal refused(
        const storage::catalogue_store&, boost::system::error_code ec, std::int64_t id, const Fields& f
    ) {
        return product_refusal(ec, id, given(f.title), given(f.category_id));
    }
    static refusal refused(const storage::catalogue_store&, boost::system::error_code ec, std::int64_t id) {
        return product_refusal(ec, id, "", 0);
    }
};

// A refused delete counts the category's products in `s` (blocking: call where the store may be).
struct category_actions : store_writes<
                              &storage::catalogue_store::create_category,
                              &storage::catalogue_store::update_category,
                              &storage::catalogue_store::delete_category> {
    static constexpr catalogue_names names{
        "Category", "category.created", "category.updated", "category.deleted"};
    static constexpr auto read_draft = &core::read_category_draft;
    static constexpr auto read_patch = &core::read_category_patch;
    static constexpr auto find = &storage::catalogue_store::find_category;
    static constexpr auto find_by_slug = &storage::catalogue_store::find_category_by_slug;
    static constexpr auto cached = &store_services::category_json;

    template <class Fields>
    static refusal refused(
        const storage::catalogue_store& s, boost::system::error_code ec, std::int64_t id, const Fields& f
    ) {
        return category_refusal(s, ec, id, given(f.name));
    }
    static refusal refused(const storage::catalogue_store& s, boost::system::error_code ec, std::int64_t id) {
        return category_refusal(s, ec, id, "");
    }
};

// The event announcing a write of row `id` of `Actions` (0: a create).
template <class Actions>
[[nodiscard]] constexpr std::string_view written_event(std::int64_t id) {
    return id == 0 ? Actions::names.created : Actions::names.updated;
}

}  // namespace storefront::server
