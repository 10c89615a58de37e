// sqlite_shop_store: carts, orders, payments and idempotency keys in the data set's file. Each write is one
// savepoint of a group commit (sqlite/database.hpp), so a checkout (cart read, conditional stock
// decrements, order, emptied cart), a cancel or a payment is all or nothing; stock changes also move the
// catalogue's revision.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "common/found.hpp"
#include "common/shop_checks.hpp"
#include "core/cart_rules.hpp"
#include "core/order_states.hpp"
#include "seed/catalogue.hpp"
#include "sqlite/columns.hpp"
#include "sqlite/database.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

namespace {

using core::shop_order_status;
using detail::sqlite_connection;
using detail::sqlite_statement;
using step = sqlite_statement::step_result;

core::cart read_cart(sqlite_connection& db, std::int64_t user_id) {
    core::cart cart;
    cart.user_id = user_id;
    auto head = db.prepare("SELECT id, coupon, created_at, updated_at FROM carts WHERE user_id = ?1");
    head.bind(1, user_id);
    if (head.step() != step::row) {
        return cart;
    }
    detail::read_columns(head, 0, cart.id, cart.coupon, cart.created_at, cart.updated_at);
    auto lines =
        db.prepare("SELECT product_id, quantity FROM cart_lines WHERE cart_id = ?1 ORDER BY position");
    lines.bind(1, cart.id);
    while (lines.step() == step::row) {
        cart.lines.push_back({lines.int64(0), static_cast<std::int32_t>(lines.int64(1))});
    }
    return cart;
}

void delete_cart(sqlite_connection& db, std::int64_t user_id) {
    auto remove = db.prepare("DELETE FROM carts WHERE user_id = ?1");
    remove.bind(1, user_id);
    (void)remove.step();
}

// Current title, price and stock of a product; nullopt when it is gone.
struct product_row {
    std::string title;
    double price = 0;
    std::int64_t stock = 0;
};
std::optional<product_row> product_of(sqlite_connection& db, std::int64_t id) {
    auto s = db.prepare("SELECT title, price, stock FROM products WHERE id = ?1");
    s.bind(1, id);
    if (s.step() != step::row) {
        return std::nullopt;
    }
    return product_row{s.text(0), s.real(1), s.int64(2)};
}

// `tail`: the ORDER BY (and LIMIT) after `where`.
std::vector<core::shop_order> orders_where(
    sqlite_connection& db,
    std::string_view where,
    const std::function<void(sqlite_statement&)>& bind,
    std::string_view tail = "ORDER BY id"
) {
    auto s = db.prepare(std::string(detail::order_columns) + std::string(where) + " " + std::string(tail));
    bind(s);
    auto out = detail::read_rows(s, detail::order_at<detail::sqlite_row>);
    auto items = db.prepare(
        "SELECT product_id, title, unit_price, quantity, line_total FROM order_items WHERE order_id = ?1 "
        "ORDER BY position"
    );
    for (auto& o : out) {
        items.reset();
        items.bind(1, o.id);
        while (items.step() == step::row) {
            o.items.push_back(
                {items.int64(0),
                 items.text(1),
                 items.int64(2),
                 static_cast<std::int32_t>(items.int64(3)),
                 items.int64(4)}
            );
        }
    }
    return out;
}

std::optional<core::shop_order> order_by_id(sqlite_connection& db, std::int64_t id) {
    auto found = orders_where(db, "WHERE id = ?1", [&](auto& s) { s.bind(1, id); });
    return found.empty() ? std::nullopt : std::optional(std::move(found.front()));
}

std::vector<core::payment> payments_where(sqlite_connection& db, std::string_view where, std::int64_t key) {
    auto s = db.prepare(std::string(detail::payment_columns) + std::string(where) + " ORDER BY id");
    s.bind(1, key);
    return detail::read_rows(s, detail::payment_at<detail::sqlite_row>);
}

void insert_payment(sqlite_connection& db, const core::payment& p) {
    auto insert = db.prepare(
        "INSERT OR REPLACE INTO payments (id, order_id, user_id, amount, status, brand, last4, failure_code, "
        "next_action, created_at, updated_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)"
    );
    insert.bind(1, p.id).bind(2, p.order_id).bind(3, p.user_id).bind(4, p.amount);
    insert.bind(5, core::to_string(p.status))
        .bind(6, std::string_view(p.brand))
        .bind(7, std::string_view(p.last4));
    insert.bind_optional(8, p.failure_code).bind_optional(9, p.next_action);
    insert.bind(10, p.created_at).bind(11, p.updated_at);
    (void)insert.step();
}

void set_order_status(sqlite_connection& db, std::int64_t id, shop_order_status to, core::timestamp_ms now) {
    auto update = db.prepare("UPDATE shop_orders SET status = ?2, updated_at = ?3 WHERE id = ?1");
    update.bind(1, id).bind(2, core::to_string(to)).bind(3, now);
    (void)update.step();
}

// Inside a write: moves `o` to `to` when the state machine allows it, giving stock back and refunding as
// core::check_transition says; `restocked` collects the products whose stock changed.
core::result<core::shop_order> move_order(
    sqlite_connection& db,
    core::shop_order o,
    shop_order_status to,
    core::timestamp_ms now,
    std::vector<std::int64_t>& restocked
) {
    return detail::apply_move(
        std::move(o),
        to,
        now,
        [&](const core::shop_order& order) {
            auto give = db.prepare("UPDATE products SET stock = stock + ?2 WHERE id = ?1");
            for (const auto& item : order.items) {
                give.reset();
                give.bind(1, item.product_id).bind(2, static_cast<std::int64_t>(item.quantity));
                (void)give.step();
                restocked.push_back(item.product_id);
            }
        },
        [&](const core::shop_order& order) {
            auto refund = db.prepare(
                "UPDATE payments SET status = 'refunded', updated_at = ?2 WHERE order_id = ?1 AND status = "
                "'succeeded'"
            );
            refund.bind(1, order.id).bind(2, now);
            (void)refund.step();
        },
        [&](const core::shop_order& moved) { set_order_status(db, moved.id, moved.status, moved.updated_at); }
    );
}

// GET /orders' filter (?1 user, ?2 status) and order.
constexpr std::string_view filtered_orders =
    "WHERE (?1 IS NULL OR user_id = ?1) AND (?2 IS NULL OR status = ?2)";

void bind_filter(sqlite_statement& s, const order_filter& filter) {
    s.bind_optional(1, filter.user_id);
    if (filter.status) {
        s.bind(2, core::to_string(*filter.status));
    } else {
        s.bind_null(2);
    }
}

class sqlite_shop_store final : public shop_store {
  public:
    explicit sqlite_shop_store(std::shared_ptr<detail::sqlite_database> db) : db_(std::move(db)) {}

