// One HTTP/1.1 connection as a coroutine. Each request is read in two steps — the header section, which is
// checked against the framing policy and routed (access rule, body limit), then the body under the route's
// limit and its deadline — then handled and answered. A GET whose header bytes this thread answered before,
// on data that has not changed since, is answered again from the replay cache without being parsed or
// routed. Keep-alive and pipelining fall out of the loop: the buffer keeps any bytes read ahead.

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffer_traits.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "event_stream_sink.hpp"
#include "replay_entry.hpp"
#include "server/codec/error_style.hpp"
#include "server/ops/client_address.hpp"
#include "server/ops/metrics.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/routing/dispatch.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/sandbox_target.hpp"
#include "server/telemetry/log.hpp"
#include "server/transport/framing_policy.hpp"
#include "server/transport/wire.hpp"
#include "websocket_feed.hpp"
#include "worker.hpp"

namespace storefront::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {

// The target of a request head's first line ("GET /api/v3/pet HTTP/1.1"), or empty: enough to choose the
// error shape of a refusal before the head is parsed.
std::string_view request_target_of(std::string_view header) {
    const auto line = header.substr(0, header.find('\r'));
    const auto first = line.find(' ');
    if (first == std::string_view::npos) {
        return {};
    }
    const auto rest = line.substr(first + 1);
    return rest.substr(0, rest.find(' '));
}

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr std::size_t read_chunk = 4096;
constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

std::string_view view_of(const beast::flat_buffer& buffer) {
    const auto data = buffer.data();
    return {static_cast<const char*>(data.data()), data.size()};
}

// RFC 9112 §2.2: empty lines before a request line are ignored (some clients add CRLF after a body).
void skip_leading_empty_lines(beast::flat_buffer& buffer) {
    std::string_view bytes = view_of(buffer);
    std::size_t skip = 0;
    while (bytes.substr(skip, 2) == "\r\n") {
        skip += 2;
    }
    buffer.consume(skip);
}

bool peer_went_away(const boost::system::error_code& ec) {
    return ec == http::error::end_of_stream || ec == http::error::partial_message || ec == asio::error::eof ||
           ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
           ec == asio::error::operation_aborted || ec == asio::error::not_connected;
}

// Every field named `name`, joined with ',' as RFC 9110 §5.3 allows for list-valued fields.
std::string joined_fields(const http::request_header<>& head, std::string_view name) {
    std::string out;
    const auto [first, last] = head.equal_range(name);
    for (auto it = first; it != last; ++it) {
        if (!out.empty()) {
            out += ',';
        }
        out.append(it->value());
    }
    return out;
}

// What answering and logging read of a request, whether it was parsed or replayed.
struct request_facts {
    http::verb method = http::verb::get;
    std::string_view method_text;
    std::string_view target;
    bool keep_alive = true;  // as the request's version and Connection field ask
    bool http10 = false;
    std::size_t body_bytes = 0;
    const http::request_header<>* head = nullptr;  // a parsed request's head; nullptr for a replayed one
};

request_facts facts_of(const http_request& request) {
    const auto target = request.target();
    const auto method = request.method_string();
    return {
        .method = request.method(),
        .method_text = std::string_view(method.data(), method.size()),
        .target = std::string_view(target.data(), target.size()),
        .keep_alive = request.keep_alive(),
        .http10 = request.version() == 10,
        .body_bytes = request.body().size(),
        .head = &request.base(),
    };
}

request_facts facts_of(const replay_entry& entry) {
    return {
        .method = http::verb::get,
        .method_text = "GET",
        .target = entry.target,
        .keep_alive = entry.keep_alive,
        .http10 = entry.http10,
    };
}

struct slot_guard {
    worker& owner;
    std::list<connection_slot>::iterator slot;
    ~slot_guard() {
        metrics().connection_closed();
        const bool counted = slot->counted;
        owner.connections.erase(slot);
        if (counted) {
            uncount(owner);
        }
    }
    static void uncount(worker& owner) {
        --owner.open_connections;
        owner.capacity_freed.cancel();  // an accept loop waiting for room may go on
    }
};

class connection final : body_source {
  public:
    connection(
        tcp::socket socket, worker& owner, const listener_services& services, const server_config& config
    )
        : stream_(std::move(socket)),
          owner_(owner),
          services_(services),
          config_(config),
          limits_(config.limits) {
        boost::system::error_code ignored;
        stream_.socket().non_blocking(true, ignored);  // for send()'s first, synchronous write attempt
        peer_ = stream_.socket().remote_endpoint(ignored).address();
        peer_text_ = peer_.to_string();
    }

