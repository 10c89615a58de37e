#pragma once
// The change feed of one data set (issue 43): events with increasing ids, a bounded history to resume
// from, and subscribers, each with a bounded queue of events not yet sent. Publishing never waits for a
// subscriber: one whose queue is full is marked overflowed and dropped (its stream ends with a last
// `overflow` event). No Asio: a subscriber is woken through the callback it subscribed with, so the logic
// (filters, history, ids, audiences) is tested without sockets. Thread-safe.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/errc.hpp"
#include "storage/event_log.hpp"

namespace storefront::server {

// Every event type the feed carries. `order.*` and `payment.*` come from the shop (issue 42) through
// event_hub::publish with an audience; listed here so filters naming them are accepted.
inline constexpr std::string_view event_types[] = {
    "product.created",
    "product.updated",
    "product.deleted",
    "category.created",
    "category.updated",
    "category.deleted",
    "user.created",
    "user.updated",
    "user.deleted",
    "order.created",
    "order.updated",
    "order.cancelled",
    "order.expired",
    "payment.succeeded",
    "payment.failed",
    "payment.requires_action",
};

// A set of type patterns: a full type ("category.updated") or a family ("product.*"). Empty: every type.
class event_filter {
  public:
    // "product.*,category.updated" (commas, optional spaces); errc::invalid_input for an unknown pattern.
    [[nodiscard]] static core::result<event_filter> parse(std::string_view list);
    // The same from separate patterns (the WebSocket's {"subscribe": [...]}).
    [[nodiscard]] static core::result<event_filter> of(std::span<const std::string> patterns);
    [[nodiscard]] bool matches(std::string_view type) const;
    // "product.*, product.created, …": what an error message names as allowed.
    [[nodiscard]] static std::string allowed_patterns();

  private:
    [[nodiscard]] static bool known(std::string_view pattern);
    std::vector<std::string> patterns_;
};

// Who may see an event: everyone (the catalogue and users), or only the owner and admins (orders).
struct event_audience {
    std::optional<std::int64_t> owner;  // nullopt: public
};

// Who a subscriber is, as its stream was authenticated.
struct event_viewer {
    std::optional<std::int64_t> user;
    bool admin = false;
    [[nodiscard]] bool may_see(const event_audience& audience) const {
        return !audience.owner || admin || (user && *user == *audience.owner);
    }
};

// One published change. `json` is the whole event as a client receives it:
// {"type":"product.created","id":"12","data":{...},"at":"2026-11-27T13:40:00.000Z"}.
struct change_event {
    std::uint64_t id = 0;
    std::string type;
    std::string json;  // {"type","id","data","at"}: a WebSocket message as it is
    std::string sse;  // "id: …\nevent: …\ndata: <json>\n\n": rendered once, written to every SSE subscriber
    event_audience audience;
};
using event_ptr = std::shared_ptr<const change_event>;

// The bounds of every hub (the flags --events-history and the subscriber queue).
struct event_hub_limits {
    std::size_t history = 10'000;  // events kept to resume from
    std::size_t queue = 1'024;     // events one subscriber may have waiting before it overflows
};

class event_hub;

// One subscriber: its filter, viewer and the events waiting to be sent. take() is called by the stream
// that owns it; the hub fills it from any thread and then calls `wake`, under the hub's lock: `wake` only
// signals (posts to the stream's thread) and must not call back into the hub.
class event_subscription {
  public:
    enum class end { none, overflow, closed };
    struct batch {
        std::vector<event_ptr> events;
        end ending = end::none;  // overflow: the queue filled up; closed: the hub closed it (drain)
    };
    event_subscription(event_filter filter, event_viewer viewer, std::function<void()> wake);

    // The events waiting now (in id order), and whether the stream must end after sending them.
    [[nodiscard]] batch take();
    // Changes the filter from now on (events already queued stay).
    void refilter(event_filter filter);

  private:
    friend class event_hub;
    // Under the hub's lock: queues `e` if it passes the filter and audience. False when the queue is full.
    bool offer(const event_ptr& e, std::size_t queue_limit);
    void finish(end why);

