// What an answer is sent as: strong entity tags from SHA-1 (OpenSSL) and the strict If-None-Match parser
// (etag.hpp), an answer's tag kept in place (response::set_etag), compressible media types, the tag of each
// content coding, bytes that keep their tags and compressed forms once computed (std::call_once per tag set
// and per coding, so concurrent first requests compute them once; representation.hpp), and the 200 answers
// of cacheable bytes (http_caching.hpp), whose validation is routing's (finish_response), as for every other
// answer.
// SHA-1 truncated to 64 bits: on this project's hardware (SHA-NI) it hashes 10 KB in about 6.5 µs of CPU,
// half the time of byte-wise FNV-1a, and unlike FNV-1a a client cannot steer a write to a chosen tag.

#include "server/codec/representation.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <stdexcept>

#include <openssl/evp.h>

#include "server/codec/etag.hpp"
#include "server/codec/http_caching.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

namespace {

constexpr bool is_ows(char c) noexcept {
    return c == ' ' || c == '\t';
}

// etagc = %x21 / %x23-7E / obs-text
constexpr bool is_etagc(char c) noexcept {
    const auto byte = static_cast<unsigned char>(c);
    return byte == 0x21 || (byte >= 0x23 && byte != 0x7F);
}

// The quoted part of a tag: "W/\"x\"" and "\"x\"" both give "\"x\"".
constexpr std::string_view opaque(std::string_view tag) noexcept {
    return tag.substr(0, 2) == "W/" ? tag.substr(2) : tag;
}

// SHA-1 fetched once and a digest context per thread: EVP_Digest(…, EVP_sha1(), …) looks the algorithm up
// and allocates a context on every call, which cost more than hashing a few KB (perf: ~6 % of the CPU of
// /locations answers, each a new body).
std::array<unsigned char, EVP_MAX_MD_SIZE> sha1_of(std::string_view body) {
    static EVP_MD* const sha1 = EVP_MD_fetch(nullptr, "SHA1", nullptr);
    struct context {
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        ~context() { EVP_MD_CTX_free(ctx); }
    };
    thread_local const context local;
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (sha1 == nullptr || local.ctx == nullptr || EVP_DigestInit_ex2(local.ctx, sha1, nullptr) != 1 ||
        EVP_DigestUpdate(local.ctx, body.data(), body.size()) != 1 ||
        EVP_DigestFinal_ex(local.ctx, digest.data(), &size) != 1 || size < 8) {
        throw std::runtime_error("strong_etag: SHA-1 failed");
    }
    return digest;
}

std::string sha1_etag(std::string_view body) {
    const auto digest = sha1_of(body);
    constexpr char hex[] = "0123456789abcdef";
    std::string out(18, '"');
    for (std::size_t i = 0; i < 8; ++i) {
        out[1 + 2 * i] = hex[digest[i] >> 4];
        out[2 + 2 * i] = hex[digest[i] & 0x0F];
    }
    return out;
}

// Small bodies answered again and again (one product, one user) are tagged once per thread: a memo found
// by a fast hash and confirmed by comparing every byte, so the tag is still the SHA-1 one. EVP_Digest costs
// more than the rest of such a request.
constexpr std::size_t memo_slots = 32;
constexpr std::size_t memo_max_body = 4096;

struct remembered_tag {
    std::size_t hash = 0;
    std::string body;
    std::string etag;
};

std::size_t index_of(content_coding coding) noexcept {
    return static_cast<std::size_t>(coding);
}

response with_cache_policy(std::string_view media_type, std::string_view cache_control) {
    response r;
    r.content_type = std::string(media_type);
    r.with_header("Cache-Control", cache_control);
    return r;
}

}  // namespace

std::string strong_etag(std::string_view body) {
    if (body.size() > memo_max_body) {
        return sha1_etag(body);
    }
    thread_local std::array<remembered_tag, memo_slots> memo;
    const std::size_t hash = std::hash<std::string_view>{}(body);
    remembered_tag& slot = memo[hash % memo_slots];
    if (slot.hash == hash && !slot.etag.empty() && slot.body == body) {
        return slot.etag;
    }
    slot.hash = hash;
    slot.body.assign(body);
    slot.etag = sha1_etag(body);
    return slot.etag;
}

std::string derived_etag(std::string_view basis) {
    return sha1_etag(basis);
}

bool if_none_match_matches(std::string_view if_none_match, std::string_view etag) noexcept {
    const std::string_view wanted = opaque(etag);
    if (if_none_match == etag || if_none_match == wanted) {
        return true;  // what a client sends back most often: the one tag it was given
    }
    std::size_t i = 0;
    const std::size_t n = if_none_match.size();
    const auto skip_ows = [&] {
        while (i < n && is_ows(if_none_match[i])) {
            ++i;
        }
    };
    skip_ows();
    if (i < n && if_none_match[i] == '*') {
        ++i;
        skip_ows();
        return i == n;  // `*` stands alone
    }
    bool found = false;
    while (true) {
        // Empty list elements (", ,") carry nothing.
        while (i < n && (is_ows(if_none_match[i]) || if_none_match[i] == ',')) {
            ++i;
        }
        if (i == n) {
            break;
        }
        const std::size_t start = i;
        if (if_none_match.substr(i, 2) == "W/") {
            i += 2;
        }
        if (i == n || if_none_match[i] != '"') {
            return false;
        }
        ++i;
        while (i < n && if_none_match[i] != '"') {
            if (!is_etagc(if_none_match[i])) {
                return false;
            }
            ++i;
        }
        if (i == n) {
            return false;  // no closing quote
        }
        ++i;
        found = found || opaque(if_none_match.substr(start, i - start)) == wanted;
        skip_ows();
        if (i < n && if_none_match[i] != ',') {
            return false;  // two tags without a comma, or trailing text
        }
    }
    return found;
}

void response::set_etag(std::string_view tag) {
    if (tag.size() > max_etag_size) {
        throw std::length_error("response::set_etag: tag too long");
    }
    std::copy(tag.begin(), tag.end(), etag_.begin());
    etag_size_ = tag.size();
}

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

response cacheable_bytes(
    std::shared_ptr<const std::string> bytes, std::string_view media_type, std::string_view cache_control
) {
    response r = with_cache_policy(media_type, cache_control);
    r.shared_body = std::move(bytes);
    return r;
}

response cacheable_bytes(
    std::shared_ptr<const prepared_body> bytes, std::string_view media_type, std::string_view cache_control
) {
    response r = with_cache_policy(media_type, cache_control);
    r.prepared = std::move(bytes);
    return r;
}

}  // namespace storefront::server
