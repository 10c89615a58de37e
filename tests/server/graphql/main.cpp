// Entry point of graphql_tests: Boost.Test supplies main().
#define BOOST_TEST_MODULE graphql_tests
#include <boost/test/unit_test.hpp>
