// pg_shop_store: carts, orders, payments and idempotency keys in PostgreSQL, each write one transaction.
// Checkout takes stock with conditional decrements (UPDATE … WHERE stock >= n, one row or none), in product
// id order so two checkouts never wait for each other crosswise; a user's cart changes and checkouts are
// serialised by a row lock on the cart, so one cart never becomes two orders, across instances too.

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "common/found.hpp"
#include "common/shop_checks.hpp"
#include "core/cart_rules.hpp"
#include "core/order_states.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/columns.hpp"
#include "postgres/stores.hpp"

namespace storefront::storage {

using detail::pg_connection;
using detail::pg_params;
using detail::pg_rows;

namespace {

using core::shop_order_status;

// pg_advisory_xact_lock key space of carts ("CART" in the high bytes, the user id below): a user's first
// cart row does not exist yet to be locked, so changes of one user's cart queue on this instead.
constexpr std::int64_t cart_lock_base = 0x4341525400000000;

// Sent with the transaction's next statement (the cart's read), which runs once the lock is held.
void lock_cart(pg_connection& db, std::int64_t user_id) {
    db.exec_later(
        "SELECT pg_advisory_xact_lock($1)", pg_params().add(cart_lock_base ^ user_id), detail::pg_plan::kept
    );
}

// The cart's row and its lines in one statement (a row per line; one row with NULL line columns for a cart
// without lines; none without a cart).
core::cart read_cart(pg_connection& db, std::int64_t user_id) {
    core::cart cart;
    cart.user_id = user_id;
    const auto rows = db.exec(
        "SELECT c.id, c.coupon, c.created_at, c.updated_at, l.product_id, l.quantity FROM carts c "
        "LEFT JOIN cart_lines l ON l.cart_id = c.id WHERE c.user_id = $1 ORDER BY l.position",
        pg_params().add(user_id)
    );
    if (rows.empty()) {
        return cart;
    }
    detail::read_columns(rows, 0, 0, cart.id, cart.coupon, cart.created_at, cart.updated_at);
    for (int i = 0; i < rows.size(); ++i) {
        if (!rows.is_null(i, 4)) {
            cart.lines.push_back({rows.int64(i, 4), static_cast<std::int32_t>(rows.int64(i, 5))});
        }
    }
    return cart;
}

// Adds the rows of `items` (order_id, product_id, title, unit_price, quantity, line_total, by order and
// position) to the orders of `out` they belong to, which may be in any order (a page sorted by total).
void attach_items(std::vector<core::shop_order>& out, const pg_rows& items) {
    std::map<std::int64_t, std::size_t> position;
    for (std::size_t at = 0; at < out.size(); ++at) {
        position.emplace(out[at].id, at);
    }
    for (int i = 0; i < items.size(); ++i) {
        const auto found = position.find(items.int64(i, 0));
        if (found == position.end()) {
            continue;
        }
        out[found->second].items.push_back(
            {items.int64(i, 1),
             std::string(items.text(i, 2)),
             items.int64(i, 3),
             static_cast<std::int32_t>(items.int64(i, 4)),
             items.int64(i, 5)}
        );
    }
}

// `tail`: the ORDER BY (and LIMIT) after `where`.
std::vector<core::shop_order> orders_where(
    pg_connection& db, std::string_view where, const pg_params& params, std::string_view tail = "ORDER BY id"
) {
    const auto r =
        db.exec(std::string(detail::order_columns) + std::string(where) + " " + std::string(tail), params);
    auto out = detail::read_rows(r, detail::order_at<detail::pg_row>);
    if (out.empty()) {
        return out;
    }
    std::vector<std::string> ids;
    for (const auto& o : out) {
        ids.push_back(std::to_string(o.id));
    }
    attach_items(
        out,
        db.exec(
            "SELECT order_id, product_id, title, unit_price, quantity, line_total FROM order_items "
            "WHERE order_id = ANY($1::bigint[]) ORDER BY order_id, position",
            pg_params().add(detail::format_array(ids))
        )
    );
    return out;
}

// Inside a transaction: the order and its items in one round trip (the items' read goes after the order's,
// which holds the row lock first when `for_update`).
std::optional<core::shop_order> order_by_id(pg_connection& db, std::int64_t id, bool for_update = false) {
    pg_rows head;
    db.exec_later(
        std::string(detail::order_columns) + (for_update ? "WHERE id = $1 FOR UPDATE" : "WHERE id = $1"),
        pg_params().add(id),
        detail::pg_plan::per_run,
        &head
    );
    const auto items = db.exec(
        "SELECT order_id, product_id, title, unit_price, quantity, line_total FROM order_items "
        "WHERE order_id = $1 ORDER BY position",
        pg_params().add(id)
    );
    auto found = detail::read_rows(head, detail::order_at<detail::pg_row>);
    if (found.empty()) {
        return std::nullopt;
    }
    attach_items(found, items);
    return std::optional(std::move(found.front()));
}

std::vector<core::payment> payments_where(pg_connection& db, std::string_view where, std::int64_t key) {
    const auto r = db.exec(
        std::string(detail::payment_columns) + std::string(where) + " ORDER BY id", pg_params().add(key)
    );
    return detail::read_rows(r, detail::payment_at<detail::pg_row>);
}

// Inside a transaction: sent with its next statement (nothing reads its answer).
void set_order_status(pg_connection& db, std::int64_t id, shop_order_status to, core::timestamp_ms now) {
    db.exec_later(
        "UPDATE shop_orders SET status = $2, updated_at = $3 WHERE id = $1",
        pg_params().add(id).add(core::to_string(to)).add(now)
    );
}

// Inside a write's transaction: tells every instance's catalogue (this one's too: the payload names no
// origin, so the listener records it) that product `id` changed, delivered at commit. Stock is shown in
// product bodies, which the catalogue caches per revision: without this they would keep the old stock.
void stock_changed(pg_connection& db, const std::string& catalogue_channel, std::int64_t id) {
    db.exec_later(
        "SELECT pg_notify($1, $2)",
        pg_params().add(catalogue_channel).add("products " + std::to_string(id)),
        detail::pg_plan::kept
    );
}

// Inside a transaction holding the order's row lock: moves `o` to `to` when the state machine allows it,
// giving stock back and refunding as core::check_transition says.
core::result<core::shop_order> move_order(
    pg_connection& db,
    core::shop_order o,
    shop_order_status to,
    core::timestamp_ms now,
    const std::string& catalogue_channel
) {
    return detail::apply_move(
        std::move(o),
        to,
        now,
        [&](const core::shop_order& order) {
            auto items = order.items;  // in product order, the lock order of every stock write
            std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
                return a.product_id < b.product_id;
            });
            for (const auto& item : items) {
                (void)db.exec(
                    "UPDATE products SET stock = stock + $2 WHERE id = $1",
                    pg_params().add(item.product_id).add(static_cast<std::int64_t>(item.quantity))
                );
                stock_changed(db, catalogue_channel, item.product_id);
            }
        },
        [&](const core::shop_order& order) {
            (void)db.exec(
                "UPDATE payments SET status = 'refunded', updated_at = $2 WHERE order_id = $1 AND status = "
                "'succeeded'",
                pg_params().add(order.id).add(now)
            );
        },
        [&](const core::shop_order& moved) { set_order_status(db, moved.id, moved.status, moved.updated_at); }
    );
}

