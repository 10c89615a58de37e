#pragma once
// The one path every /api/v1 list takes (private to server_lib): parse the page, the list's own filters
// and sortBy/order/q/select; fetch; search, sort and page; shape; add X-Total-Count and Link. Single items
// take `select` through serve_item.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "core/list_options.hpp"
#include "core/list_page.hpp"
#include "core/model.hpp"
#include "core/pagination.hpp"
#include "core/query.hpp"
#include "core/validation.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/api/store/store_services.hpp"
#include "server/codec/response.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/route.hpp"

namespace storefront::server::store_lists {

// One list request's parameters, checked together.
struct list_request {
    core::page_request page;
    // No offset and no limit on a list answered whole by default (categories, related products): `page`
    // then spans every item and the answer has no Link.
    bool whole = false;
    core::list_options options;
};

// An answer's body and how many items match the filters before paging (X-Total-Count).
// (A constructor, not an aggregate, so a lone response converts to or_response's error, never to this.)
struct counted_page {
    counted_page(response answer, std::size_t count) : body(std::move(answer)), total(count) {}
    response body;
    std::size_t total = 0;
};

// Reads offset/limit (core::parse_list_page: none given on a whole-by-default list, or under compat public
// limit=0 or offset without limit: every item) and sortBy/order/q/select for `kind`. A 400 lists every
// problem: the page's, then `own` (the list's own filters), then the options'.
[[nodiscard]] or_response<list_request> parse_list_request(
    const core::query_params& query,
    core::list_kind kind,
    bool whole_by_default,
    core::validation_errors own,
    core::compat_mode compat = core::compat_mode::none
);

// `page` as answered: its body with X-Total-Count, and for a paged request Link (first, prev, next, last:
// the request's own target with only offset and limit changed).
[[nodiscard]] response list_response(
    const request_context& ctx, const list_request& request, counted_page page
);

// The items (all matching the list's filters, in id order) searched with `q`, sorted, paged and written
// with the selected fields (as item_json writes them).
[[nodiscard]] counted_page shaped_page(
    const std::vector<core::product>& items, const list_request& request, const store_services& app
);
[[nodiscard]] counted_page shaped_page(
    const std::vector<core::category>& items, const list_request& request, const store_services& app
);
[[nodiscard]] counted_page shaped_page(
    const std::vector<core::user>& items, const list_request& request, const store_services& app
);

// One item's JSON as this surface writes it: a user with the --compat password mask (when any).
template <class Item>
[[nodiscard]] std::string item_json(
    const Item& item, const store_services& app, const field_list& fields = {}
) {
    return to_json(item, app.public_url(), fields);
}
[[nodiscard]] inline std::string item_json(
    const core::user& user, const store_services& app, const field_list& fields = {}
) {
    return to_json(user, app.public_url(), fields, app.password_mask());
}

// A list source names its kind (`kind`, `whole_by_default`) and has
//   awaitable<or_response<std::vector<Item>>> everything(store_services&)
// (every item passing its filters, in id order, or the answer instead: a 404 for an unknown parent), and
// may have a fast path for requests without sortBy, order, q or select:
//   awaitable<or_response<counted_page>> plain(store_services&, const list_request&)
template <class Source>
concept has_plain_page = requires(Source& s, store_services& app, const list_request& request) {
    { s.plain(app, request) } -> std::same_as<boost::asio::awaitable<or_response<counted_page>>>;
};

// A list source may also answer requests with sortBy, order, q or select itself (from a cache of them):
//   awaitable<or_response<counted_page>> searched(store_services&, const list_request&)
template <class Source>
concept has_searched_page = requires(Source& s, store_services& app, const list_request& request) {
    { s.searched(app, request) } -> std::same_as<boost::asio::awaitable<or_response<counted_page>>>;
};

// Answers one list request from `source`, with `own` the problems of the list's own parameters.
template <class Source>
handler_result serve_list(
    request_context& ctx, store_services& app, Source& source, core::validation_errors own = {}
) {
    auto request =
        parse_list_request(ctx.query, Source::kind, Source::whole_by_default, std::move(own), app.compat());
    if (!request) {
        co_return std::move(request).error();
    }
    if constexpr (has_plain_page<Source>) {
        if (request->options.plain()) {
            auto page = co_await source.plain(app, *request);
            if (!page) {
                co_return std::move(page).error();
            }
            co_return list_response(ctx, *request, std::move(*page));
        }
    }
    if constexpr (has_searched_page<Source>) {
        auto page = co_await source.searched(app, *request);
        if (!page) {
            co_return std::move(page).error();
        }
        co_return list_response(ctx, *request, std::move(*page));
    }
    // sortBy, order, q or select: searched, sorted and shaped per request from every matching item.
    auto items = co_await source.everything(app);
    if (!items) {
        co_return std::move(items).error();
    }
    co_return list_response(ctx, *request, shaped_page(*items, *request, app));
}

// The list kind of an item type, for its `select` fields.
[[nodiscard]] constexpr core::list_kind kind_of(const core::product*) {
    return core::list_kind::products;
}
[[nodiscard]] constexpr core::list_kind kind_of(const core::category*) {
    return core::list_kind::categories;
}
[[nodiscard]] constexpr core::list_kind kind_of(const core::user*) {
    return core::list_kind::users;
}

// Answers one item: its key read from the path by `parse` (an or_response: path_id's 400), `select`
// checked (400), `find(app, key)` run through storage() (a core::result), `not_found(key)` (its
// entity_not_found answer) when there is none, else the item with the selected fields. With `cached`, the
// list that holds the item's default JSON by id, a request without `select` is answered from it, brought
// up to date first when the store moved on (store_services::fresh_item).
template <class Parse, class Find, class NotFound>
handler_result serve_item(
    request_context& ctx,
    store_services& app,
    Parse parse,
    Find find,
    NotFound not_found,
    fragment_list* cached = nullptr
) {
    auto key = parse(ctx);
    if (!key) {
        co_return std::move(key).error();
    }
    using item_type = typename std::invoke_result_t<Find&, store_services&, decltype(*key)>::value_type;
    const auto fields = core::parse_select(kind_of(static_cast<const item_type*>(nullptr)), ctx.query);
    if (!fields) {
        co_return validation_failed(fields.error());
    }
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(*key)>, std::int64_t>) {
        if (cached != nullptr && fields->empty()) {
            if (auto json = co_await app.fresh_item(*cached, *key)) {
                co_return json_response(http::status::ok, std::move(*json));
            }
        }
    }
    const auto item = co_await app.storage([&] { return find(app, *key); });
    if (!item) {
        co_return not_found(*key);
    }
    co_return json_response(http::status::ok, item_json(*item, app, *fields));
}

