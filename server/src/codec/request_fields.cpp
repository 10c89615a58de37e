// One walk over the header's field list in arrival order: known fields compare by Beast's enum, and only
// an unknown name is compared as text.

#include "server/codec/request_fields.hpp"

#include <boost/beast/core/string.hpp>

namespace storefront::server {

namespace {

void keep_first(std::string_view& slot, std::uint32_t& count, std::string_view value) {
    if (count++ == 0) {
        slot = value;
    }
}

}  // namespace

request_fields request_fields::of(const http::request_header<>& head) {
    request_fields out;
    std::uint32_t accept_encodings = 0;
    std::uint32_t if_none_matches = 0;
    for (const auto& f : head) {
        const std::string_view value = f.value();
        switch (f.name()) {
            case http::field::host:
                ++out.hosts;
                break;
            case http::field::accept_encoding:
                keep_first(out.accept_encoding, accept_encodings, value);
                break;
            case http::field::if_none_match:
                keep_first(out.if_none_match, if_none_matches, value);
                break;
            case http::field::content_length:
                keep_first(out.content_length, out.content_lengths, value);
                break;
            case http::field::transfer_encoding:
                keep_first(out.transfer_encoding, out.transfer_encodings, value);
                break;
            case http::field::expect:
                keep_first(out.expect, out.expects, value);
                break;
            case http::field::unknown:
                if (!out.has_sandbox && boost::beast::iequals(f.name_string(), "X-Sandbox")) {
                    out.has_sandbox = true;
                    out.sandbox = value;
                }
                break;
            default:
                break;
        }
    }
    return out;
}

}  // namespace storefront::server