    asio::awaitable<void> run() {
        metrics().connection_opened();
        const slot_guard guard{
            owner_, owner_.connections.insert(owner_.connections.end(), {&stream_, false, {}})};
        std::size_t served = 0;
        while (!owner_.stopping) {
            const std::size_t end = co_await read_header_section(served == 0);
            if (end == no_header) {
                break;
            }
            ++served;
            const bool may_keep_alive = served < limits_.max_requests_per_connection;
            bool keep_alive = false;
            if (auto replayed = replay_of(end)) {
                buffer_.consume(end);
                head_bytes_ = end;
                guard.slot->busy = true;
                keep_alive = co_await replay(*replayed, may_keep_alive);
            } else {
                request_parser parser;
                if (!co_await admit_head(parser, end)) {
                    break;
                }
                guard.slot->busy = true;
                guard_slot_ = &*guard.slot;
                keep_alive = co_await serve(parser, may_keep_alive);
            }
            guard.slot->busy = false;
            if (!keep_alive) {
                break;
            }
        }
        boost::system::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.socket().close(ignored);
    }

  private:
    static constexpr std::size_t no_header = std::string_view::npos;

    // Reads until the buffer holds one request's whole header section; returns its length, or no_header
    // when there is none to answer: the peer left, timed out while idle, or the header was too large (the
    // refusal has then been sent).
    asio::awaitable<std::size_t> read_header_section(bool first_request) {
        skip_leading_empty_lines(buffer_);
        if (buffer_.size() == 0) {
            // Idle: a new connection gets the header timeout, a kept-alive one the keep-alive timeout.
            stream_.expires_after(first_request ? limits_.header_timeout : limits_.keepalive_timeout);
            auto [ec, n] = co_await stream_.async_read_some(buffer_.prepare(read_chunk), use_tuple);
            if (ec) {
                co_return no_header;
            }
            buffer_.commit(n);
        }
        bool header_deadline_armed = false;  // armed only if the header needs more reads (rarely)
        std::size_t end = 0;
        for (;;) {
            skip_leading_empty_lines(buffer_);
            end = header_section_end(view_of(buffer_));
            if (end != std::string_view::npos) {
                break;
            }
            if (buffer_.size() > limits_.header_limit) {
                const response too_large = http_error(
                    http::status::request_header_fields_too_large, "Request header fields too large"
                );
                co_await refuse(too_large);
                co_return no_header;
            }
            if (!header_deadline_armed) {
                stream_.expires_after(limits_.header_timeout);  // the whole header, from about its first byte
                header_deadline_armed = true;
            }
            // On timeout tcp_stream has closed the socket already: a slow client is just disconnected,
            // as nginx does after client_header_timeout.
            auto [ec, n] = co_await stream_.async_read_some(buffer_.prepare(read_chunk), use_tuple);
            if (ec) {
                co_return no_header;
            }
            buffer_.commit(n);
        }
        co_return end;
    }

    // Parses the header section of `end` bytes into `parser` and checks its framing. False when it was
    // refused (the refusal has then been sent).
    asio::awaitable<bool> admit_head(request_parser& parser, std::size_t end) {
        const std::string_view header = view_of(buffer_).substr(0, end);
        if (auto refusal = admit_header(header, parser, limits_)) {
            const response refused = styled_error(
                error_style_of_target(request_target_of(header)), refusal->status, refusal->message
            );
            co_await refuse(refused);
            co_return false;
        }
        buffer_.consume(end);
        head_bytes_ = end;
        co_return true;
    }

    // The replayed answer to the header section of `end` bytes now in the buffer, or nullptr. A GET that
    // misses has its header bytes kept in replay_key_, so that its answer can be kept for the next one.
    std::shared_ptr<const replay_entry> replay_of(std::size_t end) {
        replay_key_.clear();
        const data_revision* data = services_.routing.shared_data;
        if (data == nullptr || services_.routing.fault_injection) {
            return nullptr;
        }
        const std::string_view header = view_of(buffer_).substr(0, end);
        if (!header.starts_with("GET ") || header.size() > replay_cache::max_request_head) {
            return nullptr;
        }
        auto found = owner_.replay.find(header, data->current());
        if (!found) {
            replay_key_.assign(header);
        }
        return found;
    }