    core::result<core::cart> cart_of(std::int64_t user_id) const override {
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);
        return read_cart(*r, user_id);
    }

    core::result<core::cart> change_cart(
        std::int64_t user_id,
        const cart_change& change,
        core::timestamp_ms now,
        core::stock_shortage* shortage,
        core::cart_totals* totals
    ) override {
        return db_->write([&](sqlite_connection& w) -> core::result<core::cart> {
            core::cart cart = read_cart(w, user_id);
            if (auto changed = change(cart); !changed) {
                return changed.error();
            }
            detail::read_entries read;  // the lines' products, for the price
            for (const auto& line : cart.lines) {
                const auto product = product_of(w, line.product_id);
                if (!product || product->stock < line.quantity) {
                    if (shortage) {
                        *shortage = {line.product_id, line.quantity, product ? product->stock : 0};
                    }
                    return product ? core::errc::out_of_stock : core::errc::not_found;
                }
                read[line.product_id] = {product->title, core::price_to_cents(product->price)};
            }
            detail::report_priced(cart, read, totals);
            if (cart.id == 0) {
                cart.id = detail::next_free_id(w, "carts");
                cart.created_at = now;
            }
            cart.user_id = user_id;
            cart.updated_at = now;
            auto upsert = w.prepare(
                "INSERT INTO carts (id, user_id, coupon, created_at, updated_at) VALUES (?1,?2,?3,?4,?5) "
                "ON CONFLICT (id) DO UPDATE SET coupon = excluded.coupon, updated_at = excluded.updated_at"
            );
            upsert.bind(1, cart.id).bind(2, user_id).bind_optional(3, cart.coupon);
            upsert.bind(4, cart.created_at).bind(5, cart.updated_at);
            (void)upsert.step();
            (void)detail::delete_where(w, "DELETE FROM cart_lines WHERE cart_id = ?1", cart.id);
            auto insert = w.prepare(
                "INSERT INTO cart_lines (cart_id, position, product_id, quantity) VALUES (?1,?2,?3,?4)"
            );
            for (std::size_t i = 0; i < cart.lines.size(); ++i) {
                insert.reset();
                insert.bind(1, cart.id)
                    .bind(2, static_cast<std::int64_t>(i))
                    .bind(3, cart.lines[i].product_id);
                insert.bind(4, static_cast<std::int64_t>(cart.lines[i].quantity));
                (void)insert.step();
            }
            return cart;
        });
    }

