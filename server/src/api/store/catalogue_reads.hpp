#pragma once
// The /api/v1 answers of the catalogue's single-row reads (private to server_api_store): GET by id and by
// slug of products and categories run their aggregate's actions (catalogue_actions.hpp) the same way, through
// the shared item path (list_answer.hpp: store_lists::serve_item).

#include <cstdint>
#include <string>

#include "list_answer.hpp"
#include "server/api/store/catalogue_actions.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/store_params.hpp"

namespace storefront::server::catalogue_reads {

// GET /{id}?select= : one row, from the cached list when it is current; 404 naming an unknown id.
template <class Actions>
handler_result row_by_id(request_context& ctx, store_services& app) {
    const auto find = [](store_services& s, std::int64_t id) { return (s.catalogue().*Actions::find)(id); };
    const auto missing = [&ctx, &app](std::int64_t id) {
        return store_params::entity_missing(ctx, app, Actions::names.type, id);
    };
    return store_lists::serve_item(ctx, app, store_params::path_id, find, missing, &(app.*Actions::cached)());
}

// GET /slug/{slug}?select= : one row by its slug; 404 naming an unknown slug.
template <class Actions>
handler_result row_by_slug(request_context& ctx, store_services& app) {
    const auto find = [](store_services& s, const std::string& slug) {
        return (s.catalogue().*Actions::find_by_slug)(slug);
    };
    const auto missing = [&ctx, &app](const std::string& slug) {
        return store_params::entity_missing(ctx, app, Actions::names.type, slug);
    };
    return store_lists::serve_item(ctx, app, store_params::path_slug_key, find, missing);
}

}  // namespace storefront::server::catalogue_reads