// Whether every line of `cart` is in stock, from one statement; the first line short (in the cart's order)
// answers not_found or out_of_stock, described in `shortage`. The products' titles and prices go to `read`.
core::result<void> check_stock(
    pg_connection& db, const core::cart& cart, core::stock_shortage* shortage, detail::read_entries& read
) {
    if (cart.lines.empty()) {
        return {};
    }
    std::vector<std::string> ids;
    for (const auto& line : cart.lines) {
        ids.push_back(std::to_string(line.product_id));
    }
    const auto r = db.exec(
        "SELECT id, stock, title, price FROM products WHERE id = ANY($1::bigint[])",
        pg_params().add(detail::format_array(ids))
    );
    std::map<std::int64_t, std::int64_t> stock;
    for (int i = 0; i < r.size(); ++i) {
        stock.emplace(r.int64(i, 0), r.int64(i, 1));
        read[r.int64(i, 0)] = {std::string(r.text(i, 2)), core::price_to_cents(r.real(i, 3))};
    }
    for (const auto& line : cart.lines) {
        const auto found = stock.find(line.product_id);
        if (found == stock.end() || found->second < line.quantity) {
            if (shortage) {
                *shortage = {line.product_id, line.quantity, found == stock.end() ? 0 : found->second};
            }
            return found == stock.end() ? core::errc::not_found : core::errc::out_of_stock;
        }
    }
    return {};
}

