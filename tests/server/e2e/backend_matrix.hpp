#pragma once
// What the e2e suites that run on every backend share: the storage specs of this run (memory and SQLite
// in server_tests, PostgreSQL under server_tests_pg), a server config on one of them, and one value read
// from /metrics.

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace storefront::test {

struct backend {
    std::string name;
    std::string storage;
};

// Memory and SQLite (a file `db_file` in `dir`), or a fresh PostgreSQL database when TEST_PG_DSN is set.
inline std::vector<backend> backends(const temp_dir& dir, const std::string& db_file) {
    if (std::getenv("TEST_PG_DSN")) {
        return {{"postgresql", create_test_database()}};
    }
    return {{"memory", "memory"}, {"sqlite", "sqlite:" + (dir.path() / db_file).string()}};
}

// The test config on `storage`, with a small generated location set (these suites do not need more).
inline server::server_config config_on(const std::string& storage) {
    auto c = test_config();
    c.storage.backend = storage;
    c.storage.generated_locations = 1000;
    return c;
}

// The value of the unlabelled series `name` in /metrics; fails the test when it is missing.
inline double metric(std::uint16_t port, const std::string& name) {
    std::istringstream lines(get(port, "/metrics").body);
    std::string line;
    const std::string prefix = name + " ";
    while (std::getline(lines, line)) {
        if (line.rfind(prefix, 0) == 0) {
            return std::stod(line.substr(prefix.size()));
        }
    }
    BOOST_FAIL("no " << name << " in /metrics");
    return 0;
}

}  // namespace storefront::test
