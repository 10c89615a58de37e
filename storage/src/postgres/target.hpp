#pragma once
// Where a PostgreSQL store lives: the database (a libpq connection string) and the schema inside it (empty:
// the connection's own search_path, the shared view; a sandbox has a schema of its own). Pools, listeners
// and NOTIFY channels are per target, so one sandbox's writes never reach another's caches.

#include <cstddef>
#include <string>
#include <string_view>

namespace storefront::storage {

struct pg_target {
    std::string dsn;
    std::string schema;
};

namespace detail {

// The aggregates that notify their writes, each on the channel pg_channel(schema, name).
inline constexpr const char* notified_aggregates[] = {
    "catalogue", "users", "files", "pets", "orders", "pet_users", "pet_images"};

// The NOTIFY channel of aggregate `name` in `schema`: "storefront_<name>" for the shared view,
// "storefront_<schema>_<name>" otherwise, cut to 63 bytes (PostgreSQL's identifier limit; a cut name that
// two schemas share only costs a spurious cache refresh).
[[nodiscard]] inline std::string pg_channel(std::string_view schema, std::string_view name) {
    constexpr std::size_t max_identifier = 63;
    std::string channel = "storefront_";
    if (!schema.empty()) {
        channel.append(schema).append("_");
    }
    channel.append(name);
    if (channel.size() > max_identifier) {
        channel.resize(max_identifier);
    }
    return channel;
}

}  // namespace detail
}  // namespace storefront::storage
