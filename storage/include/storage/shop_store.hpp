#pragma once
// Ports of the shop (issue 42): carts, orders (with checkout), payments and idempotency keys. They are four
// ports because handlers need them apart, but every adapter implements them on one object (shop_store),
// since checkout, cancel and payments each change rows of several of them (and the products' stock) in ONE
// transaction. Each data set (the shared one, a sandbox) has its own shop_store, so everything here is
// scoped to it. Every call is atomic and safe from several threads; expected outcomes are core::result
// errors (the errc named per call); a backend that cannot answer throws storage_unavailable.
// Money is integer cents; card numbers and CVCs never reach this layer (core/card_payments.hpp).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/card_payments.hpp"
#include "core/cart_rules.hpp"
#include "core/errc.hpp"
#include "core/idempotency.hpp"
#include "core/pagination.hpp"
#include "core/shop_model.hpp"

namespace storefront::storage {

class cart_store {
  public:
    virtual ~cart_store() = default;

    // The user's cart: lines (product and quantity, no prices: price them with core::price_cart from the
    // catalogue) and coupon; an empty cart with id 0 when the user has none.
    [[nodiscard]] virtual core::result<core::cart> cart_of(std::int64_t user_id) const = 0;

    // One atomic change of the user's cart. `change` gets the stored cart (or an empty one) and edits its
    // lines and coupon with core's rules (core::add_to_cart, …); an error it returns (e.g.
    // errc::invalid_input, after noting the core::cart_problem in its own capture) leaves the cart as it was
    // and is answered. Then every line's product must exist (errc::not_found, `shortage->product_id` names
    // it) and have stock for the line's quantity (errc::out_of_stock, `shortage` says what is left); else
    // nothing is stored. Returns the cart as stored (created at the first change); `totals`, when given,
    // gets it priced as core::price_cart prices it, from the product rows the stock check read (so the
    // answer needs no second trip to the catalogue).
    using cart_change = std::function<core::result<void>(core::cart&)>;
    [[nodiscard]] virtual core::result<core::cart> change_cart(
        std::int64_t user_id,
        const cart_change& change,
        core::timestamp_ms now,
        core::stock_shortage* shortage = nullptr,
        core::cart_totals* totals = nullptr
    ) = 0;

    // DELETE /cart: the user's cart (lines and coupon) is dropped; cart_of then answers an empty one.
    [[nodiscard]] virtual core::result<void> clear_cart(std::int64_t user_id) = 0;

    // Stored carts (the sandbox row quota counts them).
    [[nodiscard]] virtual std::size_t count_carts() const = 0;
};

// A checkout's user, address, time and order expiry: the terms core::order_from_cart makes the order on.
using checkout_request = core::checkout_terms;

// GET /orders filters; an unset one matches every order.
struct order_filter {
    std::optional<std::int64_t> user_id;
    std::optional<core::shop_order_status> status;
};

// GET /orders' order: by id, createdAt or total, ascending or descending; ties always by id ascending.
struct order_sort {
    enum class key { id, created_at, total };
    key by = key::id;
    bool descending = false;
};

// One page of a filtered, sorted order list, and how many orders the filter selects in all.
struct order_page {
    std::vector<core::shop_order> orders;
    std::size_t total = 0;
};

class shop_order_store {
  public:
    virtual ~shop_order_store() = default;

    // POST /orders, ONE transaction: reads the user's cart, prices it from the catalogue (prices at
    // checkout are kept in the items), takes the stock of every line with a conditional decrement (never
    // below 0, whoever races for the last items), creates the order (pending_payment, expiresAt = now +
    // ttl) and empties the cart. errc::cart_empty for an empty cart; errc::out_of_stock with `shortage`
    // naming the product and what is left; errc::not_found (`shortage->product_id`) for a product deleted
    // since it was added. On any error nothing changed.
    [[nodiscard]] virtual core::result<core::shop_order> checkout(
        const checkout_request& request, core::stock_shortage* shortage = nullptr
    ) = 0;

    // errc::not_found when there is no order `id`, or when `owner` is given and it is another user's (its
    // existence is not revealed).
    [[nodiscard]] virtual core::result<core::shop_order> find_order(
        std::int64_t id, std::optional<std::int64_t> owner
    ) const = 0;

    // The orders matching `filter`, in id order (the handler pages and sorts them with the list helpers).
    [[nodiscard]] virtual core::result<std::vector<core::shop_order>> list_orders(const order_filter& filter
    ) const = 0;

    // GET /orders: the `page` (offset, limit) of the orders `filter` selects in `sort`'s order, and their
    // total, read from one snapshot; only the page's orders (and their items) are loaded.
    [[nodiscard]] virtual core::result<order_page> list_orders_page(
        const order_filter& filter, const order_sort& sort, core::page_request page
    ) const = 0;