    core::result<void> clear_cart(std::int64_t user_id) override {
        db_->write([&](sqlite_connection& w) { delete_cart(w, user_id); });
        return {};
    }

    std::size_t count_carts() const override { return detail::count_rows(*db_, "carts"); }

    core::result<core::shop_order> checkout(const checkout_request& request, core::stock_shortage* shortage)
        override {
        std::vector<std::int64_t> taken;
        auto order = db_->write([&](sqlite_connection& w) -> core::result<core::shop_order> {
            taken.clear();
            const core::cart cart = read_cart(w, request.user_id);
            if (cart.lines.empty()) {
                return core::errc::cart_empty;
            }
            std::vector<core::priced_line> lines;
            auto take = w.prepare("UPDATE products SET stock = stock - ?2 WHERE id = ?1 AND stock >= ?2");
            for (const auto& line : cart.lines) {
                const auto product = product_of(w, line.product_id);
                if (!product) {
                    if (shortage) {
                        *shortage = {line.product_id, line.quantity, 0};
                    }
                    return core::errc::not_found;
                }
                // The conditional decrement is the guard: it takes nothing unless enough is left.
                take.reset();
                take.bind(1, line.product_id).bind(2, static_cast<std::int64_t>(line.quantity));
                (void)take.step();
                if (w.changes() != 1) {
                    if (shortage) {
                        *shortage = {line.product_id, line.quantity, product->stock};
                    }
                    return core::errc::out_of_stock;
                }
                taken.push_back(line.product_id);
                lines.push_back(
                    {line.product_id, product->title, core::price_to_cents(product->price), line.quantity, 0}
                );
            }
            core::shop_order o = detail::order_of_checkout(cart, std::move(lines), request);
            o.id = detail::next_free_id(w, "shop_orders");
            insert_order(w, o);
            delete_cart(w, request.user_id);
            return o;
        });
        if (order) {
            record_stock(taken);
        }
        return order;
    }

