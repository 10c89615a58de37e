#pragma once
// The decisions the memory, SQLite and PostgreSQL shop stores make the same way around their own reads and
// writes: who may see an order or a payment, the order a checkout makes, whether an order may move or be
// paid, what an idempotency key's record answers, and the SQL that reads orders and payments.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/card_payments.hpp"
#include "core/cart_rules.hpp"
#include "core/errc.hpp"
#include "core/idempotency.hpp"
#include "core/order_states.hpp"
#include "core/shop_model.hpp"
#include "storage/shop_store.hpp"

namespace storefront::storage::detail {

// `row` (an order or a payment read by id: an optional, or a result as from first_or_not_found; or a pointer
// into a memory store's map, whose row is copied, never moved) as `owner` may see it: errc::not_found when
// there is none or it is another user's (nullopt owner: an admin, who sees every row).
template <class Found>
[[nodiscard]] auto owned(Found row, std::optional<std::int64_t> owner)
    -> core::result<std::remove_cvref_t<decltype(*row)>> {
    if (!row || (owner && row->user_id != *owner)) {
        return core::errc::not_found;
    }
    if constexpr (std::is_pointer_v<Found>) {
        return *row;
    } else {
        return std::move(*row);
    }
}

// The row under `id` in `rows` (a map by id, as the memory store keeps them) as `owner` may see it, to read
// or change in place; nullptr when there is none or it is another user's.
template <class Map>
[[nodiscard]] auto* owned_in(Map& rows, std::int64_t id, std::optional<std::int64_t> owner) {
    const auto it = rows.find(id);
    return it == rows.end() || (owner && it->second.user_id != *owner) ? nullptr : &it->second;
}

// A copy of the row under `id` in `rows` as `owner` may see it (owned_in): errc::not_found.
template <class Map>
[[nodiscard]] auto copy_owned(const Map& rows, std::int64_t id, std::optional<std::int64_t> owner)
    -> core::result<typename Map::mapped_type> {
    const auto* row = owned_in(rows, id, owner);
    if (row == nullptr) {
        return core::errc::not_found;
    }
    return *row;
}

// The order a checkout of `cart` makes, its lines priced as `lines` (in the cart's order): totals after the
// cart's coupon, the request's user, address and expiry. The store gives it its id.
[[nodiscard]] inline core::shop_order order_of_checkout(
    const core::cart& cart, std::vector<core::priced_line> lines, const checkout_request& request
) {
    return core::order_from_cart(core::total_lines(std::move(lines), cart.coupon), cart.coupon, request);
}

// Whether an order in `from` may move to `to` by a status change (paid comes only from a payment), and what
// the move does besides (stock back, refund); errc::transition_not_allowed.
[[nodiscard]] inline core::result<core::transition_check> order_move(
    core::shop_order_status from, core::shop_order_status to
) {
    const auto check = core::check_transition(from, to);
    if (!check.allowed || to == core::shop_order_status::paid) {
        return core::errc::transition_not_allowed;
    }
    return check;
}

// Moves order `o` to `to` at `now` when the state machine allows it (order_move), through the store's own
// writes inside the write that moves it: `give_back_stock(o)` when the move returns its items' stock,
// `refund_payments(o)` when it refunds its succeeded payments (as core::check_transition says), then
// `save_status(moved)` with the new status and updated_at. Answers the moved order.
template <class GiveBack, class Refund, class Save>
[[nodiscard]] core::result<core::shop_order> apply_move(
    core::shop_order o,
    core::shop_order_status to,
    core::timestamp_ms now,
    GiveBack&& give_back_stock,
    Refund&& refund_payments,
    Save&& save_status
) {
    const auto check = order_move(o.status, to);
    if (!check) {
        return check.error();
    }
    if (check->gives_stock_back) {
        give_back_stock(o);
    }
    if (check->refunds_payment) {
        refund_payments(o);
    }
    o.status = to;
    o.updated_at = now;
    save_status(o);
    return o;
}

// A change of order `o` to `to` at `now` (change_order_status): a pending order past its expiresAt expires
// first, so this is the status to move it to; that move is kept, and answered by as_asked.
[[nodiscard]] inline core::shop_order_status status_to_apply(
    const core::shop_order& o, core::shop_order_status to, core::timestamp_ms now
) {
    return core::is_due_to_expire(o, now) ? core::shop_order_status::expired : to;
}

// The answer to a change to `to` once `moved` is done: errc::transition_not_allowed when the order went
// elsewhere (it expired instead).
[[nodiscard]] inline core::result<core::shop_order> as_asked(
    core::result<core::shop_order> moved, core::shop_order_status to
) {
    if (moved && moved->status != to) {
        return core::errc::transition_not_allowed;
    }
    return moved;
}

// Whether order `o` may be paid at `now`: pending and, past its expiresAt, no longer (expire_orders
// releases its stock); errc::transition_not_allowed.
[[nodiscard]] inline core::result<void> payable(const core::shop_order& o, core::timestamp_ms now) {
    if (o.status != core::shop_order_status::pending_payment || core::is_due_to_expire(o, now)) {
        return core::errc::transition_not_allowed;
    }
    return {};
}

// The payment a charge `decision` at `now` makes for the order `row` (read by id, as owned takes) as `owner`
// may see it: errc::not_found (owned), or errc::transition_not_allowed when the order may not be paid
// (payable). The store gives it its id, saves it, and marks the order paid when it succeeded.
template <class Found>
[[nodiscard]] core::result<core::payment> new_payment(
    Found row,
    std::optional<std::int64_t> owner,
    const core::charge_decision& decision,
    core::timestamp_ms now
) {
    const auto o = owned(std::move(row), owner);
    if (!o) {
        return o.error();
    }
    if (auto may = payable(*o, now); !may) {
        return may.error();
    }
    return core::payment_of(*o, decision, now);
}

// The title and price of each product a cart change read, by id.
using read_entries = std::map<std::int64_t, core::catalogue_entry>;

// `cart` priced (core::price_cart) from the products its change read; into `totals` when the caller asked.
inline void report_priced(const core::cart& cart, const read_entries& read, core::cart_totals* totals) {
    if (totals != nullptr) {
        *totals = core::price_cart(cart.lines, cart.coupon, [&](std::int64_t id) {
            const auto found = read.find(id);
            return found == read.end() ? std::nullopt : std::optional(found->second);
        });
    }
}

// After a succeeded payment at `now` made order `o` (as read before) paid: the order as it now stands, into
// `paid` when the caller asked for it.
inline void report_paid(core::shop_order& o, core::timestamp_ms now, core::shop_order* paid) {
    if (paid != nullptr) {
        o.status = core::shop_order_status::paid;
        o.updated_at = now;
        *paid = std::move(o);
    }
}

// What begin_request answers for a key whose record is `existing` (if any): the stored answer to replay,
// errc::idempotency_mismatch or errc::idempotency_in_progress, or nullopt when the request starts (the store
// then records the key as in progress).
[[nodiscard]] inline core::result<std::optional<stored_answer>> idempotency_answer(
    const std::optional<core::idempotency_record>& existing,
    std::string_view fingerprint,
    core::timestamp_ms now
) {
    switch (core::decide_idempotency(existing, fingerprint, now)) {
        case core::idempotency_decision::replay:
            return std::optional<stored_answer>(stored_answer{existing->status, existing->body});
        case core::idempotency_decision::mismatch:
            return core::errc::idempotency_mismatch;
        case core::idempotency_decision::in_progress:
            return core::errc::idempotency_in_progress;
        case core::idempotency_decision::start:
            break;
    }
    return std::optional<stored_answer>();
}

// The SELECT of whole orders and payments in SQL (SQLite and PostgreSQL alike), in the column order each
// adapter reads its rows in; the caller adds WHERE and ORDER BY.
inline constexpr std::string_view order_columns =
    "SELECT id, user_id, status, subtotal, discount, shipping, total, coupon, name, line1, line2, city, "
    "postal_code, country, created_at, updated_at, expires_at FROM shop_orders ";
inline constexpr std::string_view payment_columns =
    "SELECT id, order_id, user_id, amount, status, brand, last4, failure_code, next_action, created_at, "
    "updated_at FROM payments ";

// An order (without its items, which the store reads after) and a payment as the statements above select
// them, from `row`: a backend's row view (read(first, fields...) into fields by type, text(column)).
template <class Row>
[[nodiscard]] core::shop_order order_at(const Row& row) {
    core::shop_order o;
    row.read(0, o.id, o.user_id);
    o.status = core::parse_shop_order_status(row.text(2)).value_or(core::shop_order_status::cancelled);
    auto& a = o.address;
    row.read(
        3,
        o.subtotal,
        o.discount,
        o.shipping,
        o.total,
        o.coupon,
        a.name,
        a.line1,
        a.line2,
        a.city,
        a.postal_code,
        a.country,
        o.created_at,
        o.updated_at,
        o.expires_at
    );
    return o;
}
template <class Row>
[[nodiscard]] core::payment payment_at(const Row& row) {
    core::payment p;
    row.read(0, p.id, p.order_id, p.user_id, p.amount);
    p.status = core::parse_payment_status(row.text(4)).value_or(core::payment_status::failed);
    row.read(5, p.brand, p.last4, p.failure_code, p.next_action, p.created_at, p.updated_at);
    return p;
}

// The ORDER BY clause of GET /orders in SQL (SQLite and PostgreSQL alike): the sort key, then id.
[[nodiscard]] inline std::string order_by(const order_sort& sort) {
    const char* column = sort.by == order_sort::key::created_at ? "created_at"
                         : sort.by == order_sort::key::total    ? "total"
                                                                : "id";
    return std::string("ORDER BY ") + column + (sort.descending ? " DESC" : " ASC") + ", id ASC";
}

}  // namespace storefront::storage::detail
