// GET /api/v1/events: the change feed of the request's data set (issue 43), as server-sent events or, on a
// WebSocket upgrade of the same request, as JSON text messages. The handler checks the request (types,
// Last-Event-ID, Accept, the stream limit); the stream runs after the head (or the handshake), on the
// connection the session hands over (codec/stream_answer.hpp).

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/query.hpp"
#include "server/api/store/handlers.hpp"
#include "server/codec/event_stream_lines.hpp"
#include "server/codec/stream_answer.hpp"
#include "server/services/event_hub.hpp"
#include "server/services/feed_commands.hpp"

namespace storefront::server {

namespace {

using clock = std::chrono::steady_clock;

constexpr std::string_view overflow_event =
    "event: overflow\ndata: {\"type\":\"overflow\",\"message\":\"too slow: events were dropped, reload and "
    "resume\"}\n\n";

// The `reset` event: the client missed events the history no longer holds, so it must reload; its id is
// the newest one, so a reconnect after it resumes from here.
void append_reset(std::string& out, std::uint64_t newest) {
    const std::string id = std::to_string(newest);
    out.append("id: ").append(id).append("\nevent: reset\ndata: {\"type\":\"reset\",\"id\":\"").append(id);
    out.append("\",\"message\":\"events since your last id are no longer kept: reload, then follow\"}\n\n");
}

// The reset notice as a WebSocket message.
std::string reset_json(std::uint64_t newest) {
    return R"({"type":"reset","id":")" + std::to_string(newest) +
           R"(","message":"events since your last id are no longer kept: reload, then follow"})";
}

// One piece of text waiting to be written: a published event's framing shared with every other
// subscriber (no copy per subscriber), or text of this stream's own (retry hints, notices, errors).
class pending_text {
  public:
    pending_text(std::string own) : own_(std::move(own)) {}  // NOLINT(google-explicit-constructor)
    pending_text(std::string_view own) : own_(own) {}        // NOLINT(google-explicit-constructor)
    pending_text(const char* own) : own_(own) {}             // NOLINT(google-explicit-constructor)
    pending_text(event_ptr event, bool websocket) : event_(std::move(event)), websocket_(websocket) {}
    [[nodiscard]] std::string_view text() const {
        if (!event_) {
            return own_;
        }
        return websocket_ ? event_->json : event_->sse;
    }

  private:
    std::string own_;
    event_ptr event_;
    bool websocket_ = false;
};

// RFC 6455 close codes the feed uses.
constexpr std::uint16_t close_going_away = 1001;
constexpr std::uint16_t close_policy = 1008;  // too slow: events were dropped

// One subscriber's stream, over SSE or WebSocket (the sink's framing): what it missed first, then every
// event its filter passes, until the client leaves, falls too far behind, or the instance drains.
class feed_stream final : public stream_answer {
  public:
    feed_stream(
        std::shared_ptr<event_hub> hub,
        event_filter filter,
        event_viewer viewer,
        std::optional<std::uint64_t> last_seen,
        event_stream_ticket ticket
    )
        : hub_(std::move(hub)),
          filter_(std::move(filter)),
          viewer_(viewer),
          last_seen_(last_seen),
          ticket_(std::move(ticket)) {}

