#pragma once
// Names for generated locations that read like places on a map: a street address ("27 Maple Street") or
// a point of interest with its kind ("Juniper Café"), chosen deterministically from the location's id.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace storefront::storage::detail {

struct place_name {
    std::string name;         // "27 Maple Street" or "Juniper Café"
    std::string description;  // "Street address near Lima, Peru" or "Café near Lima, Peru"
};

// The kinds a point of interest can have, as they end its name ("Café", "Museum", "Park", …).
[[nodiscard]] std::span<const std::string_view> place_kinds() noexcept;
// The street types an address ends with ("Street", "Avenue", …).
[[nodiscard]] std::span<const std::string_view> street_types() noexcept;

// The place for location `id` of the set generated from `seed`, near `city` in `country`. A function of
// its arguments only, so the names do not depend on the order locations are generated in.
[[nodiscard]] place_name name_place(
    std::uint64_t seed, std::int64_t id, std::string_view city, std::string_view country
);

}  // namespace storefront::storage::detail
