#pragma once
// The GraphQL schema of the public store service with storefront's resolvers, the cache of prepared
// documents and the limits: built once by the composition root and shared by every view (the resolvers
// find the view's services in each call's context, graph_call.hpp).

#include <cstddef>
#include <string_view>

#include "graphql/document_cache.hpp"
#include "graphql/executor.hpp"
#include "graphql/schema.hpp"

namespace storefront::server {

class graph_engine {
  public:
    // `limits`: --graphql-max-depth and --graphql-max-fields; `cached_documents` prepared documents kept.
    graph_engine(const graphql::limits& limits, std::size_t cached_documents);
    graph_engine(const graph_engine&) = delete;
    graph_engine& operator=(const graph_engine&) = delete;

    [[nodiscard]] const graphql::schema& schema() const { return schema_; }
    [[nodiscard]] const graphql::limits& limits() const { return limits_; }
    // `query` parsed and validated, from the cache when it was seen before.
    [[nodiscard]] graphql::preparation prepare(std::string_view query) const {
        return documents_.prepare(schema_, query, limits_);
    }
    // GET /graphql/schema.graphql: the schema as SDL.
    [[nodiscard]] const std::string& sdl() const { return schema_.sdl(); }

  private:
    graphql::limits limits_;
    graphql::schema schema_;
    mutable graphql::document_cache documents_;
};

}  // namespace storefront::server
