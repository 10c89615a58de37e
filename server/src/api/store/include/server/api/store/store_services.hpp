#pragma once
// What the store surface's handlers (/api/v1) use, handed to each of them by the router as the
// composition root mounted the table with (Boost.MySQL's orders example passes its repository the same way).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/asio/awaitable.hpp>

#include "core/auth_tokens.hpp"
#include "core/compat.hpp"
#include "core/order_states.hpp"
#include "core/pagination.hpp"
#include "core/write_policy.hpp"
#include "server/api/store/location_json.hpp"
#include "server/caches/list_answers.hpp"
#include "server/caches/response_cache.hpp"
#include "server/routing/sandbox_gateway.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/services/event_hub.hpp"
#include "server/services/login_brake.hpp"
#include "server/services/password_worker.hpp"
#include "server/services/placeholder_images.hpp"
#include "server/services/session_gate.hpp"
#include "server/services/write_lane.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/location_store.hpp"
#include "storage/session_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

class store_services {
  public:
    struct parts {
        storage::catalogue_store& catalogue;
        storage::user_store& users;
        storage::location_store& locations;
        const location_json& location_objects;
        storage::file_store& files;
        storage::session_store& sessions;
        session_gate& logins;
        placeholder_images& images;
        const core::auth_tokens& tokens;
        password_worker& passwords;
        login_brake& brake;
        blocking_offload& storage;
        // Where catalogue and user writes share commits (SQLite, PostgreSQL); nullptr: they run inline.
        write_lane* writes = nullptr;
        fragment_list& product_json;
        fragment_list& category_json;
        fragment_list& user_json;
        // Filtered, searched and sorted product pages of these stores; nullptr: computed per request.
        list_answers* product_answers = nullptr;
        core::write_policy write_policy;
        const std::string& public_url;  // may gain its port once the listener is bound, before serving
        // Where this view's uploads are served under public_url: "" (shared view) or "/sandbox/{id}".
        std::string_view files_path;
        std::size_t upload_limit;
        core::compat_mode compat = core::compat_mode::none;
        // POST /sandboxes mints ids here: the shared view's, with --sandboxes on or required (else nullptr).
        sandbox_gateway* sandboxes = nullptr;
        // The view's shop (issue 42): carts, orders, payments and idempotency keys.
        storage::shop_store* shop = nullptr;
        // --order-ttl: how long a pending_payment order keeps its stock.
        core::timestamp_ms order_ttl_ms = core::default_order_ttl_ms;
        // This data set's change feed (nullptr: none) and the process's bound on open streams.
        std::shared_ptr<event_hub> events;
        std::size_t max_event_streams = 10'000;
    };
    explicit store_services(parts p) : p_(p) {}

    storage::catalogue_store& catalogue() const { return p_.catalogue; }
    storage::user_store& users() const { return p_.users; }
    storage::location_store& locations() const { return p_.locations; }
    // Every location's JSON, by the store's position (the location set never changes).
    const location_json& location_objects() const { return p_.location_objects; }
    storage::file_store& files() const { return p_.files; }
    storage::session_store& sessions() const { return p_.sessions; }
    // Whether an access token's login is live; revocations go through here so the cache knows at once.
    session_gate& logins() const { return p_.logins; }
    placeholder_images& images() const { return p_.images; }
    const core::auth_tokens& tokens() const { return p_.tokens; }
    password_worker& passwords() const { return p_.passwords; }
    login_brake& brake() const { return p_.brake; }
    core::write_policy write_policy() const { return p_.write_policy; }
    // Where clients reach this service ("http://127.0.0.1:8080", no trailing slash): the base of image URLs.
    std::string_view public_url() const { return p_.public_url; }
    // The path prefix of this view's uploaded files ("" for the shared view, "/sandbox/{id}" in a sandbox).
    std::string_view files_path() const { return p_.files_path; }
    // Bytes of one uploaded file (limits_config::upload_limit).
    std::size_t upload_limit() const { return p_.upload_limit; }
    // --compat: which of the public service's quirks the surface reproduces (README, "Compatibility with
    // the public service"); the error mapping and the page rules take it from here.
    core::compat_mode compat() const { return p_.compat; }
    // The `password` user bodies carry: core::masked_password under compat public, else empty (none).
    std::string_view password_mask() const {
        return p_.compat == core::compat_mode::public_service ? core::placeholder_password
                                                              : std::string_view{};
    }

