// pg_order_store: orders as rows, upserts for client-chosen ids, the inventory summed in SQL.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/write_row.hpp"
#include "core/pet_rules.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/columns.hpp"
#include "postgres/reset.hpp"
#include "postgres/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;

constexpr std::string_view upsert_order =
    "INSERT INTO orders (id, pet_id, quantity, ship_date, status, complete) VALUES ($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT (id) DO UPDATE SET pet_id = excluded.pet_id, quantity = excluded.quantity, "
    "ship_date = excluded.ship_date, status = excluded.status, complete = excluded.complete";

pg_params order_params(const core::pet_order& o) {
    pg_params p;
    p.add(o.id).add(o.pet_id).add(static_cast<std::int64_t>(o.quantity)).add(o.ship_date);
    p.add(core::to_string(o.status)).add(o.complete);
    return p;
}

class pg_order_store final : public order_store {
  public:
    pg_order_store(const pg_target& target, std::size_t pool_size, std::vector<core::pet_order> seed)
        : aggregate_(
              target,
              pool_size,
              "orders",
              [seed = std::move(seed)](pg_connection& conn) { detail::write_rows(conn, seed); },
              false
          ) {}

    core::result<core::pet_order> find(std::int64_t id) const override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "SELECT id, pet_id, quantity, ship_date, status, complete FROM orders WHERE id = $1",
            pg_params().add(id)
        );
        if (r.empty()) {
            return core::errc::not_found;
        }
        core::pet_order o;
        detail::read_columns(r, 0, 0, o.id, o.pet_id, o.quantity, o.ship_date);
        o.status = core::parse_order_status(r.text(0, 4)).value_or(core::order_status::placed);
        detail::read_columns(r, 0, 5, o.complete);
        return o;
    }

    core::pet_order add(core::pet_order order) override {
        return aggregate_.write([&](pg_connection& db) {
            aggregate_.lock(db);
            detail::add_row(db, "orders", order.id, order);
            return order;
        });
    }

    core::result<void> remove(std::int64_t id) override { return aggregate_.remove_row("orders", id); }

    std::map<core::order_status, std::int64_t> inventory() const override {
        std::map<core::order_status, std::int64_t> out{
            {core::order_status::placed, 0},
            {core::order_status::approved, 0},
            {core::order_status::delivered, 0}};
        auto db = aggregate_.connection();
        const auto r = db->exec("SELECT status, sum(quantity)::bigint FROM orders GROUP BY status");
        for (int row = 0; row < r.size(); ++row) {
            if (const auto status = core::parse_order_status(r.text(row, 0))) {
                out[*status] = r.int64(row, 1);
            }
        }
        return out;
    }

    std::size_t count() const override { return aggregate_.count_rows("orders"); }

  private:
    mutable detail::pg_aggregate aggregate_;
};

}  // namespace

std::unique_ptr<order_store> make_pg_order_store(
    const pg_target& target, std::size_t pool_size, std::vector<core::pet_order> seed
) {
    return std::make_unique<pg_order_store>(target, pool_size, std::move(seed));
}

namespace detail {

void write_row(pg_connection& conn, const core::pet_order& order) {
    (void)conn.exec(upsert_order, order_params(order));
}

}  // namespace detail

}  // namespace storefront::storage