std::int64_t insert_payment(pg_connection& db, const core::payment& p) {
    const auto r = db.exec(
        "INSERT INTO payments (order_id, user_id, amount, status, brand, last4, failure_code, next_action, "
        "created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id",
        pg_params()
            .add(p.order_id)
            .add(p.user_id)
            .add(p.amount)
            .add(core::to_string(p.status))
            .add(p.brand)
            .add(p.last4)
            .add(p.failure_code)
            .add(p.next_action)
            .add(p.created_at)
            .add(p.updated_at),
        detail::pg_plan::kept
    );
    return r.int64(0, 0);
}

// GET /orders' filter ($1 user, $2 status) and order.
constexpr std::string_view filtered_orders =
    "WHERE ($1::bigint IS NULL OR user_id = $1) AND ($2::text IS NULL OR status = $2)";

pg_params filter_params(const order_filter& filter) {
    return pg_params()
        .add(filter.user_id)
        .add(filter.status ? std::optional<std::string>(core::to_string(*filter.status)) : std::nullopt);
}

class pg_shop_store final : public shop_store {
  public:
    pg_shop_store(const pg_target& target, std::size_t pool_size)
        : aggregate_(target, pool_size, "shop", {}, false),
          catalogue_channel_(detail::pg_channel(target.schema, "catalogue")),
          target_(target),
          seed_lock_(detail::pg_channel(target.schema, "shop_seed")) {}