// GET /products (its filters) and GET /categories/{id}/products (the category's products): unfiltered pages
// come from the pre-serialised list, filtered ones from one storage call that also counts the matches, and
// searched or sorted ones from every matching item; both kept per store revision (list_answers).
struct product_list {
    static constexpr core::list_kind kind = core::list_kind::products;
    static constexpr bool whole_by_default = false;
    core::product_filter filter;
    // GET /categories/{id}/products: the category, checked with the products on every cache miss (so a
    // kept answer was computed while it existed: a delete moves the revision), and the answer when it is
    // missing (a 404). Unset for GET /products.
    std::optional<std::int64_t> parent_category;
    std::function<response()> missing_parent;

    boost::asio::awaitable<or_response<counted_page>> plain(store_services& app, const list_request& request);
    boost::asio::awaitable<or_response<counted_page>> searched(
        store_services& app, const list_request& request
    );
    boost::asio::awaitable<or_response<std::vector<core::product>>> everything(store_services& app);
};

// GET /categories: the pre-serialised list, whole unless offset or limit is given.
struct category_list {
    static constexpr core::list_kind kind = core::list_kind::categories;
    static constexpr bool whole_by_default = true;

    boost::asio::awaitable<or_response<counted_page>> plain(store_services& app, const list_request& request);
    boost::asio::awaitable<or_response<std::vector<core::category>>> everything(store_services& app);
};

// GET /users: the pre-serialised list.
struct user_list {
    static constexpr core::list_kind kind = core::list_kind::users;
    static constexpr bool whole_by_default = false;

    boost::asio::awaitable<or_response<counted_page>> plain(store_services& app, const list_request& request);
    boost::asio::awaitable<or_response<std::vector<core::user>>> everything(store_services& app);
};

}  // namespace storefront::server::store_lists
