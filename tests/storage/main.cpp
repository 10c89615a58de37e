// Entry point of storage_tests: Boost.Test supplies main().
#define BOOST_TEST_MODULE storage_tests
#include <boost/test/unit_test.hpp>
