#pragma once
// The fixed parts of a text/event-stream answer that the change feed (api/store/handlers_events.cpp) and
// the request inspector's stream (routing/inspector_routes.cpp) share.

#include <chrono>
#include <string_view>

namespace storefront::server::event_stream_lines {

// A comment line this often keeps proxies and load balancers from closing an idle stream.
inline constexpr auto keep_alive_every = std::chrono::seconds(15);
// What EventSource waits before reconnecting after a drop, and after a drain (another instance is there).
inline constexpr std::string_view retry_first = "retry: 3000\n\n";
inline constexpr std::string_view retry_after_drain = "retry: 1000\n: closing for a restart, reconnect\n\n";

}  // namespace storefront::server::event_stream_lines
