#pragma once
// Reading a result row into fields: read_columns(r, row, first, a, b, c) reads the columns first, first + 1,
// ... of `row` into a, b, c, each as its type asks (text copied into a string, a NULL as nullopt), so a row
// reader names each field once instead of writing one statement per column.

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "postgres/connection.hpp"

namespace storefront::storage::detail {

[[nodiscard]] inline std::optional<std::int64_t> optional_int64(const pg_rows& r, int row, int column) {
    return r.is_null(row, column) ? std::nullopt : std::optional(r.int64(row, column));
}
[[nodiscard]] inline std::optional<std::string> optional_text(const pg_rows& r, int row, int column) {
    return r.is_null(row, column) ? std::nullopt : std::optional(std::string(r.text(row, column)));
}

inline void read_column(const pg_rows& r, int row, int column, std::int64_t& out) {
    out = r.int64(row, column);
}
inline void read_column(const pg_rows& r, int row, int column, std::int32_t& out) {
    out = static_cast<std::int32_t>(r.int64(row, column));
}
inline void read_column(const pg_rows& r, int row, int column, double& out) {
    out = r.real(row, column);
}
inline void read_column(const pg_rows& r, int row, int column, bool& out) {
    out = r.boolean(row, column);
}
inline void read_column(const pg_rows& r, int row, int column, std::string& out) {
    out = r.text(row, column);
}
inline void read_column(const pg_rows& r, int row, int column, std::optional<std::int64_t>& out) {
    out = optional_int64(r, row, column);
}
inline void read_column(const pg_rows& r, int row, int column, std::optional<std::int32_t>& out) {
    out = r.is_null(row, column) ? std::nullopt
                                 : std::optional(static_cast<std::int32_t>(r.int64(row, column)));
}
inline void read_column(const pg_rows& r, int row, int column, std::optional<std::string>& out) {
    out = optional_text(r, row, column);
}

template <class... Field>
void read_columns(const pg_rows& r, int row, int first, Field&... fields) {
    int column = first;
    (read_column(r, row, column++, fields), ...);
}

// Row `row` of `r` as the readers the backends share take it (common/shop_checks.hpp).
class pg_row {
  public:
    pg_row(const pg_rows& r, int row) : r_(r), row_(row) {}

    template <class... Field>
    void read(int first, Field&... fields) const {
        read_columns(r_, row_, first, fields...);
    }
    [[nodiscard]] std::string_view text(int column) const { return r_.text(row_, column); }

  private:
    const pg_rows& r_;
    int row_;
};

// Every row of `r` as `at` (a function of a pg_row) reads it, in order.
template <class At>
[[nodiscard]] auto read_rows(const pg_rows& r, At&& at) {
    std::vector<std::remove_cvref_t<std::invoke_result_t<At&, const pg_row&>>> out;
    for (int row = 0; row < r.size(); ++row) {
        out.push_back(at(pg_row(r, row)));
    }
    return out;
}

}  // namespace storefront::storage::detail
