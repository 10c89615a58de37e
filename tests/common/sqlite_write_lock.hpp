#pragma once
// Another process's write transaction on an SQLite file, as a backup job or a second writer would hold it.

#include <string>

struct sqlite3;

namespace storefront::test {

// A connection of its own holding the write lock (taken by `begin`: "BEGIN IMMEDIATE" or "BEGIN EXCLUSIVE")
// until released or destroyed.
class sqlite_write_lock {
  public:
    explicit sqlite_write_lock(const std::string& path, const char* begin = "BEGIN IMMEDIATE");
    ~sqlite_write_lock();
    sqlite_write_lock(const sqlite_write_lock&) = delete;
    sqlite_write_lock& operator=(const sqlite_write_lock&) = delete;
    // Rolls the transaction back (once): other connections may write again.
    void release();

  private:
    sqlite3* db_ = nullptr;
    bool held_ = true;
};

}  // namespace storefront::test
