#pragma once
// Precompiled header for the test executables without Asio (core_tests, storage_tests, graphql_tests): the
// Boost.Test header every test file includes, parsed once per executable instead of once per file.

#include <boost/test/unit_test.hpp>
