// The shop_store contract (issue 42) on every adapter: carts under core's rules, checkout in one
// transaction (prices from the catalogue, stock taken, cart emptied, deterministic ids), short stock that
// changes nothing, cancel and expiry that give stock back, payments and 3-D Secure, idempotency keys, owners,
// and 20 buyers racing for 5 units.

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/cart_rules.hpp"
#include "core/order_states.hpp"
#include "storage/factory.hpp"
#include "storage/shop_store.hpp"
#include "storage/write_batch.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
using namespace storefront::test;
using core::shop_order_status;

namespace {

using shop_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
constexpr core::timestamp_ms now = 1'800'000'000'000;
constexpr core::timestamp_ms ttl = 30 * 60 * 1000;
constexpr std::int64_t alice = 1;
constexpr std::int64_t bob = 2;

// A data set's catalogue and shop, as the server holds them (the memory shop keeps stock in the catalogue).
struct shop_world {
    explicit shop_world(const storage::storage_config& config)
        : catalogue(storage::make_catalogue_store(config)),
          shop(storage::make_shop_store(config, *catalogue)) {}

    // A new product of category 1 with `stock` units at `price`.
    std::int64_t product(std::int64_t stock, double price = 12.5, std::string title = "Shop Lamp") {
        core::product_draft d;
        d.title = std::move(title) + " " + std::to_string(++made);
        d.price = price;
        d.description = "A lamp";
        d.category_id = 1;
        d.images = {"https://example.com/lamp.png"};
        d.stock = stock;
        return catalogue->create_product(d).value().id;
    }

    std::int64_t stock_of(std::int64_t id) const { return catalogue->find_product(id).value().stock; }

    core::result<core::cart> add(
        std::int64_t user,
        std::int64_t product_id,
        std::int32_t quantity,
        core::stock_shortage* shortage = nullptr
    ) {
        return shop->change_cart(
            user,
            [&](core::cart& c) -> core::result<void> {
                if (core::add_to_cart(c.lines, product_id, quantity)) {
                    return core::errc::invalid_input;
                }
                return {};
            },
            now,
            shortage
        );
    }

    core::result<core::shop_order> checkout(
        std::int64_t user, core::timestamp_ms at = now, core::stock_shortage* shortage = nullptr
    ) {
        storage::checkout_request r;
        r.user_id = user;
        r.address = {"Ada Lovelace", "12 St James's Square", std::nullopt, "London", "SW1Y 4JH", "GB"};
        r.now = at;
        r.ttl_ms = ttl;
        return shop->checkout(r, shortage);
    }