    std::mutex mutex_;
    event_filter filter_;
    event_viewer viewer_;
    std::function<void()> wake_;
    std::deque<event_ptr> queue_;
    end ending_ = end::none;
};

// Process-wide counts for /metrics, and the --events-max-connections bound over every hub.
struct event_feed_counts {
    std::atomic<std::uint64_t> subscribers{0};
    std::atomic<std::uint64_t> events_sent{0};
    std::atomic<std::uint64_t> overflow_closes{0};
    std::atomic<std::uint64_t> refused{0};  // streams refused with 503 at the connection limit
};
[[nodiscard]] event_feed_counts& event_feed_counters();

// A place among --events-max-connections streams; released when destroyed.
class event_stream_ticket {
  public:
    // A ticket, or nullopt when `max` streams are open already (then counted as refused).
    [[nodiscard]] static std::optional<event_stream_ticket> take(std::size_t max);
    event_stream_ticket(event_stream_ticket&& other) noexcept : held_(other.held_) { other.held_ = false; }
    event_stream_ticket& operator=(event_stream_ticket&&) = delete;
    ~event_stream_ticket();

  private:
    event_stream_ticket() = default;
    bool held_ = true;
};

class event_hub {
  public:
    // With a `log` (PostgreSQL), the history and the ids of `data_set` live there, shared by every
    // instance: the hub loads the newest events at once and follows the log (catch_up).
    explicit event_hub(
        event_hub_limits limits = {}, storage::event_log* log = nullptr, std::string data_set = {}
    );

    // Publishes a committed change: `type` (one of event_types), `data` the resource's JSON as GET shows it
    // ({"id":12} for a delete), for `audience`. Never blocks on a subscriber. Stamped with the time now.
    // With a log it appends there first, a blocking call (shared() says so: run it on the storage pool),
    // and may throw storage_unavailable.
    void publish(std::string_view type, std::string_view data, event_audience audience = {});
    // Whether publish() and catch_up() call shared storage (and so block).
    [[nodiscard]] bool shared() const { return log_ != nullptr; }
    // With a log: takes in the events appended since the newest one here (by any instance), in id order.
    // Called after an own append and when the log tells of another instance's. Blocks; may throw.
    void catch_up();
    // The same with an id and JSON made elsewhere (another instance's event, read from shared storage);
    // ignored unless `id` is newer than the last one here.
    void publish_made(event_ptr e);

    struct opened {
        std::shared_ptr<event_subscription> subscription;
        std::vector<event_ptr> replay;  // the missed events after `last_seen`, filtered, oldest first
        bool reset = false;  // `last_seen` is older than the history (or unknown): the client must reload
    };
    // Subscribes; with `last_seen` (a resumed stream) the events after it are replayed, atomically with
    // the subscription, so none is lost or repeated between the two.
    [[nodiscard]] opened subscribe(
        event_filter filter,
        event_viewer viewer,
        std::optional<std::uint64_t> last_seen,
        std::function<void()> wake
    );
    void unsubscribe(const std::shared_ptr<event_subscription>& s);

    // Ends every subscription (they end with `closed`): the drain.
    void close_all();

    [[nodiscard]] std::uint64_t last_id() const;
    [[nodiscard]] std::size_t subscriber_count() const;

  private:
    void add_locked(event_ptr e);
    void replay_locked(opened& out, std::uint64_t last_seen, const event_filter& f, const event_viewer& v)
        const;

    event_hub_limits limits_;
    storage::event_log* log_;
    std::string data_set_;
    std::mutex catch_up_mutex_;  // one catch_up at a time, so events are taken in once and in order
    mutable std::mutex mutex_;
    std::uint64_t last_id_ = 0;
    std::deque<event_ptr> history_;
    std::vector<std::shared_ptr<event_subscription>> subscribers_;
};

// The hub of each data set: "" is the shared view, else a sandbox id. A hub lives until its data set is
// dropped (drop()), so a stream opened before a sandbox's first write hears it.
class event_hubs {
  public:
    // With a `log`, every hub shares its history there and follows the other instances' appends.
    explicit event_hubs(event_hub_limits limits = {}, std::unique_ptr<storage::event_log> log = nullptr);
    [[nodiscard]] std::shared_ptr<event_hub> of(std::string_view data_set);
    // Forgets a sandbox's hub (its subscribers are closed) when the sandbox is removed.
    void drop(std::string_view data_set);
    // close_all on every hub (the drain).
    void close_all();
    [[nodiscard]] const event_hub_limits& limits() const { return limits_; }

  private:
    // The log's news: the hub of `data_set` (every hub for nullopt) catches up.
    void heard(std::optional<std::string_view> data_set);

    event_hub_limits limits_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<event_hub>, std::less<>> hubs_;
    // Last, so it goes first: its listener subscription (which calls heard()) ends before the hubs do.
    std::unique_ptr<storage::event_log> log_;
};

// The JSON of an event: {"type":…,"id":"…","data":…,"at":…}.
[[nodiscard]] std::string event_json(
    std::string_view type, std::uint64_t id, std::string_view data, std::int64_t at_ms
);

}  // namespace storefront::server
