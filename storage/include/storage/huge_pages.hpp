#pragma once
// A placement hint for large, read-only-after-start arrays that are read at random (the location index and
// its JSON): backed by 2 MiB pages, a lookup costs no TLB miss, where 4 KiB pages over a few hundred MiB
// cost one on almost every access.

#include <cstddef>
#include <span>

namespace storefront::storage {

// Asks the kernel to back the 2 MiB-aligned part of `region` with transparent huge pages, now (Linux 6.1's
// MADV_COLLAPSE) and after any later split (MADV_HUGEPAGE). Only a hint: the contents do not change, and
// where the kernel cannot or may not (THP "never", an older kernel, a region under 2 MiB) nothing happens.
void prefer_huge_pages(std::span<const std::byte> region) noexcept;

}  // namespace storefront::storage