    std::unique_ptr<storage::catalogue_store> catalogue;
    std::unique_ptr<storage::shop_store> shop;
    int made = 0;
};

core::charge_decision decision(
    core::payment_status status, std::optional<std::string> failure = std::nullopt
) {
    core::charge_decision d;
    d.status = status;
    d.brand = "visa";
    d.last4 = "4242";
    d.failure_code = std::move(failure);
    if (status == core::payment_status::requires_action) {
        d.next_action = "three_d_secure";
    }
    return d;
}

bool fails_with(const auto& r, core::errc e) {
    return !r && r.error() == e;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shop_store_contract)

BOOST_AUTO_TEST_CASE_TEMPLATE(products_carry_stock, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    BOOST_TEST(w.stock_of(1) == 12);  // the seed's (1 * 7) % 25 + 5
    BOOST_TEST(w.stock_of(2) == 19);
    const auto id = w.product(7);
    BOOST_TEST(w.stock_of(id) == 7);
    core::product_patch patch;
    patch.stock = 3;
    BOOST_TEST(w.catalogue->update_product(id, patch).value().stock == 3);
    BOOST_TEST(w.stock_of(id) == 3);
    patch = {};
    patch.title = "Renamed lamp";
    BOOST_TEST(w.catalogue->update_product(id, patch).value().stock == 3);  // kept when not patched
}

BOOST_AUTO_TEST_CASE_TEMPLATE(carts_follow_the_rules_and_the_stock, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(10);
    const auto empty = w.shop->cart_of(alice).value();
    BOOST_TEST(empty.id == 0);
    BOOST_TEST(empty.lines.empty());

    auto cart = w.add(alice, lamp, 2).value();
    BOOST_TEST(cart.id == 1);  // deterministic in a fresh data set
    BOOST_TEST(cart.created_at == now);
    BOOST_TEST(w.add(alice, lamp, 3).has_value());
    BOOST_TEST((w.shop->cart_of(alice).value().lines == std::vector<core::cart_line>{{lamp, 5}}));

    BOOST_TEST(fails_with(w.add(alice, lamp, 99), core::errc::invalid_input)
    );  // 104 > 99: the rule's refusal
    core::stock_shortage shortage;
    BOOST_TEST(fails_with(w.add(alice, lamp, 6, &shortage), core::errc::out_of_stock));  // 11 > 10
    BOOST_TEST(shortage.product_id == lamp);
    BOOST_TEST(shortage.available == 10);
    BOOST_TEST(fails_with(w.add(alice, 999'999, 1, &shortage), core::errc::not_found));
    BOOST_TEST(shortage.product_id == 999'999);
    BOOST_TEST((w.shop->cart_of(alice).value().lines == std::vector<core::cart_line>{{lamp, 5}})
    );  // unchanged

    const auto with_coupon = w.shop->change_cart(
        alice,
        [](core::cart& c) -> core::result<void> {
            c.coupon = "SAVE10";
            return {};
        },
        now + 1
    );
    BOOST_TEST((with_coupon.value().coupon == std::optional<std::string>("SAVE10")));
    BOOST_TEST(w.shop->cart_of(alice).value().updated_at == now + 1);
    BOOST_TEST(w.shop->cart_of(bob).value().lines.empty());  // a user only ever sees their own
    BOOST_TEST(w.shop->count_carts() == 1u);
    BOOST_TEST(w.shop->clear_cart(alice).has_value());
    BOOST_TEST(w.shop->cart_of(alice).value().lines.empty());
    BOOST_TEST(w.shop->count_carts() == 0u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    a_change_hands_back_its_cart_priced_as_the_catalogue_prices_it, Backend, shop_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(10, 19.99);
    const auto mug = w.product(4, 0.1 + 0.2, "Mug");
    BOOST_TEST(w.add(alice, lamp, 3).has_value());
    core::cart_totals totals;
    const auto cart = w.shop->change_cart(
        alice,
        [&](core::cart& c) -> core::result<void> {
            (void)core::add_to_cart(c.lines, mug, 2);
            c.coupon = "SAVE10";
            return {};
        },
        now,
        nullptr,
        &totals
    );
    BOOST_TEST_REQUIRE(cart.has_value());
    const auto from_catalogue = core::price_cart(cart->lines, cart->coupon, [&](std::int64_t id) {
        const auto p = w.catalogue->find_product(id).value();
        return std::optional(core::catalogue_entry{p.title, core::price_to_cents(p.price)});
    });
    BOOST_TEST_REQUIRE(totals.lines.size() == 2u);
    BOOST_TEST(totals.lines[0].title == from_catalogue.lines[0].title);
    BOOST_TEST(totals.lines[1].price == 30);  // 0.1 + 0.2 in cents
    BOOST_TEST(totals.subtotal == 3 * 1999 + 2 * 30);
    BOOST_TEST(totals.subtotal == from_catalogue.subtotal);
    BOOST_TEST(totals.discount == from_catalogue.discount);
    BOOST_TEST(totals.total == from_catalogue.total);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(checkout_is_one_transaction, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(10, 19.99);
    const auto mug = w.product(4, 0.1 + 0.2, "Mug");
    BOOST_TEST(fails_with(w.checkout(alice), core::errc::cart_empty));
    BOOST_TEST(w.add(alice, lamp, 3).has_value());
    BOOST_TEST(w.add(alice, mug, 4).has_value());
    BOOST_TEST(w.shop
                   ->change_cart(
                       alice,
                       [](core::cart& c) -> core::result<void> {
                           c.coupon = "SAVE10";
                           return {};
                       },
                       now
                   )
                   .has_value());

    const auto order = w.checkout(alice).value();
    BOOST_TEST(order.id == 1);
    BOOST_TEST(order.user_id == alice);
    BOOST_TEST((order.status == shop_order_status::pending_payment));
    BOOST_TEST_REQUIRE(order.items.size() == 2u);
    BOOST_TEST((order.items[0] == core::order_item{lamp, order.items[0].title, 1999, 3, 5997}));
    BOOST_TEST((order.items[1] == core::order_item{mug, order.items[1].title, 30, 4, 120}));
    BOOST_TEST(order.subtotal == 6117);
    BOOST_TEST(order.discount == 612);  // 611.7 half up
    BOOST_TEST(order.shipping == 0);    // 55.05 after the discount: free from 50.00
    BOOST_TEST(order.total == 5505);
    BOOST_TEST((order.coupon == std::optional<std::string>("SAVE10")));
    BOOST_TEST(order.address.city == "London");
    BOOST_TEST(order.expires_at == now + ttl);
    BOOST_TEST(w.stock_of(lamp) == 7);
    BOOST_TEST(w.stock_of(mug) == 0);
    BOOST_TEST(w.shop->cart_of(alice).value().lines.empty());

    // What the store answers later is what it answered then, even after the catalogue price moves.
    core::product_patch dearer;
    dearer.price = 25.0;
    BOOST_TEST(w.catalogue->update_product(lamp, dearer).has_value());
    const auto again = w.shop->find_order(order.id, alice).value();
    BOOST_TEST(again.items[0].unit_price == 1999);
    BOOST_TEST(again.total == 5505);
    BOOST_TEST((again.address == order.address));

    BOOST_TEST(w.add(bob, lamp, 1).has_value());
    const auto second = w.checkout(bob).value();
    BOOST_TEST(second.id == 2);
    BOOST_TEST(second.items[0].unit_price == 2500);  // the price at this checkout
    BOOST_TEST(second.shipping == 500);
    BOOST_TEST(second.total == 3000);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(short_stock_changes_nothing, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(5);
    const auto mug = w.product(5, 3.0, "Mug");
    BOOST_TEST(w.add(alice, lamp, 2).has_value());
    BOOST_TEST(w.add(alice, mug, 4).has_value());
    BOOST_TEST(w.add(bob, mug, 3).has_value());
    BOOST_TEST(w.checkout(bob).has_value());  // mug: 2 left, alice wants 4

    core::stock_shortage shortage;
    BOOST_TEST(fails_with(w.checkout(alice, now, &shortage), core::errc::out_of_stock));
    BOOST_TEST(shortage.product_id == mug);
    BOOST_TEST(shortage.requested == 4);
    BOOST_TEST(shortage.available == 2);
    BOOST_TEST(w.stock_of(lamp) == 5);  // the lamp's decrement was rolled back with the rest
    BOOST_TEST(w.stock_of(mug) == 2);
    BOOST_TEST(w.shop->cart_of(alice).value().lines.size() == 2u);
    BOOST_TEST(w.shop->count_orders() == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(orders_move_only_as_the_state_machine_allows, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(10);
    BOOST_TEST(w.add(alice, lamp, 4).has_value());
    const auto first = w.checkout(alice).value();
    BOOST_TEST(w.add(alice, lamp, 1).has_value());
    const auto second = w.checkout(alice).value();
    BOOST_TEST(w.stock_of(lamp) == 5);

    // Another user's order is not there for them.
    BOOST_TEST(fails_with(w.shop->find_order(first.id, bob), core::errc::not_found));
    BOOST_TEST(fails_with(
        w.shop->change_order_status(first.id, shop_order_status::cancelled, now, bob), core::errc::not_found
    ));
    BOOST_TEST(w.shop->find_order(first.id, std::nullopt).has_value());  // an admin sees it

    BOOST_TEST(fails_with(
        w.shop->change_order_status(first.id, shop_order_status::shipped, now, alice),
        core::errc::transition_not_allowed
    ));
    BOOST_TEST(fails_with(
        w.shop->change_order_status(first.id, shop_order_status::paid, now, alice),
        core::errc::transition_not_allowed
    ));
    const auto cancelled =
        w.shop->change_order_status(first.id, shop_order_status::cancelled, now + 5, alice);
    BOOST_TEST((cancelled.value().status == shop_order_status::cancelled));
    BOOST_TEST(cancelled.value().updated_at == now + 5);
    BOOST_TEST(w.stock_of(lamp) == 9);  // given back
    BOOST_TEST(fails_with(
        w.shop->change_order_status(first.id, shop_order_status::cancelled, now, alice),
        core::errc::transition_not_allowed
    ));
    BOOST_TEST(w.stock_of(lamp) == 9);  // not twice

    // Paid, shipped, delivered; a paid order's cancel refunds its payment.
    BOOST_TEST(
        w.shop->record_payment(second.id, alice, decision(core::payment_status::succeeded), now).has_value()
    );
    BOOST_TEST(
        w.shop->change_order_status(second.id, shop_order_status::shipped, now, std::nullopt).has_value()
    );
    BOOST_TEST(fails_with(
        w.shop->change_order_status(second.id, shop_order_status::cancelled, now, alice),
        core::errc::transition_not_allowed
    ));
    BOOST_TEST(
        (w.shop->change_order_status(second.id, shop_order_status::delivered, now, std::nullopt)
             .value()
             .status == shop_order_status::delivered)
    );

    storage::order_filter mine;
    mine.user_id = alice;
    BOOST_TEST(w.shop->list_orders(mine).value().size() == 2u);
    mine.status = shop_order_status::delivered;
    const auto delivered = w.shop->list_orders(mine).value();
    BOOST_TEST_REQUIRE(delivered.size() == 1u);
    BOOST_TEST(delivered[0].id == second.id);
    BOOST_TEST(delivered[0].items.size() == 1u);
    mine.user_id = bob;
    BOOST_TEST(w.shop->list_orders(mine).value().empty());
}

// GET /orders' page comes from the store: filtered, sorted (ties by id), sliced, with the filter's total.
BOOST_AUTO_TEST_CASE_TEMPLATE(
    order_pages_are_sorted_sliced_and_counted_by_the_store, Backend, shop_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(20);  // 12.50; 5.00 shipping below 50.00
    const auto order = [&](std::int64_t user, std::int32_t units, core::timestamp_ms at) {
        BOOST_TEST_REQUIRE(w.add(user, lamp, units).has_value());
        return w.checkout(user, at).value().id;
    };
    const auto o1 = order(alice, 2, now + 30);  // total 30.00
    const auto o2 = order(alice, 1, now + 10);  // 17.50
    const auto o3 = order(alice, 3, now + 20);  // 42.50
    const auto o4 = order(alice, 1, now + 20);  // 17.50
    (void)order(bob, 1, now + 40);
    const auto ids = [](const storage::order_page& p) {
        std::vector<std::int64_t> out;
        for (const auto& o : p.orders) {
            out.push_back(o.id);
        }
        return out;
    };
    using key = storage::order_sort::key;
    storage::order_filter mine;
    mine.user_id = alice;
    const core::page_request all{0, 100};
    const auto by_total = w.shop->list_orders_page(mine, {key::total, false}, all).value();
    BOOST_TEST(by_total.total == 4u);
    BOOST_TEST((ids(by_total) == std::vector<std::int64_t>{o2, o4, o1, o3}));
    BOOST_TEST(by_total.orders.front().items.size() == 1u);
    BOOST_TEST(
        (ids(w.shop->list_orders_page(mine, {key::total, true}, all).value()) ==
         std::vector<std::int64_t>{o3, o1, o2, o4})
    );
    BOOST_TEST(
        (ids(w.shop->list_orders_page(mine, {key::created_at, true}, all).value()) ==
         std::vector<std::int64_t>{o1, o3, o4, o2})
    );
    const auto second_page = w.shop->list_orders_page(mine, {key::total, true}, {1, 2}).value();
    BOOST_TEST((ids(second_page) == std::vector<std::int64_t>{o1, o2}));
    BOOST_TEST(second_page.total == 4u);
    const auto past_the_end = w.shop->list_orders_page(mine, {}, {10, 5}).value();
    BOOST_TEST(past_the_end.orders.empty());
    BOOST_TEST(past_the_end.total == 4u);
    BOOST_TEST(w.shop->list_orders_page({}, {}, {0, 2}).value().total == 5u);  // an admin's: everyone's
    BOOST_TEST(w.shop->record_payment(o3, alice, decision(core::payment_status::succeeded), now).has_value());
    mine.status = shop_order_status::paid;
    const auto paid = w.shop->list_orders_page(mine, {}, all).value();
    BOOST_TEST((ids(paid) == std::vector<std::int64_t>{o3}));
    BOOST_TEST(paid.total == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cancelling_a_paid_order_refunds_it, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(3);
    BOOST_TEST(w.add(alice, lamp, 3).has_value());
    const auto order = w.checkout(alice).value();
    const auto paid = w.shop->record_payment(order.id, alice, decision(core::payment_status::succeeded), now);
    BOOST_TEST(paid.value().amount == order.total);
    BOOST_TEST((w.shop->find_order(order.id, alice).value().status == shop_order_status::paid));
    BOOST_TEST(w.shop->change_order_status(order.id, shop_order_status::cancelled, now, alice).has_value());
    BOOST_TEST(w.stock_of(lamp) == 3);
    const auto payments = w.shop->payments_of(order.id, alice).value();
    BOOST_TEST_REQUIRE(payments.size() == 1u);
    BOOST_TEST((payments[0].status == core::payment_status::refunded));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(unpaid_orders_expire_and_give_stock_back, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(6);
    BOOST_TEST(w.add(alice, lamp, 2).has_value());
    const auto early = w.checkout(alice, now).value();
    BOOST_TEST(w.add(alice, lamp, 3).has_value());
    const auto late = w.checkout(alice, now + 1000).value();
    BOOST_TEST(w.stock_of(lamp) == 1);

    BOOST_TEST(w.shop->expire_orders(now + ttl - 1).value().empty());
    // The orders this pass expired, as they are now: what the change feed is told.
    const auto swept = w.shop->expire_orders(now + ttl).value();
    BOOST_TEST_REQUIRE(swept.size() == 1u);
    BOOST_TEST(swept[0].id == early.id);
    BOOST_TEST(swept[0].user_id == alice);
    BOOST_TEST((swept[0].status == shop_order_status::expired));
    BOOST_TEST((w.shop->find_order(early.id, alice).value().status == shop_order_status::expired));
    BOOST_TEST((w.shop->find_order(late.id, alice).value().status == shop_order_status::pending_payment));
    BOOST_TEST(w.stock_of(lamp) == 3);
    BOOST_TEST(fails_with(
        w.shop->record_payment(early.id, alice, decision(core::payment_status::succeeded), now + ttl),
        core::errc::transition_not_allowed
    ));
    // Past its expiresAt but not swept yet: no longer payable either.
    BOOST_TEST(fails_with(
        w.shop->record_payment(late.id, alice, decision(core::payment_status::succeeded), now + ttl + 1000),
        core::errc::transition_not_allowed
    ));
    BOOST_TEST(w.shop->expire_orders(now + ttl + 1000).value().size() == 1u);
    BOOST_TEST(w.stock_of(lamp) == 6);
    BOOST_TEST(w.shop->expire_orders(now + ttl + 1000).value().empty());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(payments_follow_the_processor, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(10);
    BOOST_TEST(w.add(alice, lamp, 1).has_value());
    const auto order = w.checkout(alice).value();

    const auto declined =
        w.shop->record_payment(order.id, alice, decision(core::payment_status::failed, "card_declined"), now)
            .value();
    BOOST_TEST(declined.id == 1);
    BOOST_TEST((declined.failure_code == std::optional<std::string>("card_declined")));
    BOOST_TEST((w.shop->find_order(order.id, alice).value().status == shop_order_status::pending_payment));
    BOOST_TEST(fails_with(
        w.shop->record_payment(order.id, bob, decision(core::payment_status::succeeded), now),
        core::errc::not_found
    ));

    const auto three_ds =
        w.shop->record_payment(order.id, alice, decision(core::payment_status::requires_action), now).value();
    BOOST_TEST(three_ds.id == 2);
    BOOST_TEST((three_ds.next_action == std::optional<std::string>("three_d_secure")));
    BOOST_TEST((w.shop->find_order(order.id, alice).value().status == shop_order_status::pending_payment));
    BOOST_TEST(fails_with(w.shop->complete_payment(three_ds.id, bob, true, now), core::errc::not_found));
    BOOST_TEST(fails_with(
        w.shop->complete_payment(declined.id, alice, true, now), core::errc::transition_not_allowed
    ));
    const auto approved = w.shop->complete_payment(three_ds.id, alice, true, now + 7).value();
    BOOST_TEST((approved.status == core::payment_status::succeeded));
    BOOST_TEST(!approved.next_action);
    BOOST_TEST(approved.updated_at == now + 7);
    BOOST_TEST((w.shop->find_order(order.id, alice).value().status == shop_order_status::paid));
    BOOST_TEST(fails_with(
        w.shop->complete_payment(three_ds.id, alice, true, now), core::errc::transition_not_allowed
    ));
    BOOST_TEST(fails_with(
        w.shop->record_payment(order.id, alice, decision(core::payment_status::succeeded), now),
        core::errc::transition_not_allowed
    ));

    const auto found = w.shop->find_payment(three_ds.id, alice).value();
    BOOST_TEST(found.brand == "visa");
    BOOST_TEST(found.last4 == "4242");
    BOOST_TEST(found.amount == order.total);
    BOOST_TEST(fails_with(w.shop->find_payment(three_ds.id, bob), core::errc::not_found));
    const auto all = w.shop->payments_of(order.id, alice).value();
    BOOST_TEST_REQUIRE(all.size() == 2u);
    BOOST_TEST((all[0].status == core::payment_status::failed));
    BOOST_TEST((all[1].status == core::payment_status::succeeded));
    BOOST_TEST(fails_with(w.shop->payments_of(order.id, bob), core::errc::not_found));
    BOOST_TEST(w.shop->count_payments() == 2u);

    // A 3-D Secure step that fails leaves the order payable.
    BOOST_TEST(w.add(alice, lamp, 1).has_value());
    const auto next = w.checkout(alice).value();
    const auto pending =
        w.shop->record_payment(next.id, alice, decision(core::payment_status::requires_action), now);
    const auto failed = w.shop->complete_payment(pending.value().id, std::nullopt, false, now).value();
    BOOST_TEST((failed.failure_code == std::optional<std::string>("authentication_failed")));
    BOOST_TEST((w.shop->find_order(next.id, alice).value().status == shop_order_status::pending_payment));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(idempotency_keys_replay_refuse_and_expire, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    auto& keys = *w.shop;
    BOOST_TEST(!keys.begin_request(alice, "k1", "fp-a", now).value().has_value());  // runs
    BOOST_TEST(
        fails_with(keys.begin_request(alice, "k1", "fp-a", now + 1), core::errc::idempotency_in_progress)
    );
    BOOST_TEST(fails_with(keys.begin_request(alice, "k1", "fp-b", now + 1), core::errc::idempotency_mismatch)
    );
    BOOST_TEST(!keys.begin_request(bob, "k1", "fp-b", now).value().has_value());  // scoped to the user
    BOOST_TEST(keys.finish_request(alice, "k1", {201, R"({"id":1})"}, now + 2).has_value());
    const auto replay = keys.begin_request(alice, "k1", "fp-a", now + 3).value();
    BOOST_TEST_REQUIRE(replay.has_value());
    BOOST_TEST(replay->status == 201);
    BOOST_TEST(replay->body == R"({"id":1})");
    BOOST_TEST(fails_with(keys.begin_request(alice, "k1", "fp-b", now + 3), core::errc::idempotency_mismatch)
    );
    BOOST_TEST(fails_with(keys.finish_request(alice, "unknown", {200, ""}, now), core::errc::not_found));

    // An abandoned request may run again; a marker left by a crash is taken over once stale.
    BOOST_TEST(!keys.begin_request(alice, "k2", "fp-a", now).value().has_value());
    BOOST_TEST(keys.abandon_request(alice, "k2").has_value());
    BOOST_TEST(!keys.begin_request(alice, "k2", "fp-c", now).value().has_value());
    BOOST_TEST(
        !keys.begin_request(alice, "k2", "fp-c", now + core::idempotency_stale_after_ms).value().has_value()
    );

    // After 24 h a key is free again, and purged.
    const auto day_later = now + core::idempotency_key_lifetime_ms;
    BOOST_TEST(!keys.begin_request(alice, "k1", "fp-b", day_later).value().has_value());
    BOOST_TEST(keys.purge_keys(day_later + core::idempotency_key_lifetime_ms).value() == 3u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(twenty_buyers_for_five_units, Backend, shop_backends) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(5);
    constexpr int buyers = 20;
    for (int b = 0; b < buyers; ++b) {
        BOOST_TEST_REQUIRE(w.add(100 + b, lamp, 1).has_value());
    }
    std::atomic<int> sold{0};
    std::atomic<int> refused{0};
    std::atomic<int> other{0};
    std::vector<std::thread> threads;
    for (int b = 0; b < buyers; ++b) {
        threads.emplace_back([&, b] {
            const auto r = w.checkout(100 + b);
            (r ? sold : (r.error() == core::errc::out_of_stock ? refused : other))++;
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    BOOST_TEST(sold.load() == 5);
    BOOST_TEST(refused.load() == 15);
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(w.stock_of(lamp) == 0);
    BOOST_TEST(w.shop->count_orders() == 5u);
    std::int64_t ordered = 0;
    for (const auto& o : w.shop->list_orders({}).value()) {
        ordered += o.items.at(0).quantity;
    }
    BOOST_TEST(ordered == 5);
}

// The server's write lane runs shop writes inside a writer thread's storage::write_batch (issue 46): a
// checkout and a payment there answer at once, see the batch's earlier writes, undo only themselves on an
// error answer, and stand only once the batch commits (a batch that never commits leaves nothing behind).
using batched_backends = boost::mpl::list<sqlite_backend, pg_backend>;

BOOST_AUTO_TEST_CASE_TEMPLATE(
    shop_writes_in_a_write_batch_stand_only_once_it_commits, Backend, batched_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    shop_world w(Backend::config());
    const auto lamp = w.product(5);
    BOOST_TEST_REQUIRE(w.add(alice, lamp, 2).has_value());
    {
        storage::write_batch never_committed;
        BOOST_TEST_REQUIRE(w.checkout(alice).has_value());
    }
    BOOST_TEST(w.stock_of(lamp) == 5);
    BOOST_TEST(w.shop->cart_of(alice).value().lines.size() == 1u);

    std::int64_t order_id = 0;
    {
        storage::write_batch batch;
        const auto order = w.checkout(alice);
        BOOST_TEST_REQUIRE(order.has_value());
        order_id = order->id;
        BOOST_TEST(fails_with(w.checkout(alice), core::errc::cart_empty));  // sees the batch's checkout
        const auto paid =
            w.shop->record_payment(order_id, alice, decision(core::payment_status::succeeded), now);
        BOOST_TEST_REQUIRE(paid.has_value());
        BOOST_TEST(w.stock_of(lamp) == 5);  // not committed yet: others do not see it
        batch.commit();
    }
    BOOST_TEST(w.stock_of(lamp) == 3);
    BOOST_TEST((w.shop->find_order(order_id, alice).value().status == shop_order_status::paid));
    BOOST_TEST(w.shop->cart_of(alice).value().lines.empty());
}

BOOST_AUTO_TEST_SUITE_END()
