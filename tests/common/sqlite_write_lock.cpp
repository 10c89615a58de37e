// sqlite_write_lock: a transaction begun on a connection of its own, rolled back on release.

#include "common/sqlite_write_lock.hpp"

#include <sqlite3.h>

#include <boost/test/unit_test.hpp>

namespace storefront::test {

sqlite_write_lock::sqlite_write_lock(const std::string& path, const char* begin) {
    BOOST_TEST_REQUIRE(sqlite3_open(path.c_str(), &db_) == SQLITE_OK);
    BOOST_TEST_REQUIRE(sqlite3_exec(db_, begin, nullptr, nullptr, nullptr) == SQLITE_OK);
}

sqlite_write_lock::~sqlite_write_lock() {
    release();
    sqlite3_close(db_);
}

void sqlite_write_lock::release() {
    if (held_) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        held_ = false;
    }
}

}  // namespace storefront::test
