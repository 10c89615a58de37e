// Compressible media types, per-coding entity tags, and bytes that keep their tags and compressed forms
// once computed (std::call_once per tag set and per coding, so concurrent first requests compute them once).

#include "server/codec/representation.hpp"

#include <cstddef>

#include "server/codec/etag.hpp"

namespace storefront::server {

namespace {

std::size_t index_of(content_coding coding) noexcept {
    return static_cast<std::size_t>(coding);
}

}  // namespace

bool compressible_media_type(std::string_view content_type) noexcept {
    if (content_type.empty()) {
        return true;  // the default, application/json
    }
    return content_type.starts_with("text/") || content_type.starts_with("application/json") ||
           content_type.starts_with("application/javascript");
}

std::string coded_etag(std::string_view identity_etag, content_coding coding) {
    if (coding == content_coding::identity || identity_etag.size() < 2) {
        return std::string(identity_etag);
    }
    std::string out(identity_etag.substr(0, identity_etag.size() - 1));
    out.append("-").append(coding_name(coding)).append("\"");
    return out;
}

prepared_body::prepared_body(std::string bytes) : bytes_(std::move(bytes)) {}

std::string_view prepared_body::etag(content_coding coding) const {
    std::call_once(tags_once_, [this] {
        const std::string identity = strong_etag(bytes_);
        tags_[index_of(content_coding::gzip)] = coded_etag(identity, content_coding::gzip);
        tags_[index_of(content_coding::br)] = coded_etag(identity, content_coding::br);
        tags_[index_of(content_coding::identity)] = identity;
    });
    return tags_[index_of(coding)];
}

std::string_view prepared_body::encoded(content_coding coding) const {
    if (coding == content_coding::identity) {
        return bytes_;
    }
    const std::size_t i = index_of(coding);
    std::call_once(encoded_once_[i], [this, coding, i] { encoded_[i] = compress(bytes_, coding); });
    return encoded_[i];
}

}  // namespace storefront::server
