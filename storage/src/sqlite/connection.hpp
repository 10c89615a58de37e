#pragma once
// A small RAII layer over the SQLite C API (Debian libsqlite3-dev) for the sqlite_* adapters: one connection
// opened with the durability settings issue 9 asks for, prepared statements with typed binds and columns,
// and transactions that roll back unless committed. A backend that cannot answer (busy past the timeout, I/O
// error, full disk, unopenable file) throws storage_unavailable; other failures (a broken invariant such as
// bad SQL) throw sqlite_error; expected outcomes (a UNIQUE violation) are reported by step() to the adapter.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/transaction.hpp"

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

class sqlite_connection;

class sqlite_statement {
  public:
    enum class step_result { row, done, constraint };

    // A statement from `home`'s cache (prepared there the first time this SQL is asked for); it goes back,
    // reset and unbound, when this object ends.
    sqlite_statement(sqlite_connection& home, std::string_view sql);
    ~sqlite_statement();
    sqlite_statement(const sqlite_statement&) = delete;
    sqlite_statement& operator=(const sqlite_statement&) = delete;

    // Parameters are numbered from 1, as in SQL's ?1, ?2, …
    sqlite_statement& bind(int index, std::int64_t value);
    sqlite_statement& bind(int index, double value);
    sqlite_statement& bind(int index, std::string_view text);
    sqlite_statement& bind_blob(int index, std::string_view bytes);
    sqlite_statement& bind_null(int index);
    // NULL for nullopt (the petstore's optional fields), else the value as bind() takes it.
    template <class T>
    sqlite_statement& bind_optional(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bind_null(index);
    }

    // The next row, the end, or a constraint violation (UNIQUE, FOREIGN KEY); throws on anything else.
    step_result step();
    void reset();  // ready to bind and run again

    // Columns are numbered from 0.
    [[nodiscard]] std::int64_t int64(int column) const;
    [[nodiscard]] double real(int column) const;
    [[nodiscard]] std::string text(int column) const;
    [[nodiscard]] std::string blob(int column) const;
    [[nodiscard]] bool is_null(int column) const;
    // nullopt for NULL, else the column.
    [[nodiscard]] std::optional<std::int64_t> optional_int64(int column) const {
        return is_null(column) ? std::nullopt : std::optional(int64(column));
    }
    [[nodiscard]] std::optional<std::string> optional_text(int column) const {
        return is_null(column) ? std::nullopt : std::optional(text(column));
    }

  private:
    sqlite_connection& home_;
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
    bool keep_ = false;  // its SQL text is the cache's key (so a later prepare() of that text finds it)
};

class sqlite_connection {
  public:
    // Opens (creating) `path` with WAL, synchronous=FULL, foreign keys on and `busy_timeout`; a `read_only`
    // connection refuses writes (PRAGMA query_only), so a reader can never take the write lock by mistake.
    sqlite_connection(
        const std::string& path, std::chrono::milliseconds busy_timeout, bool read_only = false
    );
    ~sqlite_connection();
    sqlite_connection(const sqlite_connection&) = delete;
    sqlite_connection& operator=(const sqlite_connection&) = delete;

    void exec(std::string_view sql);  // statements without results (schema, pragmas)
    // One statement without results, through the statement cache (what a write runs every time: SAVEPOINT,
    // RELEASE, BEGIN, COMMIT).
    void run(std::string_view sql);
    // A prepared statement for `sql`, kept by this connection between uses: parsing and planning a statement
    // costs more than running most of ours, and a write runs the same handful every time.
    [[nodiscard]] sqlite_statement prepare(std::string_view sql) { return sqlite_statement(*this, sql); }
    [[nodiscard]] std::int64_t last_insert_id() const;
    [[nodiscard]] std::int64_t changes() const;  // rows the last INSERT, UPDATE or DELETE touched
    // False outside BEGIN … COMMIT, and after SQLite rolled a transaction back by itself (I/O error, full
    // disk).
    [[nodiscard]] bool in_transaction() const;

    enum class begin_mode { immediate, deferred };

    // BEGIN IMMEDIATE … COMMIT; the destructor rolls back a transaction that was not committed.
    using transaction = scoped_transaction<sqlite_connection>;

    // BEGIN (deferred) … ROLLBACK: several reads from one snapshot of the file (never committed).
    class read_transaction : scoped_transaction<sqlite_connection> {
      public:
        explicit read_transaction(sqlite_connection& db) : scoped_transaction(db, begin_mode::deferred) {}
    };

  private:
    friend class scoped_transaction<sqlite_connection>;
    friend class sqlite_statement;
    void begin(begin_mode mode = begin_mode::immediate);
    void commit();
    void rollback();

    // The statement cache: idle statements by their SQL text. A connection is used by one thread at a time
    // (a read lease or the write lock), so it needs no lock of its own. Bounded: past max_idle_statements a
    // statement is finalized instead of kept (filters build SQL from the clauses a request names).
    struct text_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept {
            return std::hash<std::string_view>{}(text);
        }
    };
    static constexpr std::size_t max_idle_statements = 64;
    sqlite3_stmt* take_statement(std::string_view sql);
    void give_back(sqlite3_stmt* stmt, bool keep) noexcept;

    sqlite3* db_ = nullptr;
    std::unordered_map<std::string, std::vector<sqlite3_stmt*>, text_hash, std::equal_to<>> idle_statements_;
    std::size_t idle_count_ = 0;
};

}  // namespace storefront::storage::detail
