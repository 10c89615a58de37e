#pragma once
// The request inspector's page (issue 43): /sandbox/{id}/inspector and its script and stylesheet, static
// files served by storefront itself (no CDN). The script lists the sandbox's records (GET requests), adds
// new ones live (the SSE stream) and shows one's headers and bodies on click; it writes record content
// only as text, never as HTML (a record holds whatever a client sent).

#include <optional>
#include <string_view>

#include "server/codec/response.hpp"

namespace storefront::server {

// The file at `path` ("/inspector", "/inspector/inspector.js", "/inspector/inspector.css") as a 200 with
// its type, no-cache and the page's Content-Security-Policy; nullopt for another path.
[[nodiscard]] std::optional<response> inspector_file(std::string_view path);

}  // namespace storefront::server
