#pragma once
// What the GraphQL surface's handlers use: the engine (shared by every view) and the store services of the
// view the request runs in, whose core rules and stores the resolvers call, as the REST handlers do.

#include "server/api/graphql/graph_engine.hpp"
#include "server/api/store/store_services.hpp"
#include "server/caches/answer_cache.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server {

struct graphql_services {
    const graph_engine& engine;
    store_services& store;
    answer_cache& answers;  // the view's store set's: sandboxes that never wrote share the seed's
    // GET /graphql asked for text/html: the GraphiQL page (the docs surface's; surfaces do not include
    // each other, so the composition hands it over).
    response (*html_page)(const request_context&) = nullptr;
};

}  // namespace storefront::server
