// The shared list path of /api/v1: parameters, the per-request search/sort/select shaping, the
// X-Total-Count and Link headers, the list sources backed by the pre-serialised lists, and the per-revision
// cache of filtered, searched and sorted product answers.

#include "list_answer.hpp"

#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "core/list_request_key.hpp"
#include "core/list_search.hpp"
#include "core/list_sort.hpp"
#include "core/paging_links.hpp"
#include "server/caches/list_answers.hpp"
#include "server/codec/link_header.hpp"
#include "server/codec/request_body.hpp"

namespace storefront::server::store_lists {

namespace {

using core::every_item;  // the page a whole list, or the per-request path, asks the store for

void append_messages(std::vector<std::string>& to, std::vector<std::string> more) {
    to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

// A page's JSON and how many items matched before paging, before it becomes a response (or a cached answer).
struct page_json {
    std::string json;
    std::size_t total = 0;
};

template <class Item>
page_json shaped_json(
    const std::vector<Item>& items, const list_request& request, const store_services& app
) {
    const core::list_options& options = request.options;
    std::vector<const Item*> matching;
    matching.reserve(items.size());
    for (const Item& item : items) {
        if (core::matches_search(item, options.search_words)) {
            matching.push_back(&item);
        }
    }
    core::sort_items(matching, options.sort_by, options.order);
    const core::index_range range = core::page_slice(request.page, matching.size());
    const std::vector<const Item*> page(
        matching.begin() + static_cast<std::ptrdiff_t>(range.first),
        matching.begin() + static_cast<std::ptrdiff_t>(range.last)
    );
    std::string json;
    if constexpr (std::is_same_v<Item, core::user>) {
        json = to_json_array(page, app.public_url(), options.select, app.password_mask());
    } else {
        json = to_json_array(page, app.public_url(), options.select);
    }
    return {std::move(json), matching.size()};
}

template <class Item>
counted_page shaped(const std::vector<Item>& items, const list_request& request, const store_services& app) {
    page_json page = shaped_json(items, request, app);
    return {json_response(http::status::ok, std::move(page.json)), page.total};
}

// A filtered, searched or sorted product answer: from the store set's cache when it holds one for the
// store's current revision (no storage call), else computed by `compute` (a coroutine giving
// or_response<page_json>) and kept (the revision read first: the contract in caches/data_revision.hpp).
template <class Compute>
boost::asio::awaitable<or_response<counted_page>> cached_answer(
    store_services& app, const product_list& list, const list_request& request, Compute compute
) {
    list_answers* answers = app.product_answers();
    if (answers == nullptr) {
        auto page = co_await compute();
        if (!page) {
            co_return std::move(page).error();
        }
        co_return counted_page{json_response(http::status::ok, std::move(page->json)), page->total};
    }
    // Under its parent's route a missing category is a 404, under /products?categoryId= an empty page.
    std::string key = list.parent_category ? "category " + std::to_string(*list.parent_category) + " " : "";
    key += core::product_list_key(list.filter, request.options, request.page);
    const std::uint64_t revision = app.catalogue().revision();
    if (auto hit = answers->find(key, revision)) {
        response_cache_counters().hits.fetch_add(1, std::memory_order_relaxed);
        co_return counted_page{shared_json_response(std::move(hit->json)), hit->total};
    }
    auto page = co_await compute();
    if (!page) {
        co_return std::move(page).error();
    }
    list_answer answer{std::make_shared<const prepared_body>(std::move(page->json)), page->total};
    answers->keep(key, revision, answer);
    co_return counted_page{shared_json_response(std::move(answer.json)), answer.total};
}

// The request's target as Boost.URL reads it; the bytes browsers send raw are escaped first, as dispatch
// did before routing (so this parse succeeds for every request that reached a handler).
// The Link header is a function of the target (which holds offset and limit) and the total alone. Clients
// paging a list send the same few targets over and over, so each I/O thread keeps its last few headers.
struct remembered_link {
    std::string target;
    std::size_t total = 0;
    std::string link;
};
constexpr std::size_t remembered_links = 8;

const std::string& link_for(const request_context& ctx, const list_request& request, std::size_t total) {
    thread_local std::array<remembered_link, remembered_links> memo;
    thread_local std::size_t next_slot = 0;
    for (const auto& m : memo) {
        if (m.total == total && m.target == ctx.target && !m.target.empty()) {
            return m.link;
        }
    }
    remembered_link& slot = memo[next_slot];
    next_slot = (next_slot + 1) % remembered_links;
    slot.target.assign(ctx.target);
    slot.total = total;
    slot.link.clear();
    const core::paging_links links = core::paging_links_for(total, request.page.offset, request.page.limit);
    // ctx.target passed routing's check; its path holds the sandbox prefix, if any, as the client sent it.
    if (const auto target = parse_request_target(ctx.target)) {
        slot.link = link_header(*target, links, request.page.limit);
    }
    return slot.link;
}

counted_page from_cache(const list_answer& cached) {
    return {shared_json_response(cached.json), cached.total};
}

std::optional<core::page_request> cached_range(const list_request& request) {
    if (request.whole) {
        return std::nullopt;
    }
    return request.page;
}

}  // namespace

or_response<list_request> parse_list_request(
    const core::query_params& query,
    core::list_kind kind,
    bool whole_by_default,
    core::validation_errors own,
    core::compat_mode compat
) {
    list_request request;
    core::validation_errors all;
    if (auto page = core::parse_list_page(query, whole_by_default, compat)) {
        request.page = page->page;
        request.whole = page->whole;
    } else {
        append_messages(all.messages, std::move(page.error().messages));
    }
    append_messages(all.messages, std::move(own.messages));
    if (auto options = core::parse_list_options(kind, query)) {
        request.options = std::move(*options);
    } else {
        append_messages(all.messages, std::move(options.error().messages));
    }
    if (!all.messages.empty()) {
        return validation_failed(all);
    }
    return request;
}

response list_response(const request_context& ctx, const list_request& request, counted_page page) {
    std::array<char, 24> digits{};
    const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), page.total);
    page.body.with_header("X-Total-Count", std::string_view(digits.data(), end));
    if (!request.whole) {
        if (const std::string& link = link_for(ctx, request, page.total); !link.empty()) {
            page.body.with_header("Link", link);
        }
    }
    return std::move(page.body);
}

