#pragma once
// The /locations response bytes, pre-serialised: every location's JSON object (without its closing
// brace) in one buffer, addressed by the store's position, so a response is a few appends.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"

namespace storefront::server {

class location_json {
  public:
    // Serialises every location once (O(n)); positions are indexes into `locations`. Throws
    // std::length_error when the set's JSON would not fit 32-bit offsets (4 GiB).
    explicit location_json(std::span<const core::location> locations);

    // The object of the location at `position`, open: `{"id":…,"longitude":…` with no closing brace.
    [[nodiscard]] std::string_view open_object(std::uint32_t position) const noexcept {
        return std::string_view(bytes_).substr(
            offsets_[position], offsets_[position + 1] - offsets_[position]
        );
    }

    [[nodiscard]] std::size_t size() const noexcept { return offsets_.size() - 1; }

    // The tag of every object's bytes (strong_etag): the same set gives the same on every instance.
    [[nodiscard]] std::string_view fingerprint() const noexcept { return fingerprint_; }

  private:
    std::string bytes_;  // every open object, back to back
    std::string fingerprint_;
    std::vector<std::uint32_t> offsets_;  // object i is [offsets_[i], offsets_[i + 1])
};

}  // namespace storefront::server
