// Builds the Link header of a paged list from the request target.
// Parameters are copied in their encoded form, so a client's own escaping survives into the links.

#include "server/codec/link_header.hpp"

#include <string>
#include <string_view>

#include <boost/url/decode_view.hpp>
#include <boost/url/params_encoded_view.hpp>

namespace storefront::server {

namespace {

void append_param(std::string& out, std::string_view encoded) {
    out += out.back() == '?' ? "" : "&";
    out += encoded;
}

}  // namespace

std::string page_target(boost::urls::url_view target, std::size_t offset, std::size_t limit) {
    const std::string offset_param = "offset=" + std::to_string(offset);
    const std::string limit_param = "limit=" + std::to_string(limit);
    std::string out(target.encoded_path());
    if (out.empty()) {
        out = "/";
    }
    out += '?';
    bool offset_done = false;
    bool limit_done = false;
    for (const auto param : target.encoded_params()) {
        if (*param.key == "offset") {
            if (!offset_done) {
                append_param(out, offset_param);
                offset_done = true;
            }
        } else if (*param.key == "limit") {
            if (!limit_done) {
                append_param(out, limit_param);
                limit_done = true;
            }
        } else if (!param.key.empty() || param.has_value) {
            std::string encoded(param.key);
            if (param.has_value) {
                encoded += '=';
                encoded += param.value;
            }
            append_param(out, encoded);
        }
    }
    if (!offset_done) {
        append_param(out, offset_param);
    }
    if (!limit_done) {
        append_param(out, limit_param);
    }
    return out;
}

std::string link_header(boost::urls::url_view target, const core::paging_links& links, std::size_t limit) {
    std::string out;
    const auto add = [&](std::size_t offset, std::string_view rel) {
        out += out.empty() ? "<" : ", <";
        out += page_target(target, offset, limit);
        out += ">; rel=\"";
        out += rel;
        out += '"';
    };
    add(links.first, "first");
    if (links.prev) {
        add(*links.prev, "prev");
    }
    if (links.next) {
        add(*links.next, "next");
    }
    add(links.last, "last");
    return out;
}

}  // namespace storefront::server