    boost::asio::awaitable<void> run(stream_sink& out) override {
        websocket_ = out.kind() == stream_sink::framing::websocket;
        if (out.closing()) {  // opened while draining: come back in a moment (to another instance)
            co_await say_goodbye(out);
            co_return;
        }
        waker_ = out.waker();
        auto opened = hub_->subscribe(filter_, viewer_, last_seen_, waker_);
        subscription_ = opened.subscription;
        pending_.clear();
        if (websocket_) {
            // Subscribed from here on: what a client waits for before relying on the stream.
            pending_.push_back(R"({"type":"ready","id":")" + std::to_string(hub_->last_id()) + "\"}");
        } else {
            pending_.emplace_back(event_stream_lines::retry_first);
        }
        queue_opened(opened);
        bool open = co_await flush(out);
        auto next_keep_alive = clock::now() + event_stream_lines::keep_alive_every;
        while (open) {
            if (out.closing()) {
                co_await say_goodbye(out);
                break;
            }
            while (auto message = out.take_message()) {
                obey(*message);
            }
            auto batch = subscription_->take();
            for (const auto& e : batch.events) {
                queue_event(e);
            }
            const std::size_t events = batch.events.size();
            if (batch.ending == event_subscription::end::overflow) {
                if (websocket_) {
                    open = co_await flush(out, events);
                    co_await out.close(close_policy, "too slow: events were dropped, reconnect and resume");
                    break;
                }
                pending_.emplace_back(overflow_event);
            } else if (batch.ending == event_subscription::end::closed && out.closing()) {
                (void)co_await flush(out, events);
                co_await say_goodbye(out);
                break;
            }
            if (!websocket_ && clock::now() >= next_keep_alive) {
                pending_.emplace_back(": keep-alive\n\n");  // WebSocket: Beast's pings keep it alive
                next_keep_alive = clock::now() + event_stream_lines::keep_alive_every;
            }
            open = co_await flush(out, events);
            if (batch.ending != event_subscription::end::none || !out.peer_open()) {
                break;
            }
            co_await out.wait_until(next_keep_alive);
        }
        hub_->unsubscribe(subscription_);
    }

  private:
    // SSE: the retry hint, then the end. WebSocket: close 1001 (going away).
    boost::asio::awaitable<void> say_goodbye(stream_sink& out) const {
        if (websocket_) {
            co_await out.close(close_going_away, "server restarting, reconnect");
        } else {
            (void)co_await out.write(event_stream_lines::retry_after_drain);
        }
    }

    void queue_opened(const event_hub::opened& opened) {
        if (opened.reset) {
            if (websocket_) {
                pending_.push_back(reset_json(hub_->last_id()));
            } else {
                std::string reset;
                append_reset(reset, hub_->last_id());
                pending_.push_back(std::move(reset));
            }
        }
        for (const auto& e : opened.replay) {
            queue_event(e);
        }
        replayed_ += opened.replay.size();
    }

    void queue_event(const event_ptr& e) { pending_.emplace_back(e, websocket_); }

    // A client's message (WebSocket): a new filter, a resume, or an error answer.
    void obey(const std::string& text) {
        auto command = parse_feed_command(text);
        if (auto* subscribe = std::get_if<subscribe_command>(&command)) {
            filter_ = subscribe->filter;
            subscription_->refilter(filter_);
        } else if (auto* resume = std::get_if<resume_command>(&command)) {
            // A new subscription replays after the id atomically; what the old one had queued is in it.
            hub_->unsubscribe(subscription_);
            auto opened = hub_->subscribe(filter_, viewer_, resume->last_seen, waker_);
            subscription_ = opened.subscription;
            queue_opened(opened);
        } else {
            pending_.push_back(feed_error_json(std::get<refused_command>(command).message));
        }
    }

    // Writes what is pending (SSE: in one write; WebSocket: a message each) and counts `events` sent.
    boost::asio::awaitable<bool> flush(stream_sink& out, std::size_t events = 0) {
        bool open = true;
        if (websocket_) {
            for (const auto& message : pending_) {
                if (open) {
                    open = co_await out.write(message.text());
                }
            }
        } else if (pending_.size() == 1) {
            open = co_await out.write(pending_.front().text());  // the usual case: one event, no copy
        } else if (!pending_.empty()) {
            std::string bytes;
            for (const auto& block : pending_) {
                bytes += block.text();
            }
            open = co_await out.write(bytes);
        }
        pending_.clear();
        event_feed_counters().events_sent.fetch_add(events + replayed_, std::memory_order_relaxed);
        replayed_ = 0;
        co_return open;
    }

    std::shared_ptr<event_hub> hub_;
    event_filter filter_;
    event_viewer viewer_;
    std::optional<std::uint64_t> last_seen_;
    event_stream_ticket ticket_;  // held while the stream runs
    bool websocket_ = false;
    std::function<void()> waker_;
    std::shared_ptr<event_subscription> subscription_;
    std::vector<pending_text> pending_;  // blocks (SSE) or messages (WebSocket) to write next
    std::size_t replayed_ = 0;
};

