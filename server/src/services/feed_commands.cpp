// parse_feed_command: a WebSocket client's JSON message to a subscribe or resume command, or the reason it
// is refused. Boost.JSON with a fixed depth and size, so a hostile message costs little.

#include "server/services/feed_commands.hpp"

#include <charconv>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

namespace json = boost::json;

constexpr std::string_view expected = R"(send {"subscribe": ["product.*", …]} or {"resume": "<event id>"})";

refused_command refused(std::string message) {
    return {std::move(message)};
}

}  // namespace

feed_command parse_feed_command(std::string_view text) {
    json::parse_options options;
    options.max_depth = 4;
    boost::system::error_code ec;
    const json::value doc = json::parse(text, ec, {}, options);
    if (ec || !doc.is_object() || doc.as_object().size() != 1) {
        std::string message = "Not a command: ";
        message += expected;
        return refused(std::move(message));
    }
    const auto& [key, value] = *doc.as_object().begin();
    if (key == "subscribe") {
        if (!value.is_array()) {
            return refused("subscribe takes a list of event types");
        }
        std::vector<std::string> patterns;
        for (const auto& item : value.as_array()) {
            if (!item.is_string()) {
                return refused("subscribe takes a list of event types");
            }
            patterns.emplace_back(item.as_string());
        }
        auto filter = event_filter::of(patterns);
        if (!filter) {
            return refused("Unknown event type; allowed: " + event_filter::allowed_patterns());
        }
        return subscribe_command{std::move(*filter)};
    }
    if (key == "resume") {
        std::uint64_t id = 0;
        if (value.is_string()) {
            const std::string_view digits = value.as_string();
            const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
            if (digits.empty() || err != std::errc{} || end != digits.data() + digits.size()) {
                return refused("resume takes an event id this feed sent (digits)");
            }
        } else if (value.is_uint64() || (value.is_int64() && value.as_int64() >= 0)) {
            id = value.is_uint64() ? value.as_uint64() : static_cast<std::uint64_t>(value.as_int64());
        } else {
            return refused("resume takes an event id this feed sent (digits)");
        }
        return resume_command{id};
    }
    std::string message = "Unknown command: ";
    message += expected;
    return refused(std::move(message));
}

std::string feed_error_json(std::string_view message) {
    std::string out;
    json_writer w(out);
    w.begin_object().key("type").value("error").key("message").value(message).end_object();
    return out;
}

}  // namespace storefront::server
