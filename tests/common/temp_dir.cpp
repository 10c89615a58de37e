// temp_dir: mkdtemp under the system temp directory, remove_all on destruction.

#include "common/temp_dir.hpp"

#include <stdlib.h>
#include <string>

#include <boost/test/unit_test.hpp>

#include <system_error>

namespace storefront::test {

temp_dir::temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "storefront-test-XXXXXX").string();
    BOOST_TEST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
}

temp_dir::~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace storefront::test
