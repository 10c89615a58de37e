// Validation of the /locations query (size, origin, radius) with class-validator style messages.
// Each parameter is checked on its own, so every problem in one request is reported together.

#include "core/location_query.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace storefront::core {

namespace {

constexpr long long min_location_size = 1;

// The text of `name` when given exactly once; nullopt when absent or duplicated (the latter is reported).
std::optional<std::string_view> single_text(
    const query_params& params, std::string_view name, std::vector<std::string>& messages
) {
    if (count_of(params, name) > 1) {
        messages.push_back(std::string{name} + " must be given at most once");
        return std::nullopt;
    }
    return single_value(params, name);
}

std::optional<geo_point> parse_origin(std::string_view text, std::vector<std::string>& messages) {
    const std::size_t comma = text.find(',');
    if (comma == std::string_view::npos || text.find(',', comma + 1) != std::string_view::npos) {
        messages.emplace_back("origin must be a latitude,longitude pair");
        return std::nullopt;
    }
    const std::optional<double> lat = parse_decimal(text.substr(0, comma));
    const std::optional<double> lng = parse_decimal(text.substr(comma + 1));
    if (!lat || !lng) {
        messages.emplace_back("origin must be a latitude,longitude pair");
        return std::nullopt;
    }
    bool ok = true;
    if (*lat < -90.0 || *lat > 90.0) {
        messages.emplace_back("origin latitude must be between -90 and 90");
        ok = false;
    }
    if (*lng < -180.0 || *lng > 180.0) {
        messages.emplace_back("origin longitude must be between -180 and 180");
        ok = false;
    }
    if (!ok) {
        return std::nullopt;
    }
    return geo_point{*lat, *lng};
}

std::optional<double> parse_radius(std::string_view text, std::vector<std::string>& messages) {
    const std::optional<double> value = parse_decimal(text);
    if (!value) {
        messages.emplace_back("radius must be a number conforming to the specified constraints");
        return std::nullopt;
    }
    if (*value < 0.0) {
        messages.emplace_back("radius must not be less than 0");
        return std::nullopt;
    }
    return value;
}

// class-validator's @IsBooleanString words; only the two literal spellings are accepted.
std::optional<bool> parse_flag(
    std::string_view name, std::string_view text, std::vector<std::string>& messages
) {
    if (text == "true") {
        return true;
    }
    if (text == "false") {
        return false;
    }
    messages.push_back(std::string{name} + " must be a boolean value");
    return std::nullopt;
}

}  // namespace

validated<location_query> parse_location_query(const query_params& params) {
    location_query query;
    std::vector<std::string> messages;
    if (const auto size = bounded_integer_param(
            params, "size", min_location_size, static_cast<long long>(max_location_size), messages
        )) {
        query.size = static_cast<std::size_t>(*size);
    }
    if (const auto text = single_text(params, "origin", messages)) {
        query.origin = parse_origin(*text, messages);
    }
    if (const auto text = single_text(params, "radius", messages)) {
        query.radius_km = parse_radius(*text, messages);
    }
    if (const auto text = single_text(params, "withDistance", messages)) {
        query.with_distance = parse_flag("withDistance", *text, messages).value_or(false);
    }
    // Judged on presence, not validity: a malformed origin already has its own message.
    if (count_of(params, "origin") == 0) {
        for (const std::string_view needs_origin : {"radius", "withDistance"}) {
            if (count_of(params, needs_origin) > 0) {
                messages.push_back(std::string{needs_origin} + " requires origin");
            }
        }
    }
    if (!messages.empty()) {
        return validation_errors{std::move(messages)};
    }
    return query;
}

}  // namespace storefront::core
