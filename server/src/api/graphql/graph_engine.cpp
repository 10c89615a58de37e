// The store schema parsed once from its SDL, with the resolvers of each aggregate attached.

#include "server/api/graphql/graph_engine.hpp"

#include "resolvers.hpp"
#include "store_schema.hpp"

namespace storefront::server {

namespace {

graphql::schema store_schema() {
    auto schema = graphql::schema::from_sdl(store_schema_sdl);
    add_catalogue_resolvers(schema);
    add_account_resolvers(schema);
    add_shop_resolvers(schema);
    return schema;
}

}  // namespace

graph_engine::graph_engine(const graphql::limits& limits, std::size_t cached_documents)
    : limits_(limits), schema_(store_schema()), documents_(cached_documents) {}

}  // namespace storefront::server
