// sqlite_order_store: orders by id (an existing id is replaced, as the petstore does) and the quantities
// per status summed in SQL.

#include <memory>
#include <utility>
#include <vector>

#include "common/found.hpp"
#include "common/seed_once.hpp"
#include "common/write_row.hpp"
#include "sqlite/columns.hpp"
#include "sqlite/database.hpp"
#include "sqlite/reset.hpp"
#include "sqlite/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using detail::sqlite_statement;
using step = sqlite_statement::step_result;

class sqlite_order_store final : public order_store {
  public:
    // Writes `seed` the first time this file gets orders, never again.
    sqlite_order_store(std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet_order>& seed)
        : db_(std::move(db)) {
        detail::seed_once(*db_->writer(), "orders", [&](sqlite_connection& w) {
            detail::write_rows(w, seed);
        });
    }

    core::result<core::pet_order> find(std::int64_t id) const override {
        auto r = db_->reader();
        auto s =
            r->prepare("SELECT id, pet_id, quantity, ship_date, status, complete FROM orders WHERE id = ?1");
        s.bind(1, id);
        if (s.step() != step::row) {
            return core::errc::not_found;
        }
        core::pet_order o;
        detail::read_columns(s, 0, o.id, o.pet_id, o.quantity, o.ship_date);
        o.status = static_cast<core::order_status>(s.int64(4));
        detail::read_columns(s, 5, o.complete);
        return o;
    }

    core::pet_order add(core::pet_order order) override {
        return db_->write([&](sqlite_connection& w) -> core::pet_order {
            detail::add_row(w, "orders", order.id, order);
            return order;
        });
    }

    core::result<void> remove(std::int64_t id) override {
        return db_->write([&](sqlite_connection& w) -> core::result<void> {
            return detail::found_any(detail::delete_where(w, "DELETE FROM orders WHERE id = ?1", id));
        });
    }

    std::map<core::order_status, std::int64_t> inventory() const override {
        std::map<core::order_status, std::int64_t> out{
            {core::order_status::placed, 0},
            {core::order_status::approved, 0},
            {core::order_status::delivered, 0}};
        auto r = db_->reader();
        auto s = r->prepare("SELECT status, sum(quantity) FROM orders GROUP BY status");
        while (s.step() == step::row) {
            out[static_cast<core::order_status>(s.int64(0))] = s.int64(1);
        }
        return out;
    }

    std::size_t count() const override { return detail::count_rows(*db_, "orders"); }

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace

std::unique_ptr<order_store> make_sqlite_order_store(
    std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet_order>& seed
) {
    return std::make_unique<sqlite_order_store>(std::move(db), seed);
}

namespace detail {

void write_row(sqlite_connection& db, const core::pet_order& o) {
    auto upsert = db.prepare(
        "INSERT OR REPLACE INTO orders (id, pet_id, quantity, ship_date, status, complete) "
        "VALUES (?1,?2,?3,?4,?5,?6)"
    );
    upsert.bind(1, o.id).bind(2, o.pet_id).bind(3, static_cast<std::int64_t>(o.quantity));
    upsert.bind_optional(4, o.ship_date);
    upsert.bind(5, static_cast<std::int64_t>(o.status)).bind(6, static_cast<std::int64_t>(o.complete));
    (void)upsert.step();
}

}  // namespace detail

}  // namespace storefront::storage
