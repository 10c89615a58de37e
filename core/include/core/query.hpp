#pragma once
// Decoded query parameters in arrival order, and strict single-value lookups on them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::core {

struct query_param {
    std::string name;
    std::string value;
};

using query_params = std::vector<query_param>;

// How many times `name` appears.
[[nodiscard]] std::size_t count_of(const query_params& params, std::string_view name);

// The value of `name` if present exactly once; nullopt if absent. Callers check count_of for duplicates.
[[nodiscard]] std::optional<std::string_view> single_value(const query_params& params, std::string_view name);

// The value of `name` when it is given once; nullopt when absent, or when repeated (then with the message
// "<name> must be given at most once" appended to `messages`).
[[nodiscard]] std::optional<std::string_view> one_value(
    const query_params& params, std::string_view name, std::vector<std::string>& messages
);

// Strict integer parse of the whole text (optional leading '-', digits only, no spaces or '+').
[[nodiscard]] std::optional<long long> parse_integer(std::string_view text);

// Strict finite decimal parse of the whole text (no spaces, no inf/nan, no hex).
[[nodiscard]] std::optional<double> parse_decimal(std::string_view text);

// The value of `name` when it is given once and is an integer in [min, max]; otherwise nullopt, with each
// problem appended to `messages` in the public service's wording ("limit must not be greater than 100",
// "limit must be a number conforming to the specified constraints" for a non-number, "… must be given at
// most once"). An absent parameter adds no message.
[[nodiscard]] std::optional<long long> bounded_integer_param(
    const query_params& params,
    std::string_view name,
    long long min,
    long long max,
    std::vector<std::string>& messages
);

}  // namespace storefront::core
