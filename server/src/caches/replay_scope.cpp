// replay_scope: the rows a replayed answer reads, from its route's pattern and its target; and whether a
// changed row touches them.

#include "server/caches/replay_scope.hpp"

#include <charconv>

namespace storefront::server {

namespace {

constexpr std::string_view api_prefix = "/api/v1/";
constexpr std::uint8_t every_table = table_bit(core::row_table::products) |
                                     table_bit(core::row_table::categories) |
                                     table_bit(core::row_table::users);
constexpr std::uint8_t catalogue_tables =
    table_bit(core::row_table::products) | table_bit(core::row_table::categories);

// The id in the last path segment of `target` (before any query), or nullopt.
std::optional<std::int64_t> last_segment_id(std::string_view target) {
    target = target.substr(0, target.find_first_of("?#"));
    const std::string_view segment = target.substr(target.rfind('/') + 1);
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), id);
    if (ec != std::errc{} || end != segment.data() + segment.size() || segment.empty()) {
        return std::nullopt;
    }
    return id;
}

}  // namespace

replay_scope scope_of(std::string_view pattern, std::string_view target) {
    replay_scope scope{.tables = every_table};
    if (!pattern.starts_with(api_prefix)) {
        return scope;
    }
    const std::string_view rest = pattern.substr(api_prefix.size());
    const std::string_view collection = rest.substr(0, rest.find('/'));
    const bool item_by_id = rest.size() > collection.size() && rest.substr(collection.size()) == "/{id}";
    core::row_table table = core::row_table::products;
    if (collection == "users") {
        table = core::row_table::users;
        scope.tables = table_bit(table);
    } else if (collection == "categories" && !rest.ends_with("/products")) {
        table = core::row_table::categories;
        scope.tables = table_bit(table);
    } else if (collection == "categories" || collection == "products") {
        scope.tables = catalogue_tables;
    } else {
        return scope;
    }
    if (item_by_id) {
        scope.item = last_segment_id(target);
        scope.item_table = table;
    }
    return scope;
}

bool touches(const replay_scope& scope, const core::row_change& change) {
    if ((scope.tables & table_bit(change.table)) == 0) {
        return false;
    }
    return !scope.item || change.table != scope.item_table || change.id == *scope.item;
}

}  // namespace storefront::server
