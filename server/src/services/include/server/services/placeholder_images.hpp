#pragma once
// The pictures storefront serves for its own seed data (and any product without an uploaded one): PNGs
// drawn with libgd from the item's name on its category's colour, rendered once per distinct content and
// kept in a bounded cache. Safe for concurrent callers.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "server/codec/representation.hpp"

namespace storefront::server {

struct placeholder_spec {
    std::string title;     // the big text (UTF-8; letters outside Latin-1 are drawn as '?')
    std::string subtitle;  // a smaller line under it (category name), may be empty
    std::uint32_t rgb = 0x3B82F6;
    int width = 600;  // even numbers: drawn at half size, then doubled
    int height = 400;
};

struct rendered_image {
    std::shared_ptr<const prepared_body> png;  // its ETag computed once, on the first request that needs it
};

class placeholder_images {
  public:
    explicit placeholder_images(std::size_t max_cached = 1024);

    // The PNG for `spec`; the same spec gives the same bytes (and ETag) on every instance.
    [[nodiscard]] rendered_image render(const placeholder_spec& spec);

    // The colour of category `id`, from a fixed palette.
    [[nodiscard]] static std::uint32_t category_colour(std::int64_t id) noexcept;

  private:
    std::size_t max_cached_;
    std::mutex mutex_;
    std::unordered_map<std::string, rendered_image> cache_;
};

}  // namespace storefront::server
