#pragma once
// What an answer is sent as: which media types are worth compressing, the entity tag of each content coding
// of a body, and bytes served to many requests (a cached list page, a drawn picture, a documentation file)
// that keep their tags and compressed forms, each computed once on first use.

#include <array>
#include <mutex>
#include <string>
#include <string_view>

#include "server/codec/content_coding.hpp"

namespace storefront::server {

// Whether bodies of `content_type` shrink when compressed: JSON (the empty default), text and scripts; not
// pictures, which are compressed already.
[[nodiscard]] bool compressible_media_type(std::string_view content_type) noexcept;

// The entity tag of a body sent in `coding`, from the tag of its identity bytes (strong_etag): the same
// tag for identity, "-gzip" or "-br" added inside the quotes otherwise, so each coding's bytes have their own
// strong tag (RFC 9110 §8.8.3) and a 304 never needs the compressed bytes.
[[nodiscard]] std::string coded_etag(std::string_view identity_etag, content_coding coding);

// Bytes shared between requests with their entity tags and compressed forms, computed at most once each
// (on first use, by whichever request needs them). Safe for concurrent readers.
class prepared_body {
  public:
    explicit prepared_body(std::string bytes);
    prepared_body(const prepared_body&) = delete;
    prepared_body& operator=(const prepared_body&) = delete;

    // The bytes as they are (identity).
    [[nodiscard]] const std::string& bytes() const noexcept { return bytes_; }

    // The entity tag of the bytes sent in `coding` (coded_etag of strong_etag(bytes())).
    [[nodiscard]] std::string_view etag(content_coding coding) const;

    // The bytes in `coding`, compressed on the first call for that coding. Throws std::runtime_error when
    // the compressor fails (nothing is kept then).
    [[nodiscard]] std::string_view encoded(content_coding coding) const;

  private:
    static constexpr std::size_t codings = 3;  // identity, gzip, br
    std::string bytes_;
    mutable std::once_flag tags_once_;
    mutable std::array<std::string, codings> tags_;
    mutable std::array<std::once_flag, codings> encoded_once_;
    mutable std::array<std::string, codings> encoded_;
};

}  // namespace storefront::server
