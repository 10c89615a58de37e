// prefer_huge_pages: madvise on the whole 2 MiB pages inside a region; errors are ignored (a hint).

#include "storage/huge_pages.hpp"

#include <cstdint>

#include <sys/mman.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1; older C library headers lack the name
#endif

namespace storefront::storage {

void prefer_huge_pages(std::span<const std::byte> region) noexcept {
    constexpr std::uintptr_t huge_page = std::uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(region.data());
    const std::uintptr_t first = (begin + huge_page - 1) & ~(huge_page - 1);
    const std::uintptr_t last = (begin + region.size()) & ~(huge_page - 1);
    if (last <= first) {
        return;
    }
    auto* const start = reinterpret_cast<void*>(first);
    const std::size_t length = last - first;
    (void)::madvise(start, length, MADV_HUGEPAGE);
    (void)::madvise(start, length, MADV_COLLAPSE);
}

}  // namespace storefront::storage
