// One HTTP/1.1 connection as a coroutine: the request path's stages in order. connection_io reads a
// header section; the front door answers it from the replay cache or lets it in past the rate limit;
// routing (handle_request: admission, the handler, finishing) answers it, reading the body through this
// connection under the route's limit; the answer is written and accounted for. Keep-alive and pipelining
// fall out of the loop: connection_io's buffer keeps any bytes read ahead.

#include <chrono>
#include <memory>

#include "connection_io.hpp"
#include "front_door.hpp"
#include "request_accounting.hpp"
#include "server/ops/metrics.hpp"
#include "server/routing/dispatch.hpp"
#include "stream_delivery.hpp"
#include "worker.hpp"

namespace storefront::server {

namespace asio = boost::asio;
using asio::ip::tcp;
using clock_type = std::chrono::steady_clock;

namespace {

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
        : io_(std::move(socket), config.limits, config.access_log, &owner.wakeups->sends()),
          door_(owner, services, config, io_.peer(), io_.peer_text()),
          owner_(owner),
          services_(services),
          config_(config) {}

    asio::awaitable<void> run() {
        metrics().connection_opened();
        const slot_guard guard{
            owner_, owner_.connections.insert(owner_.connections.end(), {&io_.stream(), false, {}})};
        slot_ = &*guard.slot;
        std::size_t served = 0;
        while (!owner_.stopping) {
            const std::size_t end = co_await io_.read_header_section(served == 0);
            if (end == connection_io::no_header) {
                break;
            }
            ++served;
            const bool may_keep_alive = served < config_.limits.max_requests_per_connection;
            bool keep_alive = false;
            if (auto replayed = door_.replayed(io_.header(end))) {
                io_.consume_header(end);
                slot_->busy = true;
                keep_alive = co_await replay(*replayed, may_keep_alive);
            } else {
                request_parser parser;
                if (!co_await io_.admit_head(parser, end)) {
                    break;
                }
                slot_->busy = true;
                keep_alive = co_await serve(parser, may_keep_alive);
            }
            slot_->busy = false;
            if (!keep_alive) {
                break;
            }
        }
        io_.close();
    }

  private:
    // Answers a request with what the replay cache kept for its bytes, under a head written now.
    asio::awaitable<bool> replay(const replay_entry& entry, bool may_keep_alive) {
        const auto started = clock_type::now();
        const request_facts facts = facts_of(entry);
        door_verdict verdict = door_.admit(entry);
        client_ = std::move(verdict.client);
        if (verdict.refused) {
            co_return co_await deliver(facts, *verdict.refused, nullptr, true, may_keep_alive, started);
        }
        co_return co_await deliver(
            facts, entry.reply, entry.matched, entry.logged, may_keep_alive, started, verdict.rate_headers
        );
    }

    // Hands the request to routing (which has its body read under the route's limit, through read_body)
    // and answers it. True if the connection stays open.
    asio::awaitable<bool> serve(request_parser& parser, bool may_keep_alive) {
        const auto started = clock_type::now();  // for the latency histogram and access log
        const http_request& request = parser.get();
        door_verdict verdict = door_.admit(request.base());
        client_ = std::move(verdict.client);  // the login brake counts per client too
        if (verdict.refused) {
            // A body still unread cannot be skipped safely: answer, then close after a lingering drain.
            const bool body_unread = !parser.is_done();
            const bool kept = co_await deliver(
                facts_of(request), *verdict.refused, nullptr, true, may_keep_alive && !body_unread, started
            );
            if (body_unread) {
                co_await io_.linger();
            }
            co_return kept && !body_unread;
        }
        parser_ = &parser;
        request_outcome handled = co_await handle_request(request, *this, services_.routing);
        parser_ = nullptr;
        switch (handled.outcome) {
            case request_outcome::kind::abandoned:
                co_return false;
            case request_outcome::kind::answered_unread:
                handled.reply.extra_headers += verdict.rate_headers;
                co_await io_.refuse(handled.reply);
                co_return false;
            case request_outcome::kind::answered:
                break;
        }
        const request_facts facts = facts_of(request);
        if (handled.reply.stream) {
            if (slot_->counted) {  // from now on --events-max-connections bounds it
                slot_->counted = false;
                slot_guard::uncount(owner_);
            }
            const head_options options{
                .keep_alive = false, .http10 = facts.http10, .more_headers = verdict.rate_headers};
            const stream_connection stream_on{io_, owner_, services_.state, slot_};
            const stream_delivered streamed =
                co_await deliver_stream(stream_on, request, handled.reply, options);
            response logged_as;  // the metrics and log read its status only
            logged_as.status = streamed.status;
            account(facts, logged_as, handled.matched, handled.logged, started, streamed.bytes);
            co_return false;
        }
        door_.keep(request, handled);
        co_return co_await deliver(
            facts,
            handled.reply,
            handled.matched,
            handled.logged,
            may_keep_alive,
            started,
            verdict.rate_headers
        );
    }

    // body_source: the current request's parser.
    bool body_complete() const override { return parser_->is_done(); }
    std::string_view client() const override { return client_; }
    bool from_trusted_proxy() const override {
        return !config_.proxies.empty() && config_.proxies.contains(io_.peer());
    }
    asio::awaitable<bool> read_body(std::size_t limit) override { return io_.read_body(*parser_, limit); }

    // Writes the response (with `more_headers`, this request's own lines) and accounts for it. True if the
    // connection stays open.
    asio::awaitable<bool> deliver(
        const request_facts& request,
        const response& reply,
        const route* matched,
        bool logged,
        bool may_keep_alive,
        clock_type::time_point started,
        std::string_view more_headers = {}
    ) {
        // While draining, every connection ends after its next response (Connection: close), so clients
        // move to the other instances before this one stops accepting.
        const bool keep_alive = may_keep_alive && request.keep_alive && !reply.close_connection &&
                                !owner_.stopping && !services_.state.draining();
        const bool head_only = request.method == http::verb::head;
        const bool written = co_await io_.send(
            reply,
            {.keep_alive = keep_alive, .http10 = request.http10, .more_headers = more_headers},
            head_only
        );
        account(request, reply, matched, logged, started, head_only ? 0 : reply.payload().size());
        co_return written&& keep_alive;
    }

    // Counts and logs one answered request of which `body_bytes` were written after the head.
    void account(
        const request_facts& request,
        const response& reply,
        const route* matched,
        bool logged,
        clock_type::time_point started,
        std::size_t body_bytes
    ) const {
        account_answered(
            {.request = request,
             .reply = reply,
             .matched = matched,
             .logged = logged,
             .started = started,
             .bytes_in = io_.header_bytes() + request.body_bytes,
             .bytes_out = io_.head_written() + body_bytes,
             .client = client_},
            config_.access_log
        );
    }

    connection_io io_;
    front_door door_;
    std::string client_;  // the current request's client (the peer, or whom a trusted proxy names)
    request_parser* parser_ = nullptr;  // the request being served
    connection_slot* slot_ = nullptr;   // this connection's slot in its worker
    worker& owner_;
    const listener_services& services_;
    const server_config& config_;
};

}  // namespace

asio::awaitable<void> run_session(
    tcp::socket socket, worker& owner, const listener_services& services, const server_config& config
) {
    connection c(std::move(socket), owner, services, config);
    co_await c.run();
}

}  // namespace storefront::server
