#pragma once
// The request inspector's records (issue 43): what a sandbox's requests and answers were, with their
// secrets redacted and their bodies cut, kept per sandbox in a bounded ring (the last 1,000) that live
// inspector streams follow. No Asio: a follower is woken through the callback it subscribed with, so
// redaction, cutting and the ring are tested without sockets. Thread-safe. Instances sharing one PostgreSQL
// keep the records in the database instead (request_logs::share_through), so that behind the balancer a
// client sees what every instance handled for its sandbox.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storage/event_log.hpp"

namespace storefront::server {

// What replaces a secret in a record.
inline constexpr std::string_view redacted_value = "[redacted]";
// Bodies are kept up to this many bytes (of what was sent, after redaction).
inline constexpr std::size_t recorded_body_limit = 4 * 1024;

// Whether a header's value is a secret (Authorization, Proxy-Authorization, Cookie, Set-Cookie, api_key;
// any case).
[[nodiscard]] bool secret_header(std::string_view name);
// Whether a JSON or form field's value is a secret: any name holding "password", "token" or "secret",
// api_key/apiKey, cvc/cvv (any case).
[[nodiscard]] bool secret_field(std::string_view name);
// The query string (without '?') with the values of secret parameters (api_key, password, tokens)
// replaced; the rest as sent.
[[nodiscard]] std::string redact_query(std::string_view query);

// A body as recorded: text as sent (valid UTF-8) or base64 (anything else), cut at recorded_body_limit.
struct recorded_body {
    std::string text;
    bool base64 = false;
    bool truncated = false;
    std::size_t size = 0;  // bytes as sent, before the cut
};
// `bytes` of content type `content_type` for a record: a JSON body (by type, or when it parses as an
// object or array) has its secret fields replaced (secret_field, and number/cvc of a "card" object); a
// JSON-typed body that does not parse and mentions a secret field's name is withheld whole; a form body
// has its secret fields replaced; then the cut.
[[nodiscard]] recorded_body record_body(std::string_view bytes, std::string_view content_type);

using header_list = std::vector<std::pair<std::string, std::string>>;

// One request and its answer, as the inspector shows it.
struct request_record {
    std::int64_t at_ms = 0;  // when it arrived, ms since the epoch
    std::string method;
    std::string path;     // as sent, the /sandbox/{id} prefix included
    std::string query;    // redacted, without '?'
    header_list headers;  // secret values already redacted (record_headers)
    recorded_body body;
    unsigned status = 0;
    double duration_ms = 0;
    header_list response_headers;
    recorded_body response_body;
};
// `headers` with the secret ones' values replaced.
[[nodiscard]] header_list record_headers(header_list headers);
// {"at","method","path","query","headers":{…},"body":…,"bodyBase64","bodyTruncated","bodySize","status",
//  "durationMs","response":{"headers","body","bodyBase64","bodyTruncated","bodySize"}}; a header sent
// more than once has its values joined with ", ".
[[nodiscard]] std::string record_json(const request_record& r);

// A live follower of one sandbox's records: its queue of records not yet sent, bounded; one that falls
// behind is marked overflowed (its stream ends). Filled under the log's lock, then `wake` is called, which
// must only signal (never call back into the log).
class record_follower {
  public:
    explicit record_follower(std::function<void()> wake) : wake_(std::move(wake)) {}
    struct batch {
        std::vector<std::shared_ptr<const std::string>> records;  // oldest first
        bool overflowed = false;
        bool closed = false;  // the log was dropped or the instance drains
    };
    [[nodiscard]] batch take();

  private:
    friend class request_log;
    void offer(const std::shared_ptr<const std::string>& json, std::size_t limit);
    void finish();