counted_page shaped_page(
    const std::vector<core::product>& items, const list_request& request, const store_services& app
) {
    return shaped(items, request, app);
}

counted_page shaped_page(
    const std::vector<core::category>& items, const list_request& request, const store_services& app
) {
    return shaped(items, request, app);
}

counted_page shaped_page(
    const std::vector<core::user>& items, const list_request& request, const store_services& app
) {
    return shaped(items, request, app);
}

boost::asio::awaitable<or_response<counted_page>> product_list::plain(
    store_services& app, const list_request& request
) {
    if (filter.empty() && !parent_category) {
        co_return from_cache(co_await app.cached_list(app.product_json(), cached_range(request)));
    }
    co_return co_await cached_answer(
        app,
        *this,
        request,
        [&]() -> boost::asio::awaitable<or_response<page_json>> {
            // One trip to the storage pool for the parent, the page and its count.
            auto listed = co_await app.storage([&] {
                std::optional<std::pair<std::vector<core::product>, std::size_t>> out;
                if (!parent_category || app.catalogue().find_category(*parent_category)) {
                    auto items = app.catalogue().list_products(filter, request.page);
                    out.emplace(std::move(items), app.catalogue().count_products(filter));
                }
                return out;
            });
            if (!listed) {
                co_return missing_parent();
            }
            co_return page_json{to_json_array(listed->first, app.public_url()), listed->second};
        }
    );
}

boost::asio::awaitable<or_response<counted_page>> product_list::searched(
    store_services& app, const list_request& request
) {
    co_return co_await cached_answer(
        app,
        *this,
        request,
        [&]() -> boost::asio::awaitable<or_response<page_json>> {
            auto items = co_await everything(app);
            if (!items) {
                co_return std::move(items).error();
            }
            co_return shaped_json(*items, request, app);
        }
    );
}

boost::asio::awaitable<or_response<std::vector<core::product>>> product_list::everything(store_services& app
) {
    auto items = co_await app.storage([&] {
        std::optional<std::vector<core::product>> out;
        if (!parent_category || app.catalogue().find_category(*parent_category)) {
            out = app.catalogue().list_products(filter, every_item);
        }
        return out;
    });
    if (!items) {
        co_return missing_parent();
    }
    co_return std::move(*items);
}

boost::asio::awaitable<or_response<counted_page>> category_list::plain(
    store_services& app, const list_request& request
) {
    co_return from_cache(co_await app.cached_list(app.category_json(), cached_range(request)));
}

boost::asio::awaitable<or_response<std::vector<core::category>>> category_list::everything(store_services& app
) {
    co_return co_await app.storage([&] { return app.catalogue().list_categories(); });
}

boost::asio::awaitable<or_response<counted_page>> user_list::plain(
    store_services& app, const list_request& request
) {
    co_return from_cache(co_await app.cached_list(app.user_json(), cached_range(request)));
}

boost::asio::awaitable<or_response<std::vector<core::user>>> user_list::everything(store_services& app) {
    co_return co_await app.storage([&] { return app.users().list_users(every_item); });
}

}  // namespace storefront::server::store_lists