    // Answers a request with what the replay cache kept for its bytes: the rate limit first, as for any
    // request, then the kept answer under a head written now.
    asio::awaitable<bool> replay(const replay_entry& entry, bool may_keep_alive) {
        const auto started = std::chrono::steady_clock::now();
        const request_facts facts = facts_of(entry);
        client_ = client_of(entry);
        std::string rate_headers;
        if (auto refused = over_rate_limit(entry.target, rate_headers)) {
            // The same Origin as the replayed request's (its header bytes are the same): a browser app of an
            // allowed origin can read the 429.
            refused->cors_origin = entry.reply.cors_origin;
            refused->vary_origin = entry.reply.vary_origin;
            co_return co_await deliver(facts, *refused, nullptr, true, may_keep_alive, started);
        }
        metrics().replayed();
        co_return co_await deliver(
            facts, entry.reply, entry.matched, entry.logged, may_keep_alive, started, rate_headers
        );
    }

    // The rate limit, applied once per request before anything else, on the head alone: a client over its
    // limit costs no routing, no access check, no body. The 429 to send, or nullopt with this request's
    // RateLimit-Policy and RateLimit lines in `rate_headers`.
    std::optional<response> over_rate_limit(std::string_view target, std::string& rate_headers) {
        if (services_.rate_limit == nullptr) {
            return std::nullopt;
        }
        rate_limit_verdict verdict = services_.rate_limit->admit(target, client_);
        if (!verdict.refused) {
            rate_headers = std::move(verdict.headers);
            return std::nullopt;
        }
        metrics().rate_limited();
        return std::move(verdict.reply);
    }

    // Keeps `handled`, the answer to the GET whose header bytes are in replay_key_, for the requests that
    // repeat those bytes while the data stays at the revision it was answered from.
    void keep_for_replay(const request_parser& parser, const request_outcome& handled) {
        const http_request& request = parser.get();
        if (!handled.reusable_at || replay_key_.empty() || request.chunked() ||
            request.has_content_length()) {
            return;
        }
        auto entry = std::make_shared<replay_entry>();
        entry->request_head = std::move(replay_key_);
        entry->target = request_target_of(entry->request_head);
        entry->reply = handled.reply;
        entry->matched = handled.matched;
        entry->logged = handled.logged;
        entry->keep_alive = request.keep_alive();
        entry->http10 = request.version() == 10;
        if (!config_.proxies.empty()) {
            entry->forwarded_for = joined_fields(request.base(), "X-Forwarded-For");
            entry->forwarded = joined_fields(request.base(), "Forwarded");
        }
        owner_.replay.keep(std::move(entry), *handled.reusable_at, services_.routing.shared_data->current());
    }

    // Hands the request to routing (which has its body read under the route's limit, through
    // read_body) and answers it. True if the connection stays open.
    asio::awaitable<bool> serve(request_parser& parser, bool may_keep_alive) {
        const auto started = std::chrono::steady_clock::now();  // for the latency histogram and access log
        const http_request& request = parser.get();
        client_ = client_of(request.base());  // the rate limit and the login brake count per client
        std::string rate_headers;
        const auto target = request.target();
        if (auto refused = over_rate_limit(std::string_view(target.data(), target.size()), rate_headers)) {
            apply_cors(services_.routing.cors, request.base(), *refused);  // readable by allowed apps
            // A body still unread cannot be skipped safely: answer, then close after a lingering drain.
            const bool body_unread = !parser.is_done();
            const bool kept = co_await deliver(
                facts_of(request), *refused, nullptr, true, may_keep_alive && !body_unread, started
            );
            if (body_unread) {
                co_await linger();
            }
            co_return kept && !body_unread;
        }
        parser_ = &parser;
        request_outcome handled = co_await handle_request(parser.get(), *this, services_.routing);
        parser_ = nullptr;
        switch (handled.outcome) {
            case request_outcome::kind::abandoned:
                co_return false;
            case request_outcome::kind::answered_unread:
                handled.reply.extra_headers += rate_headers;
                co_await refuse(handled.reply);
                co_return false;
            case request_outcome::kind::answered:
                break;
        }
        if (handled.reply.stream) {
            co_await stream(
                facts_of(parser.get()), parser.get(), handled, started, rate_headers, guard_slot_
            );
            co_return false;
        }
        keep_for_replay(parser, handled);
        co_return co_await deliver(
            facts_of(parser.get()),
            handled.reply,
            handled.matched,
            handled.logged,
            may_keep_alive,
            started,
            rate_headers
        );
    }

