#pragma once
// The RFC 8288 `Link` header of a paged list: first, prev, next and last, each the request's own target
// with only `offset` and `limit` changed.

#include <cstddef>
#include <string>
#include <string_view>

#include "core/paging_links.hpp"
#include "server/codec/request_target.hpp"

namespace storefront::server {

// The target's path and query with `offset` and `limit` set: each replaces the first parameter of its
// name in place (later repeats are dropped), a missing one is appended (offset before limit). Every other
// parameter keeps its position and its exact percent-encoding; empty `&&` items are dropped.
[[nodiscard]] std::string page_target(const request_target& target, std::size_t offset, std::size_t limit);

// `<…>; rel="first", <…>; rel="prev", <…>; rel="next", <…>; rel="last"`, prev and next only when `links`
// has them. The references are relative (path and query), which RFC 8288 resolves against the request.
[[nodiscard]] std::string link_header(
    const request_target& target, const core::paging_links& links, std::size_t limit
);

}  // namespace storefront::server
