// The request inspector's routes and the recording of a sandbox's requests (issue 43). The live stream is
// server-sent events through the change feed's stream machinery (codec/stream_answer.hpp).

#include "server/routing/inspector_routes.hpp"

#include <charconv>
#include <memory>
#include <string>
#include <vector>

#include "inspector_page.hpp"
#include "server/codec/content_coding.hpp"
#include "server/codec/event_stream_lines.hpp"
#include "server/codec/representation.hpp"
#include "server/codec/stream_answer.hpp"
#include "server/services/event_hub.hpp"

namespace storefront::server {

namespace {

using clock = std::chrono::steady_clock;

constexpr std::size_t default_limit = 100;
constexpr std::size_t max_limit = 1'000;
constexpr std::string_view overflow_event =
    "event: overflow\ndata: {\"type\":\"overflow\",\"message\":\"too slow: records were dropped, reload the "
    "list and follow again\"}\n\n";

// One follower of a sandbox's records as server-sent events ("event: request", the record as data), until
// the client leaves, falls behind, the log is dropped (the sandbox was removed) or the instance drains.
class inspector_stream final : public stream_answer {
  public:
    inspector_stream(std::shared_ptr<request_log> log, event_stream_ticket ticket)
        : log_(std::move(log)), ticket_(std::move(ticket)) {}

    boost::asio::awaitable<void> run(stream_sink& out) override {
        if (out.closing()) {
            (void)co_await out.write(event_stream_lines::retry_after_drain);
            co_return;
        }
        auto follower = log_->follow(out.waker());
        bool open = co_await out.write(event_stream_lines::retry_first);
        auto next_keep_alive = clock::now() + event_stream_lines::keep_alive_every;
        while (open) {
            if (out.closing()) {
                (void)co_await out.write(event_stream_lines::retry_after_drain);
                break;
            }
            auto batch = follower->take();
            std::string bytes;
            for (const auto& record : batch.records) {
                bytes.append("event: request\ndata: ").append(*record).append("\n\n");
            }
            if (batch.overflowed) {
                bytes.append(overflow_event);
            }
            if (clock::now() >= next_keep_alive) {
                bytes.append(": keep-alive\n\n");
                next_keep_alive = clock::now() + event_stream_lines::keep_alive_every;
            }
            if (!bytes.empty()) {
                open = co_await out.write(bytes);
            }
            if (batch.overflowed || batch.closed || !out.peer_open()) {
                break;
            }
            co_await out.wait_until(next_keep_alive);
        }
        log_->unfollow(follower);
    }

