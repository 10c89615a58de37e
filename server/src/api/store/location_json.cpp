// location_json: one pass over the immutable location set at start-up; one buffer and 32-bit offsets
// rather than a string per location, which would cost a heap block and 32 bytes of header each.

#include "server/api/store/location_json.hpp"

#include <limits>
#include <stdexcept>

#include "server/api/store/json_mapping.hpp"
#include "server/codec/etag.hpp"
#include "storage/huge_pages.hpp"

namespace storefront::server {

location_json::location_json(std::span<const core::location> locations) {
    offsets_.reserve(locations.size() + 1);
    offsets_.push_back(0);
    for (const core::location& l : locations) {
        append_location_fields(bytes_, l);
        if (bytes_.size() > std::numeric_limits<std::uint32_t>::max()) {
            throw std::length_error("the location set's JSON exceeds 4 GiB");
        }
        offsets_.push_back(static_cast<std::uint32_t>(bytes_.size()));
    }
    bytes_.shrink_to_fit();  // growth by doubling may have left up to half the buffer unused
    fingerprint_ = strong_etag(bytes_);
    storage::prefer_huge_pages(std::as_bytes(std::span(bytes_)));  // five objects per answer, anywhere in it
}

}  // namespace storefront::server