    // Moves order `id` (of `owner`, when given: errc::not_found otherwise) to `to` at `now`, when
    // core::check_transition allows it: errc::transition_not_allowed otherwise (and for `paid`, which only a
    // payment sets; the handler names the allowed moves with core::transition_message). One transaction:
    // cancelled and expired give the stock back; cancelling a paid order marks its succeeded payment
    // refunded. A pending order past its expiresAt expires first (kept), and then only `expired` is allowed.
    [[nodiscard]] virtual core::result<core::shop_order> change_order_status(
        std::int64_t id, core::shop_order_status to, core::timestamp_ms now, std::optional<std::int64_t> owner
    ) = 0;

    // Every pending_payment order whose expiresAt is at or before `now` becomes expired and gives its stock
    // back (one transaction per order); answers the orders this call expired, as they are now (an order
    // another instance expired, paid or cancelled meanwhile is not among them), so the caller can tell the
    // change feed exactly once.
    [[nodiscard]] virtual core::result<std::vector<core::shop_order>> expire_orders(core::timestamp_ms now
    ) = 0;

    // Stored orders (the sandbox row quota counts them).
    [[nodiscard]] virtual std::size_t count_orders() const = 0;

    // Runs `seed` (which makes the seed users' past orders through this store's own calls) when the store
    // holds no order, once per data set even when several instances start at once on one PostgreSQL
    // database: there an advisory lock, held on a connection of its own (the pool stays free for `seed`'s
    // calls), makes the others wait and then find the orders. Memory and SQLite serve one process, so this
    // default (seed when empty) is theirs.
    virtual void seed_history_once(const std::function<void()>& seed) {
        if (count_orders() == 0) {
            seed();
        }
    }
};

class payment_store {
  public:
    virtual ~payment_store() = default;

    // POST /orders/{id}/payments after core::charge_card decided: in one transaction the payment is kept
    // (amount = the order's total, brand and last4 only) and a succeeded one makes the order paid; failed
    // and requires_action leave it payable. errc::not_found for no order `order_id` (of `owner`, when
    // given); errc::transition_not_allowed when the order is not pending_payment (paid, cancelled, expired),
    // or is past its expiresAt (expire_orders then releases its stock). When the payment made the order
    // paid, `paid` (if given) receives the order as it now stands: the order.updated event needs no second
    // read.
    [[nodiscard]] virtual core::result<core::payment> record_payment(
        std::int64_t order_id,
        std::optional<std::int64_t> owner,
        const core::charge_decision& decision,
        core::timestamp_ms now,
        core::shop_order* paid = nullptr
    ) = 0;

    // POST /payments/{id}/3ds: a requires_action payment becomes succeeded (`approve`; the order becomes
    // paid) or failed ("authentication_failed"). errc::not_found (also another user's, with `owner`);
    // errc::transition_not_allowed when the payment is not waiting or its order is no longer payable.
    // `paid` as for record_payment.
    [[nodiscard]] virtual core::result<core::payment> complete_payment(
        std::int64_t payment_id,
        std::optional<std::int64_t> owner,
        bool approve,
        core::timestamp_ms now,
        core::shop_order* paid = nullptr
    ) = 0;

    // errc::not_found as above.
    [[nodiscard]] virtual core::result<core::payment> find_payment(
        std::int64_t payment_id, std::optional<std::int64_t> owner
    ) const = 0;
    // GET /orders/{id}/payments, in id order; errc::not_found when the order is not there (or not owner's).
    [[nodiscard]] virtual core::result<std::vector<core::payment>> payments_of(
        std::int64_t order_id, std::optional<std::int64_t> owner
    ) const = 0;

    // Stored payments (the sandbox row quota counts them).
    [[nodiscard]] virtual std::size_t count_payments() const = 0;
};

// A stored answer to replay: the first request's status and body.
struct stored_answer {
    int status = 0;
    std::string body;
};

class idempotency_store {
  public:
    virtual ~idempotency_store() = default;

    // Before running a request with Idempotency-Key `key` of user `user_id` (core::decide_idempotency):
    // nullopt when it may run (the key now carries the in-progress marker with `fingerprint`), the stored
    // answer to replay, errc::idempotency_mismatch (another request used the key) or
    // errc::idempotency_in_progress (it still runs). Keys older than 24 h count as absent.
    [[nodiscard]] virtual core::result<std::optional<stored_answer>> begin_request(
        std::int64_t user_id, const std::string& key, const std::string& fingerprint, core::timestamp_ms now
    ) = 0;

    // Stores the answer of the request begun with `key` (kept 24 h from its start).
    [[nodiscard]] virtual core::result<void> finish_request(
        std::int64_t user_id, const std::string& key, const stored_answer& answer, core::timestamp_ms now
    ) = 0;

    // Drops the in-progress marker of a request that ended without an answer worth keeping (a 5xx), so a
    // retry with the same key runs again.
    [[nodiscard]] virtual core::result<void> abandon_request(
        std::int64_t user_id, const std::string& key
    ) = 0;

    // Drops keys older than 24 h; answers how many.
    [[nodiscard]] virtual core::result<std::size_t> purge_keys(core::timestamp_ms now) = 0;
};

// The four on one object (see the top of this file); make_shop_store (storage/factory.hpp) makes one.
class shop_store : public cart_store,
                   public shop_order_store,
                   public payment_store,
                   public idempotency_store {};

}  // namespace storefront::storage
