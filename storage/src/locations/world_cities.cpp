// The world city table (storage/data/world_cities.csv): approximate centres (about 0.1 degree), chosen to
// cover every continent, the antimeridian (Suva, Anadyr, Apia, ...) and high latitudes (Longyearbyen,
// McMurdo, the South Pole).

#include "locations/world_cities.hpp"

#include <array>

namespace storefront::storage::detail {
namespace {

// The rows of storage/data/world_cities.csv, written as initialisers when CMake configures.
constexpr std::array cities{
#include "locations/world_cities_table.inc"
};

}  // namespace

std::span<const world_city> world_cities() noexcept {
    return cities;
}

}  // namespace storefront::storage::detail
