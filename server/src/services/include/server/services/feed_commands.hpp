#pragma once
// What a WebSocket client of the change feed may send (issue 43), one JSON text message each:
// {"subscribe": ["product.*", "category.updated"]} changes its filter (an empty list: every type), and
// {"resume": "<id>"} replays what it missed after that event id, as Last-Event-ID does for SSE. Anything
// else is refused with a message naming what is allowed; the connection stays open.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "server/services/event_hub.hpp"

namespace storefront::server {

struct subscribe_command {
    event_filter filter;
};
struct resume_command {
    std::uint64_t last_seen = 0;
};
struct refused_command {
    std::string message;  // for the client's {"type":"error","message":…}
};
using feed_command = std::variant<subscribe_command, resume_command, refused_command>;

// Reads one client message (any bytes: it never throws on input, and bounds what it parses).
[[nodiscard]] feed_command parse_feed_command(std::string_view text);

// The error message a refused command is answered with: {"type":"error","message":…}.
[[nodiscard]] std::string feed_error_json(std::string_view message);

}  // namespace storefront::server
