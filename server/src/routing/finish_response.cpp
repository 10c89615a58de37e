// ETag, If-None-Match and Accept-Encoding for every route's 200 GET/HEAD answer, after its handler ran.
// The answers without Accept-Encoding and If-None-Match, and prepared pages, allocate nothing here.

#include "server/routing/finish_response.hpp"

#include "server/codec/content_coding.hpp"
#include "server/codec/etag.hpp"
#include "server/codec/representation.hpp"

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

}  // namespace storefront::server