    // body_source: the current request's parser.
    bool body_complete() const override { return parser_->is_done(); }
    std::string_view client() const override { return client_; }
    bool from_trusted_proxy() const override {
        return !config_.proxies.empty() && config_.proxies.contains(peer_);
    }
    asio::awaitable<bool> read_body(std::size_t limit) override {
        request_parser& parser = *parser_;
        const auto& header = parser.get().base();
        parser.body_limit(limit);
        if (header.count(http::field::expect) != 0 && header.version() == 11) {
            stream_.expires_after(limits_.write_timeout);
            auto [ec, n] = co_await asio::async_write(stream_, asio::buffer(continue_line), use_tuple);
            if (ec) {
                co_return false;
            }
        }
        // A slow upload gets the base timeout plus its size at the minimum rate (chunked: the limit's).
        const std::size_t expected = parser.content_length().value_or(limit);
        stream_.expires_after(limits_.body_timeout + std::chrono::seconds(expected / limits_.min_body_rate));
        auto [ec, n] = co_await http::async_read(stream_, buffer_, parser, use_tuple);
        if (!ec) {
            co_return true;
        }
        if (ec != beast::error::timeout && !peer_went_away(ec)) {  // a timeout has closed the socket
            const framing_refusal refusal = refusal_for_parse_error(ec);
            const response refused =
                styled_error(error_style_of_target(header.target()), refusal.status, refusal.message);
            co_await refuse(refused);
        }
        co_return false;
    }

    // Writes the response (with `more_headers`, this request's own lines) and logs the request. True if the
    // connection stays open.
    asio::awaitable<bool> deliver(
        const request_facts& request,
        const response& reply,
        const route* matched,
        bool logged,
        bool may_keep_alive,
        std::chrono::steady_clock::time_point started,
        std::string_view more_headers = {}
    ) {
        // While draining, every connection ends after its next response (Connection: close), so clients
        // move to the other instances before this one stops accepting.
        const bool keep_alive = may_keep_alive && request.keep_alive && !reply.close_connection &&
                                !owner_.stopping && !services_.state.draining();
        const bool head_only = request.method == http::verb::head;
        const bool written = co_await send(
            reply,
            {.keep_alive = keep_alive, .http10 = request.http10, .more_headers = more_headers},
            head_only
        );
        record(request, reply, matched, logged, started, head_only ? 0 : reply.payload().size());
        co_return written&& keep_alive;
    }

    // Counts and logs one answered request of which `body_bytes` were written after the head.
    void record(
        const request_facts& request,
        const response& reply,
        const route* matched,
        bool logged,
        std::chrono::steady_clock::time_point started,
        std::size_t body_bytes
    ) {
        metrics().record_request(
            matched,
            request.method,
            static_cast<unsigned>(reply.status),
            std::chrono::steady_clock::now() - started,
            head_bytes_ + request.body_bytes,
            head_.size() + body_bytes
        );
        if (config_.access_log && logged) {
            log_request({
                .method = request.method_text,
                .path = request.target.substr(0, request.target.find('?')),
                .status = static_cast<unsigned>(reply.status),
                .duration = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - started
                ),
                .client = client_,
                .sandbox = request.head == nullptr ? std::string_view{} : sandbox_named(*request.head),
            });
        }
    }

    // Answers with a long-lived body: the head (no Content-Length, Connection: close), then the answer's
    // run() writes through this connection until it ends; the connection closes after it. A WebSocket
    // upgrade gets the same answer over Beast's WebSocket instead. Shutdown interrupts it through the slot;
    // the peer closing its side is noticed by a read kept pending.
    asio::awaitable<void> stream(
        const request_facts& facts,
        const http_request& request,
        const request_outcome& handled,
        std::chrono::steady_clock::time_point started,
        std::string_view more_headers,
        connection_slot* slot
    ) {
        const response& reply = handled.reply;
        if (slot != nullptr && slot->counted) {  // from now on --events-max-connections bounds it
            slot->counted = false;
            slot_guard::uncount(owner_);
        }
        // Named, not temporaries in the co_await expressions: GCC 12 destroys those twice (bug 99576).
        const std::function<void(std::function<void()>)> interrupt_with = [slot](std::function<void()> fn) {
            if (slot != nullptr) {
                slot->interrupt = std::move(fn);
            }
        };
        if (beast::websocket::is_upgrade(request)) {
            // Beast writes the 101 (or refuses the handshake).
            std::function<bool()> closing = [this] { return owner_.stopping || services_.state.draining(); };
            const std::size_t sent = co_await serve_websocket(
                stream_,
                request,
                *reply.stream,
                websocket_limits{},
                owner_.wakeups,
                std::move(closing),
                interrupt_with
            );
            response switched;
            switched.status = http::status::switching_protocols;
            record(facts, switched, handled.matched, handled.logged, started, sent);
            co_return;
        }
        const bool head_only = facts.method == http::verb::head;
        const bool written = co_await send(
            reply, {.keep_alive = false, .http10 = facts.http10, .more_headers = more_headers}, head_only
        );
        std::size_t streamed = 0;
        if (written && !head_only) {
            event_stream_sink sink(stream_, limits_.write_timeout, owner_, services_.state);
            interrupt_with(sink.waker());
            co_await reply.stream->run(sink);
            interrupt_with(nullptr);
            streamed = sink.bytes_written();
        }
        record(facts, reply, handled.matched, handled.logged, started, streamed);
    }

