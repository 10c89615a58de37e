// product_changes, category_changes, user_changes: the journal's changed ids of one table, their rows read
// again (products in one read; gone rows are deletions) and serialised as the full list would.

#include "server/caches/list_changes.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

namespace storefront::server {

namespace {

// The ids of `table` among `rows`, in id order, once each.
std::vector<std::int64_t> ids_of(const core::row_changes& changes, core::row_table table) {
    std::vector<std::int64_t> ids;
    for (const auto& row : changes.rows) {
        if (row.table == table) {
            ids.push_back(row.id);
        }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

// Changes made of `written` (id -> JSON of every changed row that exists) and every changed id.
serialised_changes changes_of(
    std::uint64_t revision, std::vector<std::int64_t> changed, std::map<std::int64_t, std::string> written
) {
    serialised_changes out;
    out.revision = revision;
    out.changed = std::move(changed);
    out.present.ids.reserve(written.size());
    out.present.json.reserve(written.size());
    for (auto& [id, json] : written) {
        out.present.ids.push_back(id);
        out.present.json.push_back(std::move(json));
    }
    return out;
}

// Every row of `table` changed since `since`, read again by `find` (a result: an error means the row is
// gone); nullopt when the store cannot tell what changed.
template <class Store, class Find, class Write>
std::optional<serialised_changes> reread_since(
    const Store& store, std::uint64_t since, core::row_table table, Find find, const Write& write
) {
    const auto changes = store.changes_since(since);
    if (!changes) {
        return std::nullopt;
    }
    auto ids = ids_of(*changes, table);
    std::map<std::int64_t, std::string> written;
    for (const auto id : ids) {
        if (const auto row = find(id)) {
            written.emplace(id, write(*row));
        }
    }
    return changes_of(changes->revision, std::move(ids), std::move(written));
}

}  // namespace

std::optional<serialised_changes> product_changes(
    const storage::catalogue_store& store,
    std::uint64_t since,
    const std::function<std::string(const core::product&)>& write
) {
    const auto changes = store.changes_since(since);
    if (!changes) {
        return std::nullopt;
    }
    auto ids = ids_of(*changes, core::row_table::products);
    std::map<std::int64_t, std::string> written;
    // A category's new name or image is embedded in each of its products: one read lists them. (A product
    // that left the category is named by the journal itself.)
    for (const auto category : ids_of(*changes, core::row_table::categories)) {
        core::product_filter of_category;
        of_category.category_id = category;
        const core::page_request every{0, std::numeric_limits<std::size_t>::max() / 2};
        for (const auto& p : store.list_products(of_category, every)) {
            ids.push_back(p.id);
            written.emplace(p.id, write(p));
        }
    }
    std::vector<std::int64_t> unread;
    for (const auto id : ids) {
        if (!written.contains(id)) {
            unread.push_back(id);
        }
    }
    if (!unread.empty()) {
        for (const auto& p : store.find_products(unread)) {  // one read for a whole batch of writes
            written.emplace(p.id, write(p));
        }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return changes_of(changes->revision, std::move(ids), std::move(written));
}

std::optional<serialised_changes> category_changes(
    const storage::catalogue_store& store,
    std::uint64_t since,
    const std::function<std::string(const core::category&)>& write
) {
    const auto find = [&store](std::int64_t id) { return store.find_category(id); };
    return reread_since(store, since, core::row_table::categories, find, write);
}

std::optional<serialised_changes> user_changes(
    const storage::user_store& store,
    std::uint64_t since,
    const std::function<std::string(const core::user&)>& write
) {
    const auto find = [&store](std::int64_t id) { return store.find_user(id); };
    return reread_since(store, since, core::row_table::users, find, write);
}

}  // namespace storefront::server
