#pragma once
// The completion token of the transport's awaited operations: (error_code, result...) as a tuple, so a closed
// or timed-out connection is a value to check, not an exception.

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace storefront::server {

inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

}  // namespace storefront::server
