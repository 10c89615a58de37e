#pragma once
// Precompiled header for the test executables without Asio (core_tests, storage_tests, graphql_tests): the
// Boost.Test header every test file includes and the standard headers most do, parsed once per executable
// instead of once per file.

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

#include <boost/test/unit_test.hpp>
