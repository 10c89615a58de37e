#pragma once
// Reading a result row into fields: read_columns(s, first, a, b, c) reads the columns first, first + 1, ...
// into a, b, c, each as its type asks (a bool from 0/1, a NULL as nullopt), so a row reader names each field
// once instead of writing one statement per column.

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sqlite/connection.hpp"

namespace storefront::storage::detail {

inline void read_column(const sqlite_statement& s, int column, std::int64_t& out) {
    out = s.int64(column);
}
inline void read_column(const sqlite_statement& s, int column, std::int32_t& out) {
    out = static_cast<std::int32_t>(s.int64(column));
}
inline void read_column(const sqlite_statement& s, int column, double& out) {
    out = s.real(column);
}
inline void read_column(const sqlite_statement& s, int column, bool& out) {
    out = s.int64(column) != 0;
}
inline void read_column(const sqlite_statement& s, int column, std::string& out) {
    out = s.text(column);
}
inline void read_column(const sqlite_statement& s, int column, std::optional<std::int64_t>& out) {
    out = s.optional_int64(column);
}
inline void read_column(const sqlite_statement& s, int column, std::optional<std::int32_t>& out) {
    out = s.is_null(column) ? std::nullopt : std::optional(static_cast<std::int32_t>(s.int64(column)));
}
inline void read_column(const sqlite_statement& s, int column, std::optional<std::string>& out) {
    out = s.optional_text(column);
}

template <class... Field>
void read_columns(const sqlite_statement& s, int first, Field&... fields) {
    int column = first;
    (read_column(s, column++, fields), ...);
}

// The current row of `s` as the readers the backends share take it (common/shop_checks.hpp).
class sqlite_row {
  public:
    explicit sqlite_row(const sqlite_statement& s) : s_(s) {}

    template <class... Field>
    void read(int first, Field&... fields) const {
        read_columns(s_, first, fields...);
    }
    [[nodiscard]] std::string text(int column) const { return s_.text(column); }

  private:
    const sqlite_statement& s_;
};

// Every row `s` steps to, as `at` (a function of a sqlite_row) reads it, in order.
template <class At>
[[nodiscard]] auto read_rows(sqlite_statement& s, At&& at) {
    std::vector<std::remove_cvref_t<std::invoke_result_t<At&, const sqlite_row&>>> out;
    while (s.step() == sqlite_statement::step_result::row) {
        out.push_back(at(sqlite_row(s)));
    }
    return out;
}

}  // namespace storefront::storage::detail
