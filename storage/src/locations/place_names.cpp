// Place names for the generated location set: word lists and one SplitMix64 hash of (seed, id) that
// picks the form, the words and the house number.

#include "locations/place_names.hpp"

#include <array>

namespace storefront::storage::detail {
namespace {

constexpr std::array<std::string_view, 20> kinds{
    "Café",    "Bakery",   "Museum",   "Park",     "Library",
    "Market",  "Bookshop", "Gallery",  "Theatre",  "Restaurant",
    "Hotel",   "Cinema",   "Pharmacy", "Garden",   "Square",
    "Station", "Hostel",   "Bar",      "Pizzeria", "Ice Cream Parlour",
};

constexpr std::array<std::string_view, 8> streets{
    "Street",
    "Avenue",
    "Road",
    "Lane",
    "Boulevard",
    "Way",
    "Drive",
    "Terrace",
};

// Words that fit both a street and a shop sign.
constexpr std::array<std::string_view, 32> words{
    "Maple",     "Juniper",  "Harbour", "Willow",     "Cedar",     "Lantern",    "Meridian", "Orchard",
    "Riverside", "Hillside", "Aurora",  "Old Mill",   "Sunrise",   "Linden",     "Chestnut", "Beacon",
    "Magnolia",  "Granite",  "Saffron", "Lighthouse", "Acacia",    "Kingfisher", "Copper",   "Bluebell",
    "Olive",     "Jasmine",  "Cypress", "Falcon",     "Silverton", "Marigold",   "Oakwood",  "Seaview",
};

// SplitMix64's finaliser (Steele, Lea, Flood 2014): every input bit moves every output bit.
std::uint64_t mix(std::uint64_t z) noexcept {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Picks an element with `bits` (the few bits of bias from % are irrelevant for names).
template <std::size_t N>
std::string_view pick(const std::array<std::string_view, N>& list, std::uint64_t bits) noexcept {
    return list[bits % N];
}

}  // namespace

std::span<const std::string_view> place_kinds() noexcept {
    return kinds;
}

std::span<const std::string_view> street_types() noexcept {
    return streets;
}

place_name name_place(std::uint64_t seed, std::int64_t id, std::string_view city, std::string_view country) {
    const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(id)));
    const std::string_view word = pick(words, h >> 8);
    place_name out;
    if ((h & 1) == 0) {
        const unsigned number = 1 + static_cast<unsigned>((h >> 24) % 299);
        const std::string_view street = pick(streets, h >> 40);
        out.name.append(std::to_string(number)).append(" ").append(word).append(" ").append(street);
        out.description.append("Street address");
    } else {
        const std::string_view kind = pick(kinds, h >> 40);
        out.name.append(word).append(" ").append(kind);
        out.description.append(kind);
    }
    out.description.append(" near ").append(city).append(", ").append(country);
    return out;
}

}  // namespace storefront::storage::detail
