// The front door (front_door.hpp): client, rate limit and replay, before routing.

#include "front_door.hpp"

#include "server/ops/client_address.hpp"
#include "server/ops/metrics.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/transport/framing_policy.hpp"

namespace storefront::server {

namespace {

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

}  // namespace

front_door::front_door(
    worker& owner,
    const listener_services& services,
    const server_config& config,
    const boost::asio::ip::address& peer,
    std::string_view peer_text
)
    : owner_(owner), services_(services), config_(config), peer_(peer), peer_text_(peer_text) {}

std::shared_ptr<const replay_entry> front_door::replayed(std::string_view header) {
    replay_key_.clear();
    const data_revision* data = services_.routing.shared_data;
    if (data == nullptr || services_.routing.fault_injection) {
        return nullptr;
    }
    if (!header.starts_with("GET ") || header.size() > replay_cache::cache_type::max_request_head) {
        return nullptr;
    }
    auto found = owner_.replay.find(header, *data);
    if (!found) {
        replay_key_.assign(header);
    }
    return found;
}

door_verdict front_door::admit(const replay_entry& entry) {
    // The client a trusted proxy named in the fields kept with the answer.
    std::string client = config_.proxies.empty()
                             ? std::string(peer_text_)
                             : client_address(peer_, entry.forwarded_for, entry.forwarded, config_.proxies);
    door_verdict verdict = rate_limited(entry.target, std::move(client));
    if (verdict.refused) {
        // The same Origin as the replayed request's (its header bytes are the same): a browser app of an
        // allowed origin can read the 429.
        verdict.refused->cors_origin = entry.reply.cors_origin;
        verdict.refused->vary_origin = entry.reply.vary_origin;
    } else {
        metrics().replayed();
    }
    return verdict;
}

door_verdict front_door::admit(const http::request_header<>& head) {
    std::string client = config_.proxies.empty() ? std::string(peer_text_)
                                                 : client_address(
                                                       peer_,
                                                       joined_fields(head, "X-Forwarded-For"),
                                                       joined_fields(head, "Forwarded"),
                                                       config_.proxies
                                                   );
    const auto target = head.target();
    door_verdict verdict = rate_limited(std::string_view(target.data(), target.size()), std::move(client));
    if (verdict.refused) {
        apply_cors(services_.routing.cors, head, *verdict.refused);  // readable by allowed apps
    }
    return verdict;
}

door_verdict front_door::rate_limited(std::string_view target, std::string client) const {
    door_verdict out;
    out.client = std::move(client);
    if (services_.rate_limit == nullptr) {
        return out;
    }
    rate_limit_verdict verdict = services_.rate_limit->admit(target, out.client);
    if (!verdict.refused) {
        out.rate_headers = std::move(verdict.headers);
        return out;
    }
    metrics().rate_limited();
    out.refused = std::move(verdict.reply);
    return out;
}

void front_door::keep(const http_request& request, const request_outcome& handled) {
    if (!handled.reusable_at || replay_key_.empty() || request.chunked() || request.has_content_length()) {
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
    // The rows it reads, as the row of the route it matched states them (none: every table).
    entry->scope =
        scope_of(entry->matched != nullptr ? entry->matched->reuse.reads : rows_read{}, entry->target);
    owner_.replay.keep(std::move(entry), *handled.reusable_at, *services_.routing.shared_data);
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

}  // namespace storefront::server