  private:
    std::shared_ptr<request_log> log_;
    event_stream_ticket ticket_;  // held while the stream runs
};

// limit= of `query`: default_limit when absent, nullopt when not a number in 1..max_limit or given twice.
std::optional<std::size_t> limit_of(std::string_view query) {
    std::optional<std::string_view> given;
    std::size_t start = 0;
    while (start <= query.size()) {
        const std::size_t amp = std::min(query.find('&', start), query.size());
        const std::string_view pair = query.substr(start, amp - start);
        if (pair.starts_with("limit=") || pair == "limit") {
            if (given) {
                return std::nullopt;
            }
            given = pair.size() > 6 ? pair.substr(6) : std::string_view();
        }
        start = amp + 1;
    }
    if (!given) {
        return default_limit;
    }
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(given->data(), given->data() + given->size(), n);
    if (given->empty() || ec != std::errc{} || end != given->data() + given->size() || n < 1 ||
        n > max_limit) {
        return std::nullopt;
    }
    return n;
}

response json_array(std::string body) {
    response r = json_response(http::status::ok, std::move(body));
    r.deterministic = false;
    r.with_header("Cache-Control", "no-store");
    return r;
}

response method_refused(std::string_view allow) {
    response r = http_error(
        http::status::method_not_allowed, "Method not allowed here; allowed: " + std::string(allow)
    );
    r.with_header("Allow", allow);
    return r;
}

bool upgrade_requested(const http::request_header<>& head) {
    return head.find(http::field::upgrade) != head.end();
}

}  // namespace

bool inspector_path(std::string_view path) {
    return path == "/requests" || path == "/requests/stream" || path == "/inspector" ||
           path.starts_with("/inspector/");
}

response inspector_answer(
    const http::request_header<>& head, inspector_target target, request_logs& logs, std::size_t max_streams
) {
    const auto [sandbox, path, query] = target;
    const http::verb method = head.method();
    if (path.starts_with("/inspector")) {
        if (method != http::verb::get && method != http::verb::head) {
            return method_refused("GET, HEAD");
        }
        if (auto page = inspector_file(path)) {
            return std::move(*page);
        }
        return http_error(http::status::not_found, "No such file of the inspector page");
    }
    if (path == "/requests/stream") {
        if (method != http::verb::get && method != http::verb::head) {
            return method_refused("GET, HEAD");
        }
        if (upgrade_requested(head)) {
            return http_error(
                http::status::bad_request, "The inspector stream is server-sent events, not a WebSocket"
            );
        }
        auto ticket = event_stream_ticket::take(max_streams);
        if (!ticket) {
            return event_stream_response(nullptr);
        }
        return event_stream_response(
            std::make_shared<inspector_stream>(logs.followed_log(sandbox), std::move(*ticket))
        );
    }
    switch (method) {
        case http::verb::get:
        case http::verb::head: {
            const auto limit = limit_of(query);
            if (!limit) {
                return http_error(
                    http::status::bad_request,
                    "limit must be given once, a whole number from 1 to " + std::to_string(max_limit)
                );
            }
            return json_array(logs.newest_json(sandbox, *limit));
        }
        case http::verb::delete_: {
            logs.clear(sandbox);
            response r;
            r.status = http::status::no_content;
            return r;
        }
        default:
            return method_refused("GET, HEAD, DELETE");
    }
}

request_record inspector_record(
    const http_request& request, const response& reply, clock::time_point started
) {
    const auto took = clock::now() - started;
    request_record r;
    r.at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  (std::chrono::system_clock::now() - took).time_since_epoch()
    )
                  .count();
    r.method = std::string(request.method_string());
    const std::string_view target = request.target();
    const std::size_t question = target.find('?');
    r.path = std::string(target.substr(0, question));
    if (question != std::string_view::npos) {
        r.query = redact_query(target.substr(question + 1));
    }
    header_list headers;
    for (const auto& f : request.base()) {
        headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    }
    r.headers = record_headers(std::move(headers));
    const auto content_type = request[http::field::content_type];
    r.body = record_body(request.body(), std::string_view(content_type.data(), content_type.size()));
    r.status = static_cast<unsigned>(reply.status);
    r.duration_ms = std::chrono::duration<double, std::milli>(took).count();
    r.duration_ms = static_cast<double>(static_cast<std::int64_t>(r.duration_ms * 1000)) / 1000;  // to the µs

    header_list answer;
    const std::string_view type =
        reply.content_type.empty() ? std::string_view("application/json; charset=utf-8") : reply.content_type;
    answer.emplace_back("Content-Type", std::string(type));
    if (!reply.etag().empty()) {
        answer.emplace_back("ETag", std::string(reply.etag()));
    }
    std::string_view extra = reply.extra_headers;
    while (!extra.empty()) {
        const std::size_t end = extra.find("\r\n");
        const std::string_view line = extra.substr(0, end);
        const std::size_t colon = line.find(':');
        if (colon != std::string_view::npos) {
            std::string_view value = line.substr(colon + 1);
            while (!value.empty() && value.front() == ' ') {
                value.remove_prefix(1);
            }
            answer.emplace_back(std::string(line.substr(0, colon)), std::string(value));
        }
        if (end == std::string_view::npos) {
            break;
        }
        extra.remove_prefix(end + 2);
    }
    r.response_headers = record_headers(std::move(answer));
    if (reply.stream) {
        r.response_body.text = "[a stream: not recorded]";
    } else if (reply.coding != content_coding::identity && !reply.prepared) {
        // The handler's bytes were compressed in place: decompressing them for the record would cost every
        // such request more than the recording itself, so the record names the coding and size instead.
        r.response_body.text = "[compressed (" + std::string(coding_name(reply.coding)) + "): not recorded]";
        r.response_body.size = reply.body.size();
    } else {
        const std::string_view bytes =
            reply.prepared ? reply.prepared->encoded(content_coding::identity) : reply.payload();
        r.response_body = record_body(bytes, type);
    }
    return r;
}

}  // namespace storefront::server