    std::mutex mutex_;
    std::function<void()> wake_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    bool overflowed_ = false;
    bool closed_ = false;
};

// The shared log's data set of `sandbox`'s records ("requests:" and the id: never a data set of the change
// feed, whose names are sandbox ids or "").
[[nodiscard]] std::string shared_data_set(std::string_view sandbox);

// One sandbox's records: the newest `capacity`, as JSON.
class request_log {
  public:
    explicit request_log(std::size_t capacity = 1'000, std::size_t follower_queue = 256)
        : capacity_(capacity), follower_queue_(follower_queue) {}
    void add(const request_record& r);
    // Up to `limit` records, newest first, as a JSON array.
    [[nodiscard]] std::string newest_json(std::size_t limit) const;
    [[nodiscard]] std::size_t size() const;
    void clear();
    [[nodiscard]] std::shared_ptr<record_follower> follow(std::function<void()> wake);
    void unfollow(const std::shared_ptr<record_follower>& f);
    // Ends every follower's stream (the log is dropped, or the instance drains).
    void close_followers();

    // Shared records (request_logs::share_through): hands one to the followers only (the database keeps
    // it), and the id of the newest one handed or known when the first stream started.
    void relay(const std::shared_ptr<const std::string>& json);
    [[nodiscard]] bool followed() const;
    [[nodiscard]] std::uint64_t shared_seen() const { return shared_seen_.load(std::memory_order_acquire); }
    void see(std::uint64_t id) { shared_seen_.store(id, std::memory_order_release); }

  private:
    std::size_t capacity_;
    std::size_t follower_queue_;
    mutable std::mutex mutex_;
    std::deque<std::shared_ptr<const std::string>> records_;  // oldest first
    std::vector<std::shared_ptr<record_follower>> followers_;
    std::atomic<std::uint64_t> shared_seen_{0};
};

// The log of each sandbox. Any valid id may be named, so at most `max_logs` logs are kept: the one written
// longest ago goes first (its followers are closed).
class request_logs {
  public:
    explicit request_logs(std::size_t max_logs = 1'000, std::size_t capacity = 1'000)
        : max_logs_(max_logs), capacity_(capacity) {}
    // The log of `sandbox`, made if it has none.
    [[nodiscard]] std::shared_ptr<request_log> of(std::string_view sandbox);
    // The log of `sandbox` if it has one, else nullptr (reading makes none).
    [[nodiscard]] std::shared_ptr<request_log> find(std::string_view sandbox) const;
    // Records `r` in `sandbox`'s log.
    void add(std::string_view sandbox, const request_record& r);
    // Up to `limit` of `sandbox`'s records, newest first, as a JSON array ("[]" when it has none).
    [[nodiscard]] std::string newest_json(std::string_view sandbox, std::size_t limit) const;
    // Forgets `sandbox`'s records; its streams go on.
    void clear(std::string_view sandbox);
    // The log a new stream of `sandbox` follows (made if it has none).
    [[nodiscard]] std::shared_ptr<request_log> followed_log(std::string_view sandbox);
    // Forgets `sandbox`'s log (the sandbox was removed); its followers' streams end.
    void drop(std::string_view sandbox);
    void close_all();
    [[nodiscard]] std::size_t log_count() const;

    // From now on the records live in `log` (PostgreSQL: every instance on the database writes and reads
    // the same ones), the last `capacity` of each sandbox, and a stream on any instance hears each record
    // any instance stores. Then add, newest_json, clear, followed_log and drop call the database: callers
    // run them off the I/O threads. Call once, before use.
    void share_through(std::unique_ptr<storage::event_log> log);
    [[nodiscard]] bool shared() const { return shared_ != nullptr; }
    // Shared records: forgets those of every sandbox with no record since `idle_before_ms` (ms since the
    // epoch). A sandbox that only reads is never removed, so this is what bounds its records' rows.
    void forget_idle_shared(std::int64_t idle_before_ms);

  private:
    struct entry {
        std::shared_ptr<request_log> log;
        std::uint64_t used = 0;
    };
    // The shared records (request_sharing.cpp).
    void add_shared(std::string_view sandbox, const request_record& r);
    [[nodiscard]] std::string newest_shared_json(std::string_view sandbox, std::size_t limit) const;
    void prime(std::string_view sandbox, request_log& log);
    void heard(std::optional<std::string_view> data_set);
    void relay_new(std::string_view sandbox, request_log& log);

    std::size_t max_logs_;
    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::uint64_t clock_ = 0;
    std::map<std::string, entry, std::less<>> logs_;
    std::unique_ptr<storage::event_log> shared_;  // last: unsubscribed before the logs go
};

}  // namespace storefront::server
