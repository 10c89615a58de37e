// The GraphQL handlers: parameters -> prepared document (cached) -> the chosen operation -> for a mutation,
// the view to write in (the sandbox's own, with the quota of each field's REST operation) -> execution
// where blocking is allowed -> the answer in the media type and status GraphQL over HTTP asks for.

#include "handlers_graphql.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include <boost/json/serialize.hpp>

#include "graph_call.hpp"
#include "graph_http.hpp"
#include "graphql/document.hpp"
#include "graphql/executor.hpp"
#include "server/api/store/routes.hpp"
#include "server/codec/cookies.hpp"
#include "server/routing/write_gate.hpp"

namespace storefront::server {

namespace {

// The /api/v1 route whose operation the mutation `field` performs (its row says `graphql_mutation`; its write
// policy and sandbox row quota apply); nullptr for the fields that only check credentials.
const route* rest_route_of(std::string_view field) {
    for (const route& r : store_routes().routes) {
        if (!r.graphql_mutation.empty() && r.graphql_mutation == field) {
            return &r;
        }
    }
    return nullptr;
}

// The root field names `selections` select, fragments expanded (validation has ruled out cycles), whatever
// @skip/@include say: the operation may write with any of them.
void collect_root_fields(
    const graphql::document& doc,
    const std::vector<graphql::selection>& selections,
    std::vector<std::string>& out
) {
    for (const auto& s : selections) {
        switch (s.what) {
            case graphql::selection::kind::field:
                out.push_back(s.name);
                break;
            case graphql::selection::kind::inline_fragment:
                collect_root_fields(doc, s.selections, out);
                break;
            case graphql::selection::kind::fragment_spread:
                for (const auto& fragment : doc.fragments) {
                    if (fragment.name == s.name) {
                        collect_root_fields(doc, fragment.selections, out);
                    }
                }
                break;
        }
    }
}

std::vector<std::string> root_fields(
    const graphql::prepared_document& prepared, std::string_view operation_name
) {
    std::vector<std::string> out;
    graphql::error ignored;
    if (const auto* operation = prepared.find_operation(operation_name, ignored)) {
        collect_root_fields(prepared.ast(), operation->selections, out);
    }
    return out;
}

// Fields that spend Argon2id time: the operation runs on the password worker's threads.
bool uses_passwords(const std::vector<std::string>& fields) {
    return std::any_of(fields.begin(), fields.end(), [](const std::string& f) {
        return f == "login" || f == "addUser" || f == "updateUser";
    });
}

response graph_answer(http::status status, std::string body, graph_media media) {
    response r = json_response(status, std::move(body));
    r.content_type = std::string(content_type_of(media));
    return r;
}

// Errors that stop a request before execution (parse, validation, operation choice, variables): 400 for
// application/graphql-response+json; 200 for application/json, whose clients read errors from the body.
http::status request_error_status(graph_media media) {
    return media == graph_media::graphql_response_json ? http::status::bad_request : http::status::ok;
}

std::string errors_body(const std::vector<graphql::error>& errors) {
    graphql::execution failed;
    failed.errors = errors;
    return graphql::to_response_json(failed);
}

// What identifies a request's answer in the answer cache.
std::string answer_key(const graph_params& params) {
    std::string key = params.query;
    key.append(1, '\x1f').append(params.operation_name).append(1, '\x1f');
    key.append(boost::json::serialize(params.variables));
    return key;
}

store_revisions revisions_of(const store_services& store) {
    return {store.catalogue().revision(), store.users().revision()};
}

response cached_answer(std::shared_ptr<const prepared_body> answer, graph_media media) {
    response r = shared_json_response(std::move(answer));
    r.content_type = std::string(content_type_of(media));
    return r;
}

boost::asio::awaitable<response> run_operation(
    request_context& ctx, graphql_services& app, const graph_params& params, graph_media media, bool via_get
) {
    // Queries whose answer depends on the stores alone were kept with the revisions they were computed at,
    // read before the stores are (caches/data_revision.hpp).
    const std::string key = answer_key(params);
    const store_revisions before = revisions_of(app.store);
    if (auto answer = app.answers.find(key, before)) {
        co_return cached_answer(std::move(answer), media);
    }
    const auto prepared = app.engine.prepare(params.query);
    if (!prepared.document) {
        co_return graph_answer(request_error_status(media), errors_body(prepared.errors), media);
    }
    const auto chosen = graphql::choose_operation(*prepared.document, params.operation_name);
    if (!chosen.kind) {
        co_return graph_answer(request_error_status(media), errors_body({*chosen.failure}), media);
    }
    if (*chosen.kind != graphql::operation_kind::query && via_get) {
        response r = http_error(http::status::method_not_allowed, "Mutations are sent with POST");
        r.with_header("Allow", "POST");
        co_return r;
    }
    const auto fields = root_fields(*prepared.document, params.operation_name);
    // A mutation in a sandbox may move the request to the sandbox's own view; the view `app` belongs to may
    // then be gone, so everything from here on goes through `services`.
    graphql_services* services = &app;
    if (*chosen.kind == graphql::operation_kind::mutation && ctx.writes != nullptr) {
        for (const auto& field : fields) {
            const route* writer = rest_route_of(field);
            if (writer == nullptr) {
                continue;
            }
            auto view = co_await ctx.writes->open_for_write(*writer);
            if (!view) {
                co_return std::move(view).error();
            }
            services = static_cast<graphql_services*>(*view);
        }
    }
    store_services* store = &services->store;
    graph_call call{
        *store, access_token_of(ctx.request).token, std::nullopt, false, ctx.client, std::nullopt};
    const auto& engine = services->engine;
    const auto execute = [&] {
        return graphql::execute(
            engine.schema(),
            *prepared.document,
            params.operation_name,
            params.variables,
            &call,
            engine.limits()
        );
    };
    graphql::execution result;
    if (uses_passwords(fields)) {
        auto done = co_await store->passwords().run(execute);
        if (!done) {
            response busy = http_error(http::status::service_unavailable, "Server busy, retry later");
            busy.with_header("Retry-After", "1");
            co_return busy;
        }
        result = std::move(*done);
    } else {
        result = co_await store->storage(execute);
    }
    auto status = result.variables_failed ? request_error_status(media) : http::status::ok;
    if (call.storage_trouble) {
        status = http::status::service_unavailable;
    } else if (call.braked_retry_after) {
        status = http::status::too_many_requests;
    }
    // Answers that depend on the caller (their profile, cart or orders) are never kept for others.
    const bool keep = *chosen.kind == graphql::operation_kind::query && status == http::status::ok &&
                      std::none_of(fields.begin(), fields.end(), [](const std::string& f) {
                          return f == "myProfile" || f == "cart" || f == "orders" || f == "order";
                      });
    if (keep) {
        auto answer = std::make_shared<const prepared_body>(graphql::to_response_json(result));
        services->answers.keep(key, before, answer);
        co_return cached_answer(std::move(answer), media);
    }
    response r = graph_answer(status, graphql::to_response_json(result), media);
    if (call.storage_trouble) {
        r.with_header("Retry-After", "2");  // as REST's "Storage unavailable"
    }
    if (call.braked_retry_after && !call.storage_trouble) {
        r.with_header("Retry-After", std::to_string(*call.braked_retry_after));
    }
    if (std::find(fields.begin(), fields.end(), "login") != fields.end() ||
        std::find(fields.begin(), fields.end(), "refreshToken") != fields.end()) {
        r.with_header("Cache-Control", "no-store").with_header("Pragma", "no-cache");  // tokens (RFC 6749)
    }
    r.deterministic = call.access_token.empty();  // myProfile and writes depend on who asks
    co_return r;
}

response not_acceptable() {
    return http_error(
        http::status::not_acceptable, "Accept application/graphql-response+json or application/json"
    );
}

}  // namespace

// GET /graphql?query=&operationName=&variables=&extensions= : a query (a mutation: 405 Allow: POST);
// with Accept: text/html and no query, the GraphiQL page
handler_result handle_get_graphql(request_context& ctx, graphql_services& app) {
    const auto media = answer_media(ctx.request[http::field::accept], app.html_page != nullptr);
    if (!media) {
        co_return not_acceptable();
    }
    if (*media == graph_media::html) {
        co_return app.html_page(ctx);
    }
    auto params = get_params(ctx);
    if (!params) {
        co_return std::move(params).error();
    }
    co_return co_await run_operation(ctx, app, *params, *media, true);
}

// POST /graphql {query, operationName, variables, extensions} : any operation
handler_result handle_post_graphql(request_context& ctx, graphql_services& app) {
    const auto media = answer_media(ctx.request[http::field::accept], false);
    if (!media) {
        co_return not_acceptable();
    }
    auto params = post_params(ctx);
    if (!params) {
        co_return std::move(params).error();
    }
    co_return co_await run_operation(ctx, app, *params, *media, false);
}

// GET /graphql/schema.graphql : the schema as SDL
handler_result handle_get_graphql_schema(request_context&, graphql_services& app) {
    response r;
    r.shared_body = std::make_shared<const std::string>(app.engine.sdl());
    r.content_type = "application/graphql; charset=utf-8";
    co_return r;
}

}  // namespace storefront::server
