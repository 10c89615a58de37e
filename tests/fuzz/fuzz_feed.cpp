// libFuzzer harness: bytes as one WebSocket text message to the change feed (issue 43), through the command
// parser and what the stream does with it: a subscribe refilters a live subscription, a resume subscribes
// again with replay from a small history; every refusal renders its error message.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "server/services/event_hub.hpp"
#include "server/services/feed_commands.hpp"

namespace {

using namespace storefront::server;

event_hub& fuzz_hub() {
    static event_hub hub({.history = 8, .queue = 4});
    return hub;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto& hub = fuzz_hub();
    hub.publish("product.created", R"({"id":1})");
    auto opened = hub.subscribe({}, {}, std::nullopt, {});
    auto command = parse_feed_command(text);
    if (auto* subscribe = std::get_if<subscribe_command>(&command)) {
        opened.subscription->refilter(subscribe->filter);
        hub.publish("category.updated", R"({"id":2})");
    } else if (auto* resume = std::get_if<resume_command>(&command)) {
        auto again = hub.subscribe({}, {}, resume->last_seen, {});
        (void)again.subscription->take();
        hub.unsubscribe(again.subscription);
    } else {
        (void)feed_error_json(std::get<refused_command>(command).message);
    }
    (void)opened.subscription->take();
    hub.unsubscribe(opened.subscription);
    return 0;
}
