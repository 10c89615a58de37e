#pragma once
// Enums spelled by one table of rows: the same rows answer "the name of this value" and "the value of this
// name", so the two directions cannot drift apart.

#include <cstddef>
#include <optional>
#include <string_view>

namespace storefront::core {

template <class Enum>
struct enum_name {
    Enum value;
    std::string_view name;
};

// A problem (an enum value) with the input field it is about and the message a client reads.
template <class Enum>
struct problem_text {
    Enum value;
    std::string_view field;
    std::string_view message;
};

// The row of `table` whose `value` is `value`, or nullptr. Any row type with a `value` member will do
// (tables that carry more than a name per value, such as a field and a message).
template <class Row, std::size_t N, class Enum>
[[nodiscard]] constexpr const Row* row_of(const Row (&table)[N], Enum value) noexcept {
    for (const Row& row : table) {
        if (row.value == value) {
            return &row;
        }
    }
    return nullptr;
}

// The text `member` of the row for `value`, or `fallback` where the table has no row for it.
template <class Row, std::size_t N, class Enum>
[[nodiscard]] constexpr std::string_view text_of(
    const Row (&table)[N], Enum value, std::string_view Row::*member, std::string_view fallback
) noexcept {
    const Row* row = row_of(table, value);
    return row != nullptr ? row->*member : fallback;
}

// The name of `value`, or `fallback` where the table has no row for it.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::string_view name_of(
    const enum_name<Enum> (&table)[N], Enum value, std::string_view fallback
) noexcept {
    return text_of(table, value, &enum_name<Enum>::name, fallback);
}

// name_of for a table with one row for each enumerator from 0 up to `Last`: the compiler checks the count, so
// an enumerator added after `Last` cannot go without a name.
template <auto Last, std::size_t N>
[[nodiscard]] constexpr std::string_view name_of_each(
    const enum_name<decltype(Last)> (&table)[N], decltype(Last) value, std::string_view fallback
) noexcept {
    static_assert(N == static_cast<std::size_t>(Last) + 1, "one row for each enumerator up to Last");
    return name_of(table, value, fallback);
}

// The value spelled `name` (exact, case-sensitive), or nullopt.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::optional<Enum> value_named(
    const enum_name<Enum> (&table)[N], std::string_view name
) noexcept {
    for (const enum_name<Enum>& row : table) {
        if (row.name == name) {
            return row.value;
        }
    }
    return std::nullopt;
}

}  // namespace storefront::core