    asio::awaitable<bool> send(const response& reply, const head_options& options, bool head_only) {
        write_head(head_, reply, options);
        const std::array<asio::const_buffer, 2> buffers{
            asio::buffer(head_), head_only ? asio::const_buffer() : asio::buffer(reply.payload())};
        // Most responses fit in the socket's send buffer: one non-blocking write, no timer, no async
        // operation. Only what is left (a big body, a slow reader) goes out asynchronously under the timeout.
        boost::system::error_code ec;
        const std::size_t written = stream_.socket().write_some(buffers, ec);
        if (ec && ec != asio::error::would_block && ec != asio::error::try_again &&
            ec != asio::error::interrupted) {
            co_return false;
        }
        beast::buffers_suffix<std::array<asio::const_buffer, 2>> rest(buffers);
        rest.consume(ec ? 0 : written);
        if (beast::buffer_bytes(rest) == 0) {
            co_return true;
        }
        stream_.expires_after(limits_.write_timeout);
        auto [write_ec, n] = co_await asio::async_write(stream_, rest, use_tuple);
        co_return !write_ec;
    }

    // Answers a request that will not be dispatched, then closes without a reset: the client may still be
    // sending a body we never read, and closing at once would make the kernel send RST and could destroy
    // our answer in flight; so half-close and drain briefly first, as nginx's lingering close does.
    // (Callers pass a named local, never a temporary: GCC 12 destroys temporaries in a co_await
    // expression twice, bug 99576.)
    asio::awaitable<void> refuse(const response& reply) {
        const bool written =
            co_await send(reply, {.keep_alive = false, .http10 = false, .more_headers = {}}, false);
        metrics().record_request(
            nullptr,
            http::verb::unknown,
            static_cast<unsigned>(reply.status),
            {},
            0,
            head_.size() + reply.payload().size()
        );
        if (config_.access_log) {
            log_request(
                {.method = "-",
                 .path = "-",
                 .status = static_cast<unsigned>(reply.status),
                 .client = peer_text_,
                 .sandbox = {}}
            );
        }
        if (written) {
            co_await linger();
        }
    }

    // After a last answer while the client may still be sending: half-close, then read and discard for a
    // moment (at most 1 MiB, 1 s), so closing does not reset the connection under the answer in flight.
    asio::awaitable<void> linger() {
        boost::system::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        std::array<char, 4096> sink{};
        std::size_t drained = 0;
        stream_.expires_after(std::chrono::seconds(1));
        while (drained < 1024 * 1024) {
            auto [ec, n] = co_await stream_.async_read_some(asio::buffer(sink), use_tuple);
            if (ec) {
                break;
            }
            drained += n;
        }
    }

    // The access log's client: the TCP peer, or the client a trusted proxy names.
    std::string client_of(const http::request_header<>& head) const {
        if (config_.proxies.empty()) {
            return peer_text_;
        }
        return client_address(
            peer_, joined_fields(head, "X-Forwarded-For"), joined_fields(head, "Forwarded"), config_.proxies
        );
    }

    // A replayed request's client: the TCP peer, or the client a trusted proxy names in the fields kept.
    std::string client_of(const replay_entry& entry) const {
        if (config_.proxies.empty()) {
            return peer_text_;
        }
        return client_address(peer_, entry.forwarded_for, entry.forwarded, config_.proxies);
    }

    beast::tcp_stream stream_;
    asio::ip::address peer_;
    std::string peer_text_;
    std::string client_;  // the current request's client (the peer, or whom a trusted proxy names)
    beast::flat_buffer buffer_;
    std::string head_;
    std::size_t head_bytes_ = 0;             // the current request's header section
    std::string replay_key_;                 // the current GET's header section, when its answer may be kept
    request_parser* parser_ = nullptr;       // the request being served
    connection_slot* guard_slot_ = nullptr;  // this connection's slot in its worker
    worker& owner_;
    const listener_services& services_;
    const server_config& config_;
    const limits_config& limits_;
};

}  // namespace

asio::awaitable<void> run_session(
    tcp::socket socket, worker& owner, const listener_services& services, const server_config& config
) {
    connection c(std::move(socket), owner, services, config);
    co_await c.run();
}

}  // namespace storefront::server
