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

// Strict integer parse of the whole text (optional leading '-', digits only, no spaces or '+').
[[nodiscard]] std::optional<long long> parse_integer(std::string_view text);

// Strict finite decimal parse of the whole text (no spaces, no inf/nan, no hex).
[[nodiscard]] std::optional<double> parse_decimal(std::string_view text);

}  // namespace storefront::core
