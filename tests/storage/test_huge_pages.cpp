// prefer_huge_pages is a hint: whatever the kernel does with it, the region's bytes stay as they were (a
// madvise that discards pages, MADV_DONTNEED or MADV_FREE, would zero them), for any size and alignment.

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "storage/huge_pages.hpp"

namespace {

std::vector<std::uint64_t> pattern(std::size_t words) {
    std::vector<std::uint64_t> v(words);
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (auto& w : v) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        w = x;
    }
    return v;
}

std::string thp_setting() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    std::getline(in, line);
    return line;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(huge_pages)

BOOST_AUTO_TEST_CASE(the_hint_leaves_every_byte_as_it_was) {
    BOOST_TEST_MESSAGE("transparent huge pages: " << thp_setting());
    for (const std::size_t words :
         {std::size_t{0}, std::size_t{13}, std::size_t{1} << 18, (std::size_t{3} << 20) + 7}) {
        BOOST_TEST_CONTEXT(words << " words") {
            const std::vector<std::uint64_t> expected = pattern(words);
            std::vector<std::uint64_t> region = expected;
            storefront::storage::prefer_huge_pages(std::as_bytes(std::span(region)));
            // An unaligned start and end: the hint only touches the whole 2 MiB pages inside.
            if (words > 2) {
                storefront::storage::prefer_huge_pages(std::as_bytes(std::span(region).subspan(1, words - 2))
                );
            }
            BOOST_TEST((region == expected));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
