// memory_shop_store: carts, orders, payments and idempotency keys of one data set in maps behind one
// mutex; stock lives in the memory catalogue (detail::memory_stock), taken under this store's lock, so a
// checkout, cancel or payment is atomic as the durable backends' transactions are.

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

#include "common/next_id.hpp"
#include "common/shop_checks.hpp"
#include "core/cart_rules.hpp"
#include "core/order_states.hpp"
#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

using core::shop_order_status;

class memory_shop_store final : public shop_store {
  public:
    explicit memory_shop_store(detail::memory_stock& stock) : stock_(stock) {}

    // carts

    core::result<core::cart> cart_of(std::int64_t user_id) const override {
        std::lock_guard lock(mutex_);
        return cart_or_empty(user_id);
    }

    core::result<core::cart> change_cart(
        std::int64_t user_id,
        const cart_change& change,
        core::timestamp_ms now,
        core::stock_shortage* shortage,
        core::cart_totals* totals
    ) override {
        std::lock_guard lock(mutex_);
        core::cart cart = cart_or_empty(user_id);
        if (auto changed = change(cart); !changed) {
            return changed.error();
        }
        const auto checked = stock_.take_stock(cart.lines, false, shortage);
        if (!checked) {
            return checked.error();
        }
        if (totals != nullptr) {
            detail::read_entries read;
            for (const auto& p : *checked) {
                read[p.id] = {p.title, core::price_to_cents(p.price)};
            }
            detail::report_priced(cart, read, totals);
        }
        if (cart.id == 0) {
            cart.id = next_id(last_cart_id_);
            last_cart_id_ = cart.id;
            cart.created_at = now;
        }
        cart.user_id = user_id;
        cart.updated_at = now;
        carts_[user_id] = cart;
        return cart;
    }

    core::result<void> clear_cart(std::int64_t user_id) override {
        std::lock_guard lock(mutex_);
        carts_.erase(user_id);
        return {};
    }

    std::size_t count_carts() const override {
        std::lock_guard lock(mutex_);
        return carts_.size();
    }

    // orders

    core::result<core::shop_order> checkout(const checkout_request& request, core::stock_shortage* shortage)
        override {
        std::lock_guard lock(mutex_);
        const core::cart cart = cart_or_empty(request.user_id);
        if (cart.lines.empty()) {
            return core::errc::cart_empty;
        }
        auto products = stock_.take_stock(cart.lines, true, shortage);
        if (!products) {
            return products.error();
        }
        std::vector<core::priced_line> lines;
        for (std::size_t i = 0; i < cart.lines.size(); ++i) {
            const auto& p = (*products)[i];
            lines.push_back({p.id, p.title, core::price_to_cents(p.price), cart.lines[i].quantity, 0});
        }
        core::shop_order order = detail::order_of_checkout(cart, std::move(lines), request);
        order.id = next_id(last_order_id_);
        last_order_id_ = order.id;
        orders_[order.id] = order;
        carts_.erase(request.user_id);
        return order;
    }

    core::result<core::shop_order> find_order(std::int64_t id, std::optional<std::int64_t> owner)
        const override {
        std::lock_guard lock(mutex_);
        return detail::copy_owned(orders_, id, owner);
    }

    core::result<std::vector<core::shop_order>> list_orders(const order_filter& filter) const override {
        std::lock_guard lock(mutex_);
        std::vector<core::shop_order> out;
        for (const auto& [id, o] : orders_) {
            if ((!filter.user_id || o.user_id == *filter.user_id) &&
                (!filter.status || o.status == *filter.status)) {
                out.push_back(o);
            }
        }
        return out;
    }

    core::result<order_page> list_orders_page(
        const order_filter& filter, const order_sort& sort, core::page_request page
    ) const override {
        auto orders = list_orders(filter).value();  // by id
        const auto key = [&](const core::shop_order& o) {
            return sort.by == order_sort::key::created_at ? o.created_at
                   : sort.by == order_sort::key::total    ? o.total
                                                          : o.id;
        };
        std::stable_sort(orders.begin(), orders.end(), [&](const auto& a, const auto& b) {
            return sort.descending ? key(a) > key(b) : key(a) < key(b);
        });
        const auto slice = core::page_slice(page, orders.size());
        order_page out;
        out.total = orders.size();
        out.orders.assign(
            std::make_move_iterator(orders.begin() + static_cast<std::ptrdiff_t>(slice.first)),
            std::make_move_iterator(orders.begin() + static_cast<std::ptrdiff_t>(slice.last))
        );
        return out;
    }

    core::result<core::shop_order> change_order_status(
        std::int64_t id, shop_order_status to, core::timestamp_ms now, std::optional<std::int64_t> owner
    ) override {
        std::lock_guard lock(mutex_);
        auto* o = detail::owned_in(orders_, id, owner);
        if (o == nullptr) {
            return core::errc::not_found;
        }
        return detail::as_asked(move_order(*o, detail::status_to_apply(*o, to, now), now), to);
    }

    core::result<std::vector<core::shop_order>> expire_orders(core::timestamp_ms now) override {
        std::lock_guard lock(mutex_);
        std::vector<core::shop_order> expired;
        for (auto& [id, o] : orders_) {
            if (core::is_due_to_expire(o, now)) {
                if (auto moved = move_order(o, shop_order_status::expired, now)) {
                    expired.push_back(std::move(*moved));
                }
            }
        }
        return expired;
    }

    std::size_t count_orders() const override {
        std::lock_guard lock(mutex_);
        return orders_.size();
    }

    // payments

