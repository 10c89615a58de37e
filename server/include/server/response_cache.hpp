#pragma once
// Serialised JSON of the immutable-between-revisions lists (products, categories, users): built once per
// storage revision, then a page is a concatenation of prebuilt fragments. Safe for concurrent readers.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/pagination.hpp"

namespace storefront::server {

class fragment_list {
  public:
    struct snapshot {
        std::uint64_t revision = 0;
        std::vector<std::string> items;                // one JSON value per item, in id order
        std::shared_ptr<const std::string> all_items;  // the whole list as one JSON array
    };
    // `revision` reports the source's revision; `load` serialises every item of that revision.
    fragment_list(std::function<std::uint64_t()> revision, std::function<std::vector<std::string>()> load);

    // The current snapshot, rebuilt first if the source moved on.
    [[nodiscard]] std::shared_ptr<const snapshot> current();

    // A JSON array of the page's items.
    [[nodiscard]] std::string page(const core::page_request& page);
    [[nodiscard]] std::shared_ptr<const std::string> all();

  private:
    std::function<std::uint64_t()> revision_;
    std::function<std::vector<std::string>()> load_;
    std::atomic<std::shared_ptr<const snapshot>> snapshot_;
    std::mutex rebuild_;
};

}  // namespace storefront::server
