#pragma once
// Precompiled header for server_tests: Boost.Test, Boost.JSON and the Asio/Beast headers that nearly every
// test file includes directly or through the server's headers, parsed once instead of once per file.
// Not <boost/asio/ip/tcp.hpp>: with the system socket headers it brings in first, `route{...}` inside a
// test case of test_router.cpp no longer parses.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