    core::result<core::cart> cart_of(std::int64_t user_id) const override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);  // head and lines from one snapshot
        auto cart = read_cart(*db, user_id);
        tx.commit();
        return cart;
    }

    core::result<core::cart> change_cart(
        std::int64_t user_id,
        const cart_change& change,
        core::timestamp_ms now,
        core::stock_shortage* shortage,
        core::cart_totals* totals
    ) override {
        return aggregate_.write_untold([&](pg_connection& db) -> core::result<core::cart> {
            lock_cart(db, user_id);
            core::cart cart = read_cart(db, user_id);
            if (auto changed = change(cart); !changed) {
                return changed.error();
            }
            detail::read_entries read;
            if (auto stocked = check_stock(db, cart, shortage, read); !stocked) {
                return stocked.error();
            }
            detail::report_priced(cart, read, totals);
            cart.user_id = user_id;
            cart.updated_at = now;
            if (cart.id == 0) {
                cart.created_at = now;
                cart.id =
                    db.exec(
                          "INSERT INTO carts (user_id, coupon, created_at, updated_at) VALUES ($1,$2,$3,$3) "
                          "RETURNING id",
                          pg_params().add(user_id).add(cart.coupon).add(now),
                          detail::pg_plan::kept
                    )
                        .int64(0, 0);
            } else {
                db.exec_later(
                    "UPDATE carts SET coupon = $2, updated_at = $3 WHERE id = $1",
                    pg_params().add(cart.id).add(cart.coupon).add(now)
                );
                db.exec_later("DELETE FROM cart_lines WHERE cart_id = $1", pg_params().add(cart.id));
            }
            // The rest goes with the COMMIT.
            for (std::size_t i = 0; i < cart.lines.size(); ++i) {
                db.exec_later(
                    "INSERT INTO cart_lines (cart_id, position, product_id, quantity) VALUES ($1,$2,$3,$4)",
                    pg_params()
                        .add(cart.id)
                        .add(static_cast<std::int64_t>(i))
                        .add(cart.lines[i].product_id)
                        .add(static_cast<std::int64_t>(cart.lines[i].quantity)),
                    detail::pg_plan::kept
                );
            }
            return cart;
        });
    }

    core::result<void> clear_cart(std::int64_t user_id) override {
        auto db = aggregate_.connection();
        (void)db->exec("DELETE FROM carts WHERE user_id = $1", pg_params().add(user_id));
        return {};
    }

    std::size_t count_carts() const override { return count("carts"); }

    core::result<core::shop_order> checkout(const checkout_request& request, core::stock_shortage* shortage)
        override {
        return aggregate_.write_untold([&](pg_connection& db) -> core::result<core::shop_order> {
            lock_cart(db, request.user_id);
            const core::cart cart = read_cart(db, request.user_id);
            if (cart.lines.empty()) {
                return core::errc::cart_empty;
            }
            auto by_product = cart.lines;
            std::sort(by_product.begin(), by_product.end(), [](const auto& a, const auto& b) {
                return a.product_id < b.product_id;
            });
            std::map<std::int64_t, std::pair<std::string, double>> taken;  // product -> title, price
            for (const auto& line : by_product) {
                // The conditional decrement is the guard: it changes one row or none, whoever races.
                const auto r = db.exec(
                    "UPDATE products SET stock = stock - $2 WHERE id = $1 AND stock >= $2 RETURNING title, "
                    "price",
                    pg_params().add(line.product_id).add(static_cast<std::int64_t>(line.quantity))
                );
                if (r.empty()) {
                    const auto left =
                        db.exec("SELECT stock FROM products WHERE id = $1", pg_params().add(line.product_id));
                    if (shortage) {
                        *shortage = {line.product_id, line.quantity, left.empty() ? 0 : left.int64(0, 0)};
                    }
                    return left.empty() ? core::errc::not_found : core::errc::out_of_stock;
                }
                taken[line.product_id] = {std::string(r.text(0, 0)), r.real(0, 1)};
                stock_changed(db, catalogue_channel_, line.product_id);
            }
            std::vector<core::priced_line> lines;
            for (const auto& line : cart.lines) {
                const auto& [title, price] = taken[line.product_id];
                lines.push_back({line.product_id, title, core::price_to_cents(price), line.quantity, 0});
            }
            core::shop_order o = detail::order_of_checkout(cart, std::move(lines), request);
            o.id = db.exec(
                         "INSERT INTO shop_orders (user_id, status, subtotal, discount, shipping, total, "
                         "coupon, "
                         "name, "
                         "line1, line2, city, postal_code, country, created_at, updated_at, expires_at) "
                         "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16) RETURNING id",
                         pg_params()
                             .add(o.user_id)
                             .add(core::to_string(o.status))
                             .add(o.subtotal)
                             .add(o.discount)
                             .add(o.shipping)
                             .add(o.total)
                             .add(o.coupon)
                             .add(o.address.name)
                             .add(o.address.line1)
                             .add(o.address.line2)
                             .add(o.address.city)
                             .add(o.address.postal_code)
                             .add(o.address.country)
                             .add(o.created_at)
                             .add(o.updated_at)
                             .add(o.expires_at),
                         detail::pg_plan::kept
            )
                       .int64(0, 0);
            // The rest goes with the COMMIT.
            for (std::size_t i = 0; i < o.items.size(); ++i) {
                const auto& it = o.items[i];
                db.exec_later(
                    "INSERT INTO order_items (order_id, position, product_id, title, unit_price, quantity, "
                    "line_total) "
                    "VALUES ($1,$2,$3,$4,$5,$6,$7)",
                    pg_params()
                        .add(o.id)
                        .add(static_cast<std::int64_t>(i))
                        .add(it.product_id)
                        .add(it.title)
                        .add(it.unit_price)
                        .add(static_cast<std::int64_t>(it.quantity))
                        .add(it.line_total),
                    detail::pg_plan::kept
                );
            }
            db.exec_later("DELETE FROM carts WHERE user_id = $1", pg_params().add(request.user_id));
            return o;
        });
    }

    core::result<core::shop_order> find_order(std::int64_t id, std::optional<std::int64_t> owner)
        const override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        auto o = order_by_id(*db, id);
        tx.commit();
        return detail::owned(std::move(o), owner);
    }

    core::result<std::vector<core::shop_order>> list_orders(const order_filter& filter) const override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        auto out = orders_where(*db, filtered_orders, filter_params(filter));
        tx.commit();
        return out;
    }

    core::result<order_page> list_orders_page(
        const order_filter& filter, const order_sort& sort, core::page_request page
    ) const override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        (void)db->exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"
        );  // the page and total: one snapshot
        order_page out;
        out.total =
            static_cast<std::size_t>(db->exec(
                                           "SELECT count(*) FROM shop_orders " + std::string(filtered_orders),
                                           filter_params(filter)
            )
                                         .int64(0, 0));
        out.orders = orders_where(
            *db,
            filtered_orders,
            filter_params(filter)
                .add(static_cast<std::int64_t>(std::min<std::size_t>(page.limit, INT64_MAX)))
                .add(static_cast<std::int64_t>(std::min<std::size_t>(page.offset, INT64_MAX))),
            detail::order_by(sort) + " LIMIT $3 OFFSET $4"
        );
        tx.commit();
        return out;
    }

    core::result<core::shop_order> change_order_status(
        std::int64_t id, shop_order_status to, core::timestamp_ms now, std::optional<std::int64_t> owner
    ) override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        auto o = detail::owned(order_by_id(*db, id, true), owner);
        if (!o) {
            return o.error();
        }
        const auto target = detail::status_to_apply(*o, to, now);
        auto moved = move_order(*db, std::move(*o), target, now, catalogue_channel_);
        if (!moved) {
            return moved.error();
        }
        tx.commit();
        return detail::as_asked(std::move(moved), to);
    }

    core::result<std::vector<core::shop_order>> expire_orders(core::timestamp_ms now) override {
        auto db = aggregate_.connection();
        const auto due = db->exec(
            "SELECT id FROM shop_orders WHERE status = 'pending_payment' AND expires_at <= $1 ORDER BY id",
            pg_params().add(now)
        );
        std::vector<core::shop_order> expired;
        for (int i = 0; i < due.size(); ++i) {
            detail::pg_transaction tx(*db);
            auto o = order_by_id(*db, due.int64(i, 0), true);
            // Paid, cancelled or expired meanwhile (by another instance too): nothing to do.
            if (!o || !core::is_due_to_expire(*o, now)) {
                continue;
            }
            if (auto moved =
                    move_order(*db, std::move(*o), shop_order_status::expired, now, catalogue_channel_)) {
                tx.commit();
                expired.push_back(std::move(*moved));
            }
        }
        return expired;
    }

    std::size_t count_orders() const override { return count("shop_orders"); }

    void seed_history_once(const std::function<void()>& seed) override {
        if (count_orders() != 0) {
            return;  // every start but the first: no lock needed
        }
        // A session lock on a connection of its own, released when it closes (also when `seed` throws).
        pg_connection lock(target_.dsn, {});
        (void)lock.exec("SELECT pg_advisory_lock(hashtext($1))", pg_params().add(seed_lock_));
        if (count_orders() == 0) {  // not seeded by an instance that held the lock first
            seed();
        }
    }

    core::result<core::payment> record_payment(
        std::int64_t order_id,
        std::optional<std::int64_t> owner,
        const core::charge_decision& decision,
        core::timestamp_ms now,
        core::shop_order* paid
    ) override {
        return aggregate_.write_untold([&](pg_connection& db) -> core::result<core::payment> {
            auto order = order_by_id(db, order_id, true);
            auto p = detail::new_payment(order ? &*order : nullptr, owner, decision, now);
            if (!p) {
                return p;
            }
            p->id = insert_payment(db, *p);
            if (p->status == core::payment_status::succeeded) {
                set_order_status(db, p->order_id, shop_order_status::paid, now);
                detail::report_paid(*order, now, paid);
            }
            return p;
        });
    }

    core::result<core::payment> complete_payment(
        std::int64_t payment_id,
        std::optional<std::int64_t> owner,
        bool approve,
        core::timestamp_ms now,
        core::shop_order* paid
    ) override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        const auto order_of =
            db->exec("SELECT order_id FROM payments WHERE id = $1", pg_params().add(payment_id));
        if (order_of.empty()) {
            return core::errc::not_found;
        }
        // The order first, then the payment: the lock order every payment write keeps.
        auto o = order_by_id(*db, order_of.int64(0, 0), true);
        auto found = detail::owned(
            detail::first_or_not_found(payments_where(*db, "WHERE id = $1", payment_id)), owner
        );
        if (!found) {
            return found.error();
        }
        core::payment p = std::move(*found);
        if (auto done = core::complete_stored_three_d_secure(p, o ? &*o : nullptr, approve, now); !done) {
            return done.error();
        }
        db->exec_later(
            "UPDATE payments SET status = $2, failure_code = $3, next_action = $4, updated_at = $5 WHERE id "
            "= $1",
            pg_params()
                .add(p.id)
                .add(core::to_string(p.status))
                .add(p.failure_code)
                .add(p.next_action)
                .add(now)
        );
        if (p.status == core::payment_status::succeeded) {
            set_order_status(*db, o->id, shop_order_status::paid, now);
            detail::report_paid(*o, now, paid);
        }
        tx.commit();
        return p;
    }

    core::result<core::payment> find_payment(std::int64_t payment_id, std::optional<std::int64_t> owner)
        const override {
        auto db = aggregate_.connection();
        return detail::owned(
            detail::first_or_not_found(payments_where(*db, "WHERE id = $1", payment_id)), owner
        );
    }

    core::result<std::vector<core::payment>> payments_of(
        std::int64_t order_id, std::optional<std::int64_t> owner
    ) const override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        const auto o = db->exec("SELECT user_id FROM shop_orders WHERE id = $1", pg_params().add(order_id));
        if (o.empty() || (owner && o.int64(0, 0) != *owner)) {
            return core::errc::not_found;
        }
        auto out = payments_where(*db, "WHERE order_id = $1", order_id);
        tx.commit();
        return out;
    }

    std::size_t count_payments() const override { return count("payments"); }

    core::result<std::optional<stored_answer>> begin_request(
        std::int64_t user_id, const std::string& key, const std::string& fingerprint, core::timestamp_ms now
    ) override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        // The first request with a key inserts its marker; every other one finds the row and locks it.
        const auto inserted = db->exec(
            "INSERT INTO idempotency_keys (user_id, key, fingerprint, in_progress, status, body, created_at, "
            "updated_at) VALUES ($1,$2,$3,true,0,'',$4,$4) ON CONFLICT (user_id, key) DO NOTHING",
            pg_params().add(user_id).add(key).add(fingerprint).add(now)
        );
        if (inserted.affected() == 1) {
            tx.commit();
            return std::optional<stored_answer>();
        }
        const auto r = db->exec(
            "SELECT fingerprint, in_progress, status, body, created_at, updated_at FROM idempotency_keys "
            "WHERE user_id = $1 AND key = $2 FOR UPDATE",
            pg_params().add(user_id).add(key)
        );
        std::optional<core::idempotency_record> existing;
        if (!r.empty()) {
            existing = core::idempotency_record{
                std::string(r.text(0, 0)),
                r.boolean(0, 1),
                static_cast<int>(r.int64(0, 2)),
                std::string(r.text(0, 3)),
                r.int64(0, 4),
                r.int64(0, 5)};
        }
        auto answer = detail::idempotency_answer(existing, fingerprint, now);
        if (!answer || *answer) {
            return answer;  // a replay or a refusal
        }
        (void)db->exec(
            "INSERT INTO idempotency_keys (user_id, key, fingerprint, in_progress, status, body, created_at, "
            "updated_at) VALUES ($1,$2,$3,true,0,'',$4,$4) ON CONFLICT (user_id, key) DO UPDATE SET "
            "fingerprint = excluded.fingerprint, in_progress = true, status = 0, body = '', "
            "created_at = excluded.created_at, updated_at = excluded.updated_at",
            pg_params().add(user_id).add(key).add(fingerprint).add(now)
        );
        tx.commit();
        return answer;
    }

    core::result<void> finish_request(
        std::int64_t user_id, const std::string& key, const stored_answer& answer, core::timestamp_ms now
    ) override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "UPDATE idempotency_keys SET in_progress = false, status = $3, body = $4, updated_at = $5 "
            "WHERE user_id = $1 AND key = $2",
            pg_params()
                .add(user_id)
                .add(key)
                .add(static_cast<std::int64_t>(answer.status))
                .add(answer.body)
                .add(now)
        );
        if (r.affected() == 0) {
            return core::errc::not_found;
        }
        return {};
    }

    core::result<void> abandon_request(std::int64_t user_id, const std::string& key) override {
        auto db = aggregate_.connection();
        (void)db->exec(
            "DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND in_progress",
            pg_params().add(user_id).add(key)
        );
        return {};
    }

    core::result<std::size_t> purge_keys(core::timestamp_ms now) override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "DELETE FROM idempotency_keys WHERE created_at <= $1",
            pg_params().add(now - core::idempotency_key_lifetime_ms)
        );
        return static_cast<std::size_t>(r.affected());
    }

  private:
    std::size_t count(std::string_view table) const {
        auto db = aggregate_.connection();
        return static_cast<std::size_t>(db->exec("SELECT count(*) FROM " + std::string(table)).int64(0, 0));
    }

    mutable detail::pg_aggregate aggregate_;
    std::string catalogue_channel_;  // where stock changes are told (stock_changed)
    pg_target target_;
    std::string seed_lock_;  // the advisory lock's name (hashed): per schema, so per sandbox
};

}  // namespace

std::unique_ptr<shop_store> make_pg_shop_store(const pg_target& target, std::size_t pool_size) {
    return std::make_unique<pg_shop_store>(target, pool_size);
}

}  // namespace storefront::storage