    core::result<core::shop_order> find_order(std::int64_t id, std::optional<std::int64_t> owner)
        const override {
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);
        return detail::owned(order_by_id(*r, id), owner);
    }

    core::result<std::vector<core::shop_order>> list_orders(const order_filter& filter) const override {
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);
        return orders_where(*r, filtered_orders, [&](auto& s) { bind_filter(s, filter); });
    }

    core::result<order_page> list_orders_page(
        const order_filter& filter, const order_sort& sort, core::page_request page
    ) const override {
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);  // the page and the total of one state
        order_page out;
        auto counted = r->prepare("SELECT count(*) FROM shop_orders " + std::string(filtered_orders));
        bind_filter(counted, filter);
        if (counted.step() == step::row) {
            out.total = static_cast<std::size_t>(counted.int64(0));
        }
        out.orders = orders_where(
            *r,
            filtered_orders,
            [&](auto& s) {
                bind_filter(s, filter);
                s.bind(3, static_cast<std::int64_t>(std::min<std::size_t>(page.limit, INT64_MAX)));
                s.bind(4, static_cast<std::int64_t>(std::min<std::size_t>(page.offset, INT64_MAX)));
            },
            detail::order_by(sort) + " LIMIT ?3 OFFSET ?4"
        );
        return out;
    }

    core::result<core::shop_order> change_order_status(
        std::int64_t id, shop_order_status to, core::timestamp_ms now, std::optional<std::int64_t> owner
    ) override {
        std::vector<std::int64_t> restocked;
        auto moved = db_->write([&](sqlite_connection& w) -> core::result<core::shop_order> {
            restocked.clear();
            auto o = detail::owned(order_by_id(w, id), owner);
            if (!o) {
                return o.error();
            }
            const auto target = detail::status_to_apply(*o, to, now);
            return move_order(w, std::move(*o), target, now, restocked);
        });
        record_stock(restocked);
        return detail::as_asked(std::move(moved), to);
    }

    core::result<std::vector<core::shop_order>> expire_orders(core::timestamp_ms now) override {
        std::vector<std::int64_t> due;
        {
            auto r = db_->reader();
            auto s =
                r->prepare("SELECT id FROM shop_orders WHERE status = 'pending_payment' AND expires_at <= ?1"
                );
            s.bind(1, now);
            while (s.step() == step::row) {
                due.push_back(s.int64(0));
            }
        }
        std::vector<core::shop_order> expired;
        for (const auto id : due) {
            std::vector<std::int64_t> restocked;
            auto moved = db_->write([&](sqlite_connection& w) -> core::result<core::shop_order> {
                restocked.clear();
                auto o = order_by_id(w, id);
                // Paid or cancelled meanwhile: nothing to do.
                if (!o || !core::is_due_to_expire(*o, now)) {
                    return core::errc::transition_not_allowed;
                }
                return move_order(w, std::move(*o), shop_order_status::expired, now, restocked);
            });
            if (moved) {
                expired.push_back(std::move(*moved));
            }
            record_stock(restocked);
        }
        return expired;
    }

    std::size_t count_orders() const override { return detail::count_rows(*db_, "shop_orders"); }

    core::result<core::payment> record_payment(
        std::int64_t order_id,
        std::optional<std::int64_t> owner,
        const core::charge_decision& decision,
        core::timestamp_ms now,
        core::shop_order* paid
    ) override {
        return db_->write([&](sqlite_connection& w) -> core::result<core::payment> {
            auto order = order_by_id(w, order_id);
            auto p = detail::new_payment(order ? &*order : nullptr, owner, decision, now);
            if (!p) {
                return p;
            }
            p->id = detail::next_free_id(w, "payments");
            insert_payment(w, *p);
            if (p->status == core::payment_status::succeeded) {
                set_order_status(w, p->order_id, shop_order_status::paid, now);
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
        return db_->write([&](sqlite_connection& w) -> core::result<core::payment> {
            auto found = detail::owned(
                detail::first_or_not_found(payments_where(w, "WHERE id = ?1", payment_id)), owner
            );
            if (!found) {
                return found.error();
            }
            core::payment p = std::move(*found);
            auto o = order_by_id(w, p.order_id);
            if (auto done = core::complete_stored_three_d_secure(p, o ? &*o : nullptr, approve, now); !done) {
                return done.error();
            }
            insert_payment(w, p);
            if (p.status == core::payment_status::succeeded) {
                set_order_status(w, o->id, shop_order_status::paid, now);
                detail::report_paid(*o, now, paid);
            }
            return p;
        });
    }

    core::result<core::payment> find_payment(std::int64_t payment_id, std::optional<std::int64_t> owner)
        const override {
        auto r = db_->reader();
        return detail::owned(
            detail::first_or_not_found(payments_where(*r, "WHERE id = ?1", payment_id)), owner
        );
    }

    core::result<std::vector<core::payment>> payments_of(
        std::int64_t order_id, std::optional<std::int64_t> owner
    ) const override {
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);
        if (auto o = detail::owned(order_by_id(*r, order_id), owner); !o) {
            return o.error();
        }
        return payments_where(*r, "WHERE order_id = ?1", order_id);
    }

    std::size_t count_payments() const override { return detail::count_rows(*db_, "payments"); }

    core::result<std::optional<stored_answer>> begin_request(
        std::int64_t user_id, const std::string& key, const std::string& fingerprint, core::timestamp_ms now
    ) override {
        return db_->write([&](sqlite_connection& w) -> core::result<std::optional<stored_answer>> {
            auto s = w.prepare(
                "SELECT fingerprint, in_progress, status, body, created_at, updated_at FROM idempotency_keys "
                "WHERE user_id = ?1 AND key = ?2"
            );
            s.bind(1, user_id).bind(2, std::string_view(key));
            std::optional<core::idempotency_record> existing;
            if (s.step() == step::row) {
                existing = core::idempotency_record{
                    s.text(0),
                    s.int64(1) != 0,
                    static_cast<int>(s.int64(2)),
                    s.text(3),
                    s.int64(4),
                    s.int64(5)};
            }
            s.reset();
            auto answer = detail::idempotency_answer(existing, fingerprint, now);
            if (!answer || *answer) {
                return answer;  // a replay or a refusal
            }
            auto mark = w.prepare(
                "INSERT OR REPLACE INTO idempotency_keys (user_id, key, fingerprint, in_progress, status, "
                "body, "
                "created_at, updated_at) VALUES (?1,?2,?3,1,0,'',?4,?4)"
            );
            mark.bind(1, user_id)
                .bind(2, std::string_view(key))
                .bind(3, std::string_view(fingerprint))
                .bind(4, now);
            (void)mark.step();
            return answer;
        });
    }

    core::result<void> finish_request(
        std::int64_t user_id, const std::string& key, const stored_answer& answer, core::timestamp_ms now
    ) override {
        return db_->write([&](sqlite_connection& w) -> core::result<void> {
            auto s = w.prepare(
                "UPDATE idempotency_keys SET in_progress = 0, status = ?3, body = ?4, updated_at = ?5 "
                "WHERE user_id = ?1 AND key = ?2"
            );
            s.bind(1, user_id)
                .bind(2, std::string_view(key))
                .bind(3, static_cast<std::int64_t>(answer.status));
            s.bind(4, std::string_view(answer.body)).bind(5, now);
            (void)s.step();
            if (w.changes() == 0) {
                return core::errc::not_found;
            }
            return {};
        });
    }

    core::result<void> abandon_request(std::int64_t user_id, const std::string& key) override {
        db_->write([&](sqlite_connection& w) {
            auto s =
                w.prepare("DELETE FROM idempotency_keys WHERE user_id = ?1 AND key = ?2 AND in_progress = 1");
            s.bind(1, user_id).bind(2, std::string_view(key));
            (void)s.step();
        });
        return {};
    }

    core::result<std::size_t> purge_keys(core::timestamp_ms now) override {
        return db_->write([&](sqlite_connection& w) {
            auto s = w.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?1");
            s.bind(1, now - core::idempotency_key_lifetime_ms);
            (void)s.step();
            return static_cast<std::size_t>(w.changes());
        });
    }

  private:
    static void insert_order(sqlite_connection& w, const core::shop_order& o) {
        auto insert = w.prepare(
            "INSERT INTO shop_orders (id, user_id, status, subtotal, discount, shipping, total, coupon, "
            "name, "
            "line1, line2, city, postal_code, country, created_at, updated_at, expires_at) "
            "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)"
        );
        insert.bind(1, o.id).bind(2, o.user_id).bind(3, core::to_string(o.status)).bind(4, o.subtotal);
        insert.bind(5, o.discount).bind(6, o.shipping).bind(7, o.total).bind_optional(8, o.coupon);
        insert.bind(9, std::string_view(o.address.name)).bind(10, std::string_view(o.address.line1));
        insert.bind_optional(11, o.address.line2).bind(12, std::string_view(o.address.city));
        insert.bind(13, std::string_view(o.address.postal_code))
            .bind(14, std::string_view(o.address.country));
        insert.bind(15, o.created_at).bind(16, o.updated_at).bind(17, o.expires_at);
        (void)insert.step();
        auto item = w.prepare(
            "INSERT INTO order_items (order_id, position, product_id, title, unit_price, quantity, "
            "line_total) "
            "VALUES (?1,?2,?3,?4,?5,?6,?7)"
        );
        for (std::size_t i = 0; i < o.items.size(); ++i) {
            const auto& it = o.items[i];
            item.reset();
            item.bind(1, o.id).bind(2, static_cast<std::int64_t>(i)).bind(3, it.product_id);
            item.bind(4, std::string_view(it.title)).bind(5, it.unit_price);
            item.bind(6, static_cast<std::int64_t>(it.quantity)).bind(7, it.line_total);
            (void)item.step();
        }
    }

    // Stock is a product column: cached product pages of this process move on with it.
    void record_stock(const std::vector<std::int64_t>& products) {
        for (const auto id : products) {
            db_->record_after_commit(db_->catalogue_changes, core::row_table::products, id);
        }
    }

    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace

std::unique_ptr<shop_store> make_sqlite_shop_store(std::shared_ptr<detail::sqlite_database> db) {
    return std::make_unique<sqlite_shop_store>(std::move(db));
}

}  // namespace storefront::storage
