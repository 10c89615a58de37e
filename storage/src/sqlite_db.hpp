#pragma once
// A small RAII layer over the SQLite C API (Debian libsqlite3-dev) for the sqlite_* adapters: one connection
// opened with the durability settings issue 9 asks for, prepared statements with typed binds and columns,
// and transactions that roll back unless committed. Errors throw sqlite_error (a broken invariant or an
// unreachable file); expected outcomes (a UNIQUE violation) are reported by step() to the adapter.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace storefront::storage::detail {

class sqlite_error : public std::runtime_error {
  public:
    sqlite_error(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
    [[nodiscard]] int code() const noexcept { return code_; }

  private:
    int code_;
};

class sqlite_statement {
  public:
    enum class step_result { row, done, constraint };

    sqlite_statement(sqlite3* db, std::string_view sql);
    ~sqlite_statement();
    sqlite_statement(const sqlite_statement&) = delete;
    sqlite_statement& operator=(const sqlite_statement&) = delete;

    // Parameters are numbered from 1, as in SQL's ?1, ?2, …
    sqlite_statement& bind(int index, std::int64_t value);
    sqlite_statement& bind(int index, double value);
    sqlite_statement& bind(int index, std::string_view text);
    sqlite_statement& bind_blob(int index, std::string_view bytes);
    sqlite_statement& bind_null(int index);

    // The next row, the end, or a constraint violation (UNIQUE, FOREIGN KEY); throws on anything else.
    step_result step();
    void reset();  // ready to bind and run again

    // Columns are numbered from 0.
    [[nodiscard]] std::int64_t int64(int column) const;
    [[nodiscard]] double real(int column) const;
    [[nodiscard]] std::string text(int column) const;
    [[nodiscard]] std::string blob(int column) const;

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

class sqlite_db {
  public:
    // Opens (creating) `path` with WAL, synchronous=FULL, foreign keys on and a busy timeout.
    explicit sqlite_db(const std::string& path);
    ~sqlite_db();
    sqlite_db(const sqlite_db&) = delete;
    sqlite_db& operator=(const sqlite_db&) = delete;

    void exec(std::string_view sql);  // statements without results (schema, pragmas)
    [[nodiscard]] sqlite_statement prepare(std::string_view sql) { return sqlite_statement(db_, sql); }
    [[nodiscard]] std::int64_t last_insert_id() const;

    // BEGIN IMMEDIATE … COMMIT; the destructor rolls back a transaction that was not committed.
    class transaction {
      public:
        explicit transaction(sqlite_db& db);
        ~transaction();
        void commit();

      private:
        sqlite_db& db_;
        bool done_ = false;
    };

  private:
    sqlite3* db_ = nullptr;
};

}  // namespace storefront::storage::detail
