#pragma once
// Response compression: which content coding an Accept-Encoding header asks for (RFC 9110 §12.5.3), and
// the body compressed in it (gzip with zlib, br with libbrotlienc).

#include <cstddef>
#include <string>
#include <string_view>

namespace storefront::server {

enum class content_coding { identity, gzip, br };

// Bodies this size or smaller are sent as they are: compressing them saves too little. Callers check it.
inline constexpr std::size_t min_compressed_body_size = 1024;

// The Content-Encoding token: "identity", "gzip" or "br".
[[nodiscard]] std::string_view coding_name(content_coding coding) noexcept;

// The coding with the highest q-value among br, gzip and identity, preferring br, then gzip, then identity
// on ties. Tokens are case-insensitive, "x-gzip" is gzip, `*` gives its q-value to every coding not named,
// and identity, unless named or covered by `*`, only ranks below every acceptable coding ("gzip;q=0.5" is
// gzip). identity when nothing is acceptable (no 406 here),
// for an empty or absent header, and for a malformed one (a bad q-value, an unknown parameter, a stray
// character) which is then not trusted at all.
[[nodiscard]] content_coding choose_coding(std::string_view accept_encoding) noexcept;

// Whether a well-formed Accept-Encoding refuses the unencoded bytes: "identity;q=0", or "*;q=0" without
// identity named. Then even a body of min_compressed_body_size or less is sent compressed, when
// choose_coding finds a coding the client takes.
[[nodiscard]] bool refuses_identity(std::string_view accept_encoding) noexcept;

// `body` in `coding`: gzip (zlib, level 6, a gzip header and trailer), br (brotli quality 5, window 22) or
// the bytes unchanged. Throws std::runtime_error if the compressor fails (out of memory).
[[nodiscard]] std::string compress(std::string_view body, content_coding coding);

}  // namespace storefront::server
