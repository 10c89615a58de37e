// event_hub: type filters, the bounded history with its ids, subscribers' bounded queues and the
// process-wide stream limit. No I/O here: streams (SSE, WebSocket) drain subscriptions on their own threads.

#include "server/services/event_hub.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include "core/text.hpp"
#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

std::string_view family_of(std::string_view type) {
    return type.substr(0, type.find('.'));
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch()
    )
        .count();
}

}  // namespace

bool event_filter::known(std::string_view pattern) {
    if (pattern.ends_with(".*")) {
        const auto family = pattern.substr(0, pattern.size() - 2);
        return std::any_of(std::begin(event_types), std::end(event_types), [&](std::string_view t) {
            return family_of(t) == family;
        });
    }
    return std::find(std::begin(event_types), std::end(event_types), pattern) != std::end(event_types);
}

core::result<event_filter> event_filter::parse(std::string_view list) {
    std::vector<std::string> patterns;
    while (!list.empty()) {
        const auto comma = list.find(',');
        patterns.emplace_back(core::trim_spaces(list.substr(0, comma)));
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    return of(patterns);
}

core::result<event_filter> event_filter::of(std::span<const std::string> patterns) {
    event_filter f;
    for (const auto& p : patterns) {
        if (p.empty()) {
            continue;  // "product.*," or an empty ?types=
        }
        if (!known(p)) {
            return core::errc::invalid_input;
        }
        f.patterns_.push_back(p);
    }
    return f;
}

bool event_filter::matches(std::string_view type) const {
    if (patterns_.empty()) {
        return true;
    }
    return std::any_of(patterns_.begin(), patterns_.end(), [&](std::string_view p) {
        if (p.ends_with(".*")) {
            return family_of(type) == p.substr(0, p.size() - 2);
        }
        return p == type;
    });
}

std::string event_filter::allowed_patterns() {
    std::string out;
    std::string_view family;
    for (const std::string_view t : event_types) {
        if (family_of(t) != family) {
            family = family_of(t);
            out.append(out.empty() ? "" : ", ").append(family).append(".*");
        }
        out.append(", ").append(t);
    }
    return out;
}

event_subscription::event_subscription(event_filter filter, event_viewer viewer, std::function<void()> wake)
    : filter_(std::move(filter)), viewer_(viewer), wake_(std::move(wake)) {}

event_subscription::batch event_subscription::take() {
    batch out;
    std::lock_guard lock(mutex_);
    out.events.assign(queue_.begin(), queue_.end());
    queue_.clear();
    out.ending = ending_;
    return out;
}

void event_subscription::refilter(event_filter filter) {
    std::lock_guard lock(mutex_);
    filter_ = std::move(filter);
}

bool event_subscription::offer(const event_ptr& e, std::size_t queue_limit) {
    bool kept = true;
    {
        std::lock_guard lock(mutex_);
        if (ending_ != end::none) {
            return true;
        }
        if (!filter_.matches(e->type) || !viewer_.may_see(e->audience)) {
            return true;
        }
        if (queue_.size() >= queue_limit) {
            ending_ = end::overflow;
            queue_.clear();  // never sent: the stream ends with `overflow`, the client reloads
            kept = false;
        } else {
            queue_.push_back(e);
        }
    }
    if (wake_) {
        wake_();
    }
    return kept;
}

void event_subscription::finish(end why) {
    {
        std::lock_guard lock(mutex_);
        if (ending_ != end::none) {
            return;
        }
        ending_ = why;
    }
    if (wake_) {
        wake_();
    }
}

event_feed_counts& event_feed_counters() {
    static event_feed_counts counts;
    return counts;
}

std::optional<event_stream_ticket> event_stream_ticket::take(std::size_t max) {
    auto& open = event_feed_counters().subscribers;
    std::uint64_t now = open.load(std::memory_order_relaxed);
    do {
        if (now >= max) {
            event_feed_counters().refused.fetch_add(1, std::memory_order_relaxed);
            return std::nullopt;
        }
    } while (!open.compare_exchange_weak(now, now + 1, std::memory_order_relaxed));
    return event_stream_ticket();
}

event_stream_ticket::~event_stream_ticket() {
    if (held_) {
        event_feed_counters().subscribers.fetch_sub(1, std::memory_order_relaxed);
    }
}

std::string event_json(std::string_view type, std::uint64_t id, std::string_view data, std::int64_t at_ms) {
    std::string out;
    out.reserve(data.size() + 96);
    json_writer w(out);
    w.begin_object()
        .key("type")
        .value(type)
        .key("id")
        .value(std::to_string(id))
        .key("data")
        .raw(data)
        .key("at")
        .value(iso8601_ms(at_ms))
        .end_object();
    return out;
}

event_hub::event_hub(event_hub_limits limits, storage::event_log* log, std::string data_set)
    : limits_(limits), log_(log), data_set_(std::move(data_set)) {
    limits_.history = std::max<std::size_t>(limits_.history, 1);
    limits_.queue = std::max<std::size_t>(limits_.queue, 1);
    if (log_ != nullptr) {
        try {
            catch_up();                    // the shared history so far: resuming works on any instance
        } catch (const std::exception&) {  // storage down: the next append or notification catches up
        }
    }
}

namespace {

std::string sse_block(const change_event& e) {
    std::string out;
    out.reserve(e.json.size() + e.type.size() + 40);
    out.append("id: ").append(std::to_string(e.id)).append("\nevent: ").append(e.type);
    out.append("\ndata: ").append(e.json).append("\n\n");
    return out;
}

event_ptr event_of(storage::stored_event&& stored) {
    auto e = std::make_shared<change_event>();
    e->id = stored.id;
    e->type = std::move(stored.type);
    e->json = event_json(e->type, e->id, stored.data, stored.at_ms);
    e->sse = sse_block(*e);
    e->audience.owner = stored.owner;
    return e;
}

}  // namespace

void event_hub::publish(std::string_view type, std::string_view data, event_audience audience) {
    if (log_ != nullptr) {
        const auto appended = log_->append(data_set_, type, data, audience.owner, now_ms());
        if (appended.id % 256 == 0) {
            log_->trim(data_set_, limits_.history);  // the shared history stays bounded too
        }
        if (appended.id > last_id()) {
            catch_up();  // takes it in, after any other instance's events it has not seen yet
        }  // else another append of its batch (or a notification) took it in already: one read, not one each
        return;
    }
    std::lock_guard lock(mutex_);
    auto e = std::make_shared<change_event>();
    e->id = last_id_ + 1;
    e->type = type;
    e->json = event_json(type, e->id, data, now_ms());
    e->sse = sse_block(*e);
    e->audience = audience;
    add_locked(std::move(e));
}

void event_hub::catch_up() {
    if (log_ == nullptr) {
        return;
    }
    std::lock_guard one_at_a_time(catch_up_mutex_);
    const std::uint64_t known = last_id();
    auto fresh = log_->after(data_set_, known, limits_.history);
    if (fresh.empty()) {
        return;
    }
    std::lock_guard lock(mutex_);
    if (fresh.front().id != known + 1 && known != 0) {
        // More than the history came meanwhile (a long outage): what was missed is gone, as for a client
        // resuming too late; subscribers stay and get the newest events.
        history_.clear();
    }
    for (auto& stored : fresh) {
        if (stored.id > last_id_) {
            add_locked(event_of(std::move(stored)));
        }
    }
}

void event_hub::publish_made(event_ptr e) {
    std::lock_guard lock(mutex_);
    if (e->id <= last_id_) {
        return;
    }
    add_locked(std::move(e));
}

void event_hub::add_locked(event_ptr e) {
    last_id_ = e->id;
    history_.push_back(e);
    while (history_.size() > limits_.history) {
        history_.pop_front();
    }
    // Offering takes each subscriber's own lock briefly and never waits on its stream.
    std::erase_if(subscribers_, [&](const std::shared_ptr<event_subscription>& s) {
        if (!s->offer(e, limits_.queue)) {
            event_feed_counters().overflow_closes.fetch_add(1, std::memory_order_relaxed);
            return true;
        }
        return false;
    });
}

void event_hub::replay_locked(
    opened& out, std::uint64_t last_seen, const event_filter& f, const event_viewer& v
) const {
    // Ids are consecutive, so the history holds everything after `last_seen` iff it starts at or before
    // last_seen + 1; an id from the future (another process's numbering, a restart) is unknown here.
    const std::uint64_t oldest = history_.empty() ? last_id_ + 1 : history_.front()->id;
    if (last_seen > last_id_ || last_seen + 1 < oldest) {
        out.reset = true;
        return;
    }
    for (const auto& e : history_) {
        if (e->id > last_seen && f.matches(e->type) && v.may_see(e->audience)) {
            out.replay.push_back(e);
        }
    }
}

event_hub::opened event_hub::subscribe(
    event_filter filter,
    event_viewer viewer,
    std::optional<std::uint64_t> last_seen,
    std::function<void()> wake
) {
    opened out;
    std::lock_guard lock(mutex_);
    if (last_seen) {
        replay_locked(out, *last_seen, filter, viewer);
    }
    out.subscription = std::make_shared<event_subscription>(std::move(filter), viewer, std::move(wake));
    subscribers_.push_back(out.subscription);
    return out;
}

void event_hub::unsubscribe(const std::shared_ptr<event_subscription>& s) {
    std::lock_guard lock(mutex_);
    std::erase(subscribers_, s);
}

void event_hub::close_all() {
    std::vector<std::shared_ptr<event_subscription>> closing;
    {
        std::lock_guard lock(mutex_);
        closing.swap(subscribers_);
    }
    for (const auto& s : closing) {
        s->finish(event_subscription::end::closed);
    }
}

std::uint64_t event_hub::last_id() const {
    std::lock_guard lock(mutex_);
    return last_id_;
}

std::size_t event_hub::subscriber_count() const {
    std::lock_guard lock(mutex_);
    return subscribers_.size();
}

event_hubs::event_hubs(event_hub_limits limits, std::unique_ptr<storage::event_log> log)
    : limits_(limits), log_(std::move(log)) {
    if (log_) {
        log_->on_append([this](std::optional<std::string_view> data_set) { heard(data_set); });
    }
}

void event_hubs::heard(std::optional<std::string_view> data_set) {
    std::vector<std::shared_ptr<event_hub>> behind;
    {
        std::lock_guard lock(mutex_);
        if (data_set) {
            if (const auto it = hubs_.find(*data_set); it != hubs_.end()) {
                behind.push_back(it->second);
            }
        } else {
            for (const auto& [name, hub] : hubs_) {
                behind.push_back(hub);
            }
        }
    }
    for (const auto& hub : behind) {
        try {
            hub->catch_up();
        } catch (const std::exception&) {  // storage down: the next notification or append catches up
        }
    }
}

std::shared_ptr<event_hub> event_hubs::of(std::string_view data_set) {
    std::lock_guard lock(mutex_);
    auto it = hubs_.find(data_set);
    if (it == hubs_.end()) {
        // Any sandbox id may be named, so the table is swept as it grows: a hub that neither a view of
        // its data set nor a stream holds any more goes (a later stream there starts a new numbering, and a
        // client resuming with an old id gets a reset).
        const std::size_t size = hubs_.size();
        if (size >= 1024 && (size & (size - 1)) == 0) {
            std::erase_if(hubs_, [](const auto& entry) { return entry.second.use_count() == 1; });
        }
        it = hubs_
                 .emplace(
                     std::string(data_set),
                     std::make_shared<event_hub>(limits_, log_.get(), std::string(data_set))
                 )
                 .first;
    }
    return it->second;
}

void event_hubs::drop(std::string_view data_set) {
    std::shared_ptr<event_hub> dropped;
    {
        std::lock_guard lock(mutex_);
        const auto it = hubs_.find(data_set);
        if (it == hubs_.end()) {
            return;
        }
        dropped = std::move(it->second);
        hubs_.erase(it);
    }
    dropped->close_all();
    if (log_) {
        try {
            log_->trim(data_set, 0);  // a removed sandbox's history goes with it
        } catch (const std::exception&) {
        }
    }
}

void event_hubs::close_all() {
    std::vector<std::shared_ptr<event_hub>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [name, hub] : hubs_) {
            all.push_back(hub);
        }
    }
    for (const auto& hub : all) {
        hub->close_all();
    }
}

}  // namespace storefront::server