    core::result<core::payment> record_payment(
        std::int64_t order_id,
        std::optional<std::int64_t> owner,
        const core::charge_decision& decision,
        core::timestamp_ms now,
        core::shop_order* paid
    ) override {
        std::lock_guard lock(mutex_);
        auto* o = detail::owned_in(orders_, order_id, owner);
        auto p = detail::new_payment(o, owner, decision, now);
        if (!p) {
            return p;
        }
        p->id = next_id(last_payment_id_);
        last_payment_id_ = p->id;
        if (p->status == core::payment_status::succeeded) {
            o->status = shop_order_status::paid;
            o->updated_at = now;
            if (paid != nullptr) {
                *paid = *o;
            }
        }
        payments_[p->id] = *p;
        return p;
    }

    core::result<core::payment> complete_payment(
        std::int64_t payment_id,
        std::optional<std::int64_t> owner,
        bool approve,
        core::timestamp_ms now,
        core::shop_order* paid
    ) override {
        std::lock_guard lock(mutex_);
        auto* found = detail::owned_in(payments_, payment_id, owner);
        if (found == nullptr) {
            return core::errc::not_found;
        }
        core::payment& p = *found;
        const auto order = orders_.find(p.order_id);
        if (auto done = core::complete_stored_three_d_secure(
                p, order == orders_.end() ? nullptr : &order->second, approve, now
            );
            !done) {
            return done.error();
        }
        if (p.status == core::payment_status::succeeded) {
            order->second.status = shop_order_status::paid;
            order->second.updated_at = now;
            if (paid != nullptr) {
                *paid = order->second;
            }
        }
        return p;
    }

    core::result<core::payment> find_payment(std::int64_t payment_id, std::optional<std::int64_t> owner)
        const override {
        std::lock_guard lock(mutex_);
        return detail::copy_owned(payments_, payment_id, owner);
    }

    core::result<std::vector<core::payment>> payments_of(
        std::int64_t order_id, std::optional<std::int64_t> owner
    ) const override {
        std::lock_guard lock(mutex_);
        auto* order = detail::owned_in(orders_, order_id, owner);
        if (order == nullptr) {
            return core::errc::not_found;
        }
        std::vector<core::payment> out;
        for (const auto& [id, p] : payments_) {
            if (p.order_id == order_id) {
                out.push_back(p);
            }
        }
        return out;
    }

    std::size_t count_payments() const override {
        std::lock_guard lock(mutex_);
        return payments_.size();
    }

    // idempotency keys

    core::result<std::optional<stored_answer>> begin_request(
        std::int64_t user_id, const std::string& key, const std::string& fingerprint, core::timestamp_ms now
    ) override {
        std::lock_guard lock(mutex_);
        const auto it = keys_.find({user_id, key});
        const auto existing = it == keys_.end() ? std::nullopt : std::optional(it->second);
        auto answer = detail::idempotency_answer(existing, fingerprint, now);
        if (answer && !*answer) {  // the request starts: its key is in progress
            keys_[{user_id, key}] = core::idempotency_record{fingerprint, true, 0, "", now, now};
        }
        return answer;
    }

    core::result<void> finish_request(
        std::int64_t user_id, const std::string& key, const stored_answer& answer, core::timestamp_ms now
    ) override {
        std::lock_guard lock(mutex_);
        const auto it = keys_.find({user_id, key});
        if (it == keys_.end()) {
            return core::errc::not_found;
        }
        it->second.in_progress = false;
        it->second.status = answer.status;
        it->second.body = answer.body;
        it->second.updated_at = now;
        return {};
    }

    core::result<void> abandon_request(std::int64_t user_id, const std::string& key) override {
        std::lock_guard lock(mutex_);
        const auto it = keys_.find({user_id, key});
        if (it != keys_.end() && it->second.in_progress) {
            keys_.erase(it);
        }
        return {};
    }

    core::result<std::size_t> purge_keys(core::timestamp_ms now) override {
        std::lock_guard lock(mutex_);
        return static_cast<std::size_t>(std::erase_if(keys_, [&](const auto& entry) {
            return now - entry.second.created_at >= core::idempotency_key_lifetime_ms;
        }));
    }

  private:
    core::cart cart_or_empty(std::int64_t user_id) const {
        const auto it = carts_.find(user_id);
        if (it != carts_.end()) {
            return it->second;
        }
        core::cart empty;
        empty.user_id = user_id;
        return empty;
    }

    core::result<core::shop_order> move_order(
        core::shop_order& o, shop_order_status to, core::timestamp_ms now
    ) {
        return detail::apply_move(
            o,
            to,
            now,
            [&](const core::shop_order& order) {
                std::vector<core::cart_line> lines;
                for (const auto& item : order.items) {
                    lines.push_back({item.product_id, item.quantity});
                }
                stock_.give_back_stock(lines);
            },
            [&](const core::shop_order& order) {
                for (auto& [pid, p] : payments_) {
                    if (p.order_id == order.id && p.status == core::payment_status::succeeded) {
                        p.status = core::payment_status::refunded;
                        p.updated_at = now;
                    }
                }
            },
            [&](const core::shop_order& moved) { o = moved; }
        );
    }

    detail::memory_stock& stock_;
    mutable std::mutex mutex_;
    std::map<std::int64_t, core::cart> carts_;  // by user
    std::map<std::int64_t, core::shop_order> orders_;
    std::map<std::int64_t, core::payment> payments_;
    std::map<std::pair<std::int64_t, std::string>, core::idempotency_record> keys_;
    std::int64_t last_cart_id_ = 0;
    std::int64_t last_order_id_ = 0;
    std::int64_t last_payment_id_ = 0;
};

}  // namespace

std::unique_ptr<shop_store> make_memory_shop_store(detail::memory_stock& stock) {
    return std::make_unique<memory_shop_store>(stock);
}

}  // namespace storefront::storage
