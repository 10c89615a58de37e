// Finishing, the stage after the handler: every 200 GET/HEAD answer's ETag, If-None-Match and
// Accept-Encoding (finish_response.hpp; the answers without Accept-Encoding and If-None-Match, and prepared
// pages, allocate nothing here), then for every answer the failure it may be, its error shape, CORS, reuse
// and inspector record (request_finish.hpp).

#include "request_finish.hpp"

#include <memory>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "server/codec/content_coding.hpp"
#include "server/codec/error_style.hpp"
#include "server/codec/etag.hpp"
#include "server/codec/representation.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/routing/dispatch.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/finish_response.hpp"
#include "server/routing/inspector_routes.hpp"
#include "server/telemetry/log.hpp"

namespace storefront::server {

namespace {

// The coding a body of `size` bytes is sent in: what the client prefers, for bodies over the threshold or
// when the client refuses the bytes as they are (identity;q=0).
content_coding coding_for(std::string_view accept_encoding, std::size_t size) noexcept {
    const content_coding preferred = choose_coding(accept_encoding);
    if (preferred == content_coding::identity) {
        return preferred;
    }
    if (size > min_compressed_body_size || refuses_identity(accept_encoding)) {
        return preferred;
    }
    return content_coding::identity;
}

void not_modified(response& r) {
    r.status = http::status::not_modified;
    r.body.clear();
    r.shared_body.reset();
    r.prepared.reset();
    r.coding = content_coding::identity;  // no body, so no Content-Encoding
}

// A sandbox request's record into the database the instances share (request_logs::share_through). A record
// that finds the storage pool full or the database down is dropped: the answer has gone out already.
boost::asio::awaitable<void> store_shared_record(
    request_logs& logs,
    blocking_offload& storage,
    std::string sandbox,
    std::shared_ptr<const request_record> record
) {
    try {
        (void)co_await storage.try_run([&] {
            logs.add(sandbox, *record);
            return true;
        });
    } catch (const std::exception& e) {
        log_event("warning", "inspector_record_lost", {field("what", e.what())});
    }
}

}  // namespace

void finish_response(const http::request_header<>& head, response& r) {
    finish_response(head.method(), request_fields::of(head), r);
}

void finish_response(http::verb verb, const request_fields& fields, response& r) {
    if (r.status != http::status::ok || (verb != http::verb::get && verb != http::verb::head) || r.stream) {
        return;
    }
    const bool compressible = compressible_media_type(r.content_type);
    if (!compressible && !r.deterministic) {
        return;
    }
    content_coding coding = content_coding::identity;
    if (compressible) {
        r.vary_encoding = true;
        const std::string_view accept_encoding = fields.accept_encoding;
        if (!accept_encoding.empty()) {
            coding = coding_for(accept_encoding, r.payload().size());
        }
    }
    if (r.deterministic) {
        if (r.prepared) {
            r.set_etag(r.prepared->etag(coding));
        } else if (!r.etag().empty()) {
            r.set_etag(coded_etag(r.etag(), coding));  // the handler named its bytes (derived_etag)
        } else {
            r.set_etag(coded_etag(strong_etag(r.payload()), coding));
        }
        const std::string_view if_none_match = fields.if_none_match;
        if (!if_none_match.empty() && if_none_match_matches(if_none_match, r.etag())) {
            not_modified(r);
            return;
        }
    }
    if (coding == content_coding::identity) {
        return;
    }
    if (r.prepared) {
        (void)r.prepared->encoded(coding);  // compressed once per prepared body and coding, kept with it
    } else {
        r.body = compress(r.payload(), coding);
        r.shared_body.reset();
    }
    r.coding = coding;
}

// A storage backend that is down or too busy to take a call, wherever it showed (a token's user lookup,
// opening a sandbox, its quota, the handler), changed nothing: 503 with Retry-After. Anything else: 500.
response failure_answer(std::exception_ptr failure, const routed_request& routed) {
    const route* matched = routed.match.matched;
    const std::string_view operation = matched != nullptr ? matched->operation : std::string_view("-");
    if (const auto storage = storage_failure_of(failure)) {
        log_event(
            "warning", "storage_unavailable", {field("operation", operation), field("what", storage->what)}
        );
        const bool petstore = routed.match.table && routed.match.table->errors == error_style::petstore;
        return petstore ? pet_error_response(storage->code) : error_response(storage->code);
    }
    try {
        std::rethrow_exception(std::move(failure));
    } catch (const std::exception& e) {
        log_event(
            "error",
            "handler_exception",
            {field("operation", operation), field("path", routed.path), field("what", e.what())}
        );
    } catch (...) {
        log_event("error", "handler_exception", {field("operation", operation), field("path", routed.path)});
    }
    return internal_error();
}

void finish_answer(const http_request& request, const routing_services& services, response& reply) {
    render_error(reply, error_style_of_target(request.target()));
    apply_cors(services.cors, request.base(), reply);
}

bool reusable(const answered_request& answered, const routing_services& services) {
    const auto& [request, routed, reply] = answered;
    const auto status = reply.status;
    return services.shared_data != nullptr && request.method() == http::verb::get &&
           routed.match.matched->reuse.until_data_changes && routed.sandbox_id.empty() && !routed.sandbox &&
           !services.fault_injection && reply.deterministic && !reply.close_connection &&
           (status == http::status::ok || status == http::status::not_modified);
}

void record_for_inspector(
    const boost::asio::any_io_executor& executor,
    const answered_request& answered,
    std::chrono::steady_clock::time_point started,
    const routing_services& services
) {
    const auto& [request, routed, reply] = answered;
    if (services.inspector == nullptr || routed.sandbox_id.empty() || routed.inspector) {
        return;
    }
    auto record = std::make_shared<const request_record>(inspector_record(request, reply, started));
    if (services.inspector->shared()) {
        // Stored on the storage pool while the answer goes out.
        std::string sandbox(routed.sandbox_id);
        boost::asio::co_spawn(
            executor,
            store_shared_record(*services.inspector, services.access.storage, sandbox, record),
            boost::asio::detached
        );
    } else {
        services.inspector->add(routed.sandbox_id, *record);
    }
}

}  // namespace storefront::server