    // Runs `call` (which uses the stores) where it may block: on the storage pool for SQLite and
    // PostgreSQL, inline for the memory backend. Throws offload_rejected when the pool's queue is full.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> storage(Call call) const {
        return p_.storage.run(std::move(call));
    }
    // storage(call) for a write of the catalogue, then, on the same trip, the cached product and category
    // lists patched with what it changed: readers find them current instead of each asking the pool. With a
    // write lane, the write shares a commit with the other writes queued meanwhile, and the lists are patched
    // once it has committed.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> catalogue_write(Call call) const {
        if (p_.writes != nullptr) {
            return p_.writes->run(this, std::move(call), [this]() noexcept {
                refresh(p_.product_json);
                refresh(p_.category_json);
            });
        }
        return p_.storage.run([this, call = std::move(call)]() mutable {
            auto answer = call();
            refresh(p_.product_json);
            refresh(p_.category_json);
            return answer;
        });
    }
    // storage(call) for a write of the shop (a cart change, a checkout, a payment). With a write lane of one
    // writer (SQLite) it shares a commit with the writes queued meanwhile (one fsync for a batch of buyers)
    // and costs a queue push instead of a pool thread's sleep and wake-up; the product lists, whose stock a
    // checkout moves, are patched once it has committed. PostgreSQL's lane has several writers whose
    // batches, each one transaction, could take the same products' rows in opposite orders (a deadlock, and
    // every buyer of the aborted batch answered 503): there each shop write stays one transaction.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> shop_write(Call call) const {
        if (p_.writes != nullptr && p_.writes->one_writer()) {
            return p_.writes->run(this, std::move(call), [this]() noexcept { refresh(p_.product_json); });
        }
        return p_.storage.run(std::move(call));
    }
    // storage(call) for a write of the users, then the cached user list patched on the same trip.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> users_write(Call call) const {
        if (p_.writes != nullptr) {
            return p_.writes->run(this, std::move(call), [this]() noexcept { refresh(p_.user_json); });
        }
        return p_.storage.run([this, call = std::move(call)]() mutable {
            auto answer = call();
            refresh(p_.user_json);
            return answer;
        });
    }
    // A page of a cached list (the whole list when `page` is nullopt), pre-serialised, and the whole list's
    // length: served from memory; rebuilt through storage() when the store moved on.
    [[nodiscard]] boost::asio::awaitable<list_answer> cached_list(
        fragment_list& list, std::optional<core::page_request> page
    ) const;
    sandbox_gateway* sandboxes() const { return p_.sandboxes; }
    storage::shop_store& shop() const { return *p_.shop; }
    core::timestamp_ms order_ttl_ms() const { return p_.order_ttl_ms; }
    const std::shared_ptr<event_hub>& events() const { return p_.events; }
    std::size_t max_event_streams() const { return p_.max_event_streams; }
    // After a committed write: tells this data set's change feed (`data`: the resource as GET shows it;
    // `audience`: the shop's orders and payments go to their owner and admins only). Through storage()
    // when the feed's history is shared (PostgreSQL). A failure there is logged: the write stands.
    [[nodiscard]] boost::asio::awaitable<void> publish(
        std::string_view type, std::string_view data, event_audience audience = {}
    ) const;
    // After a committed delete: the event carries {"id":N}.
    [[nodiscard]] boost::asio::awaitable<void> publish_deleted(std::string_view type, std::int64_t id) const;
    // publish() from a thread that may block (GraphQL resolvers run on the storage pool).
    void publish_here(std::string_view type, std::string_view data, event_audience audience = {}) const;
    fragment_list& product_json() const { return p_.product_json; }
    fragment_list& category_json() const { return p_.category_json; }
    fragment_list& user_json() const { return p_.user_json; }
    list_answers* product_answers() const { return p_.product_answers; }
    // The JSON of item `id` from `list`'s cached revision when it is current; nullopt otherwise (then ask
    // the store: the item may not exist, or be newer). As fresh as the list pages are
    // (caches/data_revision.hpp).
    [[nodiscard]] std::optional<std::string> cached_item(fragment_list& list, std::int64_t id) const;
    // cached_item after bringing `list` up to date (through storage() when the store moved on: a patch of
    // the rows that changed, so a write costs the next reader one small read, not the whole list).
    [[nodiscard]] boost::asio::awaitable<std::optional<std::string>> fresh_item(
        fragment_list& list, std::int64_t id
    ) const;

  private:
    // Brings `list` up to date after a write; a failure is left to the next reader (the write stands).
    static void refresh(fragment_list& list) noexcept;

    parts p_;
};

}  // namespace storefront::server
