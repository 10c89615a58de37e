#pragma once
// Loading locations from CSV (RFC 4180): header `id,name,description,latitude,longitude`, then one
// location per record.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"

namespace storefront::storage::detail {

inline constexpr std::size_t max_csv_locations = 10'000'000;

// Parses CSV text; `source` names it in error messages. Throws std::runtime_error("<source>:<line>:
// <problem>") for a bad header, a malformed record, a non-integer or duplicate id, an empty name, a latitude
// outside
// [-90, 90] or longitude outside [-180, 180] (or not finite), no records at all, or too many records.
[[nodiscard]] std::vector<core::location> parse_location_csv(
    std::string_view text, const std::string& source
);

// Reads and parses `file`; also throws std::runtime_error when it cannot be read.
[[nodiscard]] std::vector<core::location> load_location_csv(const std::filesystem::path& file);

}  // namespace storefront::storage::detail