// A decimal event id (what the feed sends), else nullopt.
std::optional<std::uint64_t> event_id_of(std::string_view text) {
    std::uint64_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return id;
}

// Whether `key` is 16 bytes in base64 (RFC 6455 §4.1: 24 characters ending in "=="), as Beast does not check.
bool valid_websocket_key(std::string_view key) {
    const auto base64 = [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
               c == '/';
    };
    return key.size() == 24 && key.ends_with("==") &&
           std::all_of(key.begin(), key.end() - 2, [&](char c) { return base64(c); });
}

// Whether the request asks for a WebSocket (Upgrade: websocket, any case).
bool wants_websocket(const http_request& request) {
    const auto upgrade = request[http::field::upgrade];
    std::string lower(upgrade.data(), upgrade.size());
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return std::tolower(c);
    });
    return lower.find("websocket") != std::string::npos;
}

// Whether an Accept header admits text/event-stream (absent, */*, text/*, or naming it).
bool accepts_event_stream(std::string_view accept) {
    return accept.empty() || accept.find("text/event-stream") != std::string_view::npos ||
           accept.find("*/*") != std::string_view::npos || accept.find("text/*") != std::string_view::npos;
}

}  // namespace

// GET /events?types=&lastEventId= (Last-Event-ID) : the change feed as text/event-stream
handler_result handle_get_events(request_context& ctx, store_services& app) {
    if (!app.events()) {
        co_return http_error(http::status::not_found, "No change feed here");
    }
    std::string types;  // types=a,b&types=c is types=a,b,c
    for (const auto& p : ctx.query) {
        if (p.name == "types") {
            types.append(types.empty() ? "" : ",").append(p.value);
        }
    }
    auto filter = event_filter::parse(types);
    if (!filter) {
        co_return http_error(
            http::status::bad_request,
            "Unknown event type in types=; allowed: " + event_filter::allowed_patterns()
        );
    }
    if (core::count_of(ctx.query, "lastEventId") > 1) {
        co_return http_error(http::status::bad_request, "lastEventId must be given at most once");
    }
    std::optional<std::uint64_t> last_seen;
    const auto header_id = ctx.request["Last-Event-ID"];
    const auto query_id = core::single_value(ctx.query, "lastEventId");
    if (!header_id.empty() || query_id) {
        const std::string_view text =
            !header_id.empty() ? std::string_view(header_id.data(), header_id.size()) : *query_id;
        last_seen = event_id_of(text);
        if (!last_seen) {
            co_return http_error(
                http::status::bad_request, "Last-Event-ID must be an event id this feed sent (digits)"
            );
        }
    }
    if (wants_websocket(ctx.request)) {
        const auto key = ctx.request[http::field::sec_websocket_key];
        if (!valid_websocket_key(std::string_view(key.data(), key.size()))) {
            co_return http_error(http::status::bad_request, "Sec-WebSocket-Key must be 16 bytes in base64");
        }
    }
    const auto accept = ctx.request[http::field::accept];
    if (!accepts_event_stream(std::string_view(accept.data(), accept.size()))) {
        co_return http_error(
            http::status::not_acceptable, "This is an event stream: Accept text/event-stream"
        );
    }
    auto ticket = event_stream_ticket::take(app.max_event_streams());
    if (!ticket) {
        co_return event_stream_response(nullptr);
    }
    const event_viewer viewer{ctx.actor.user_id, ctx.actor.is_admin()};
    co_return event_stream_response(
        std::make_shared<feed_stream>(app.events(), std::move(*filter), viewer, last_seen, std::move(*ticket))
    );
}

}  // namespace storefront::server
