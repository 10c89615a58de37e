#pragma once
// The rows of a petstore memory adapter keyed by id (pets, orders): an id-ordered map under a shared lock,
// lookups shared, writes exclusive, and every read-modify-write under one lock so concurrent updates do not
// race. The adapters add what their port asks beyond find, add, remove and count.

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "common/found.hpp"
#include "common/next_id.hpp"
#include "core/errc.hpp"
#include "memory/seed_map.hpp"

namespace storefront::storage::detail {

template <class Row>
class id_rows {
  public:
    // Throws std::invalid_argument (`refusal` followed by the id) for a non-positive or duplicate id.
    id_rows(std::vector<Row> seed, std::string_view refusal)
        : rows_(seed_map<map_type>(std::move(seed), id_of, id_of, refusal)) {}

    [[nodiscard]] core::result<Row> find(std::int64_t id) const {
        std::shared_lock lock(mutex_);
        return find_in(rows_, id);
    }

    // Stores `row` under its id, replacing the row there; an id of 0 becomes the next after the largest.
    Row add(Row row) {
        std::unique_lock lock(mutex_);
        if (row.id == 0) {
            row.id = rows_.empty() ? 1 : next_id(rows_.rbegin()->first);
        }
        rows_.insert_or_assign(row.id, row);
        return row;
    }

    // `edit(row)` on row `id` under the exclusive lock, answering the changed row; errc::not_found.
    template <class Edit>
    core::result<Row> change(std::int64_t id, Edit&& edit) {
        std::unique_lock lock(mutex_);
        const auto it = rows_.find(id);
        if (it == rows_.end()) {
            return core::errc::not_found;
        }
        edit(it->second);
        return it->second;
    }

    core::result<void> remove(std::int64_t id) {
        std::unique_lock lock(mutex_);
        return found_any(rows_.erase(id) > 0);
    }

    [[nodiscard]] std::size_t count() const {
        std::shared_lock lock(mutex_);
        return rows_.size();
    }

    // Calls `visit(row)` for every row in id order under the shared lock.
    template <class Visit>
    void for_each(Visit&& visit) const {
        std::shared_lock lock(mutex_);
        for (const auto& [id, row] : rows_) {
            visit(row);
        }
    }

  private:
    using map_type = std::map<std::int64_t, Row>;
    static std::int64_t id_of(const Row& row) { return row.id; }

    mutable std::shared_mutex mutex_;
    map_type rows_;
};

// A port of rows by id (pet_store, order_store) kept in one id_rows: find, add, remove and count are the
// rows' own; the adapter adds what else its port asks, on `rows_`.
template <class Port, class Row>
class id_rows_port : public Port {
  public:
    // Throws std::invalid_argument (`refusal` followed by the id) for a non-positive or duplicate id.
    id_rows_port(std::vector<Row> seed, std::string_view refusal) : rows_(std::move(seed), refusal) {}

    [[nodiscard]] core::result<Row> find(std::int64_t id) const override { return rows_.find(id); }
    [[nodiscard]] Row add(Row row) override { return rows_.add(std::move(row)); }
    [[nodiscard]] core::result<void> remove(std::int64_t id) override { return rows_.remove(id); }
    [[nodiscard]] std::size_t count() const override { return rows_.count(); }

  protected:
    id_rows<Row> rows_;
};

}  // namespace storefront::storage::detail
