// The store surface's cached list pages and items: served from memory, patched (or rebuilt) on the storage
// pool when the store has moved on since the list was built.

#include "server/api/store/store_services.hpp"

#include <exception>

#include "server/telemetry/log.hpp"

namespace storefront::server {

namespace {

std::optional<std::string> item_of(const fragment_list::snapshot* snapshot, std::int64_t id) {
    const std::string* json = snapshot ? snapshot->item(id) : nullptr;
    if (json == nullptr) {
        return std::nullopt;
    }
    return *json;
}

}  // namespace

boost::asio::awaitable<list_answer> store_services::cached_list(
    fragment_list& list, std::optional<core::page_request> page
) const {
    const auto read = [&list, page] {
        // Page and length from one snapshot, so they always belong to the same revision.
        const auto snapshot = list.current();
        list_answer out;
        out.total = snapshot->size();
        out.json = page ? snapshot->page(*page) : snapshot->all();
        return out;
    };
    if (list.stale()) {
        co_return co_await storage(read);
    }
    co_return read();
}

std::optional<std::string> store_services::cached_item(fragment_list& list, std::int64_t id) const {
    // Never brought up to date here: that reads the store (callers that may wait use fresh_item).
    return item_of(list.current_if_loaded().get(), id);
}

boost::asio::awaitable<std::optional<std::string>> store_services::fresh_item(
    fragment_list& list, std::int64_t id
) const {
    if (auto snapshot = list.current_if_loaded()) {
        co_return item_of(snapshot.get(), id);
    }
    if (!list.loaded_once()) {
        co_return std::nullopt;  // one item is not worth serialising the whole list: ask the store
    }
    const auto snapshot = co_await storage([&list] { return list.current(); });
    co_return item_of(snapshot.get(), id);
}

void store_services::refresh(fragment_list& list) noexcept {
    if (!list.loaded_once()) {
        return;  // nobody has read this list yet (a fresh sandbox): the first reader loads it
    }
    try {
        list.refresh_unless_busy();  // a write's thread does not queue behind another's patch
    } catch (...) {                  // storage_unavailable and the like: the next read retries and reports it
    }
}

void store_services::publish_here(std::string_view type, std::string_view data, event_audience audience)
    const {
    if (!p_.events) {
        return;
    }
    try {
        p_.events->publish(type, data, audience);
    } catch (const std::exception& e) {
        // The write is committed and answered; only its event is lost (streams resuming get a reset).
        log_event("warning", "event_not_published", {field("type", type), field("what", e.what())});
    }
}

boost::asio::awaitable<void> store_services::publish(
    std::string_view type, std::string_view data, event_audience audience
) const {
    if (!p_.events) {
        co_return;
    }
    if (!p_.events->shared()) {
        publish_here(type, data, audience);
        co_return;
    }
    try {
        co_await p_.storage.run([&] {
            publish_here(type, data, audience);
            return true;
        });
    } catch (const std::exception& e) {  // the storage pool's queue is full
        log_event("warning", "event_not_published", {field("type", type), field("what", e.what())});
    }
}

boost::asio::awaitable<void> store_services::publish_deleted(std::string_view type, std::int64_t id) const {
    const std::string data = "{\"id\":" + std::to_string(id) + "}";
    co_await publish(type, data);
}

}  // namespace storefront::server
