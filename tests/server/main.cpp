// Entry point of server_tests: Boost.Test supplies main().
#define BOOST_TEST_MODULE server_tests
#include <boost/test/unit_test.hpp>
