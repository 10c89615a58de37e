// RAII over sqlite3: durable connection settings, prepared statements, transactions.

#include "sqlite/connection.hpp"

#include <sqlite3.h>

#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

namespace {

// Codes that say the database cannot answer now (the server answers 503), as opposed to a bug.
bool unavailable(int code) {
    switch (code & 0xFF) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_CANTOPEN:
        case SQLITE_READONLY:
        case SQLITE_PROTOCOL:
        case SQLITE_NOMEM:
            return true;
        default:
            return false;
    }
}

[[noreturn]] void throw_for(int code, const std::string& message) {
    if (unavailable(code)) {
        throw storage_unavailable("sqlite: " + message);
    }
    throw sqlite_error(message, code);
}

[[noreturn]] void fail(sqlite3* db, int code, std::string_view what) {
    throw_for(code, std::string(what) + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(code)));
}

void check(sqlite3* db, int code, std::string_view what) {
    if (code != SQLITE_OK) {
        fail(db, code, what);
    }
}

}  // namespace

sqlite_statement::sqlite_statement(sqlite_connection& home, std::string_view sql)
    : home_(home), db_(home.db_), stmt_(home.take_statement(sql)), keep_(sqlite3_sql(stmt_) == sql) {}

sqlite_statement::~sqlite_statement() {
    home_.give_back(stmt_, keep_);
}

sqlite_statement& sqlite_statement::bind(int index, std::int64_t value) {
    check(db_, sqlite3_bind_int64(stmt_, index, value), "bind");
    return *this;
}

sqlite_statement& sqlite_statement::bind(int index, double value) {
    check(db_, sqlite3_bind_double(stmt_, index, value), "bind");
    return *this;
}

sqlite_statement& sqlite_statement::bind(int index, std::string_view text) {
    check(
        db_,
        sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
        "bind"
    );
    return *this;
}

sqlite_statement& sqlite_statement::bind_blob(int index, std::string_view bytes) {
    check(db_, sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT), "bind");
    return *this;
}

sqlite_statement& sqlite_statement::bind_null(int index) {
    check(db_, sqlite3_bind_null(stmt_, index), "bind");
    return *this;
}

sqlite_statement::step_result sqlite_statement::step() {
    const int code = sqlite3_step(stmt_);
    if (code == SQLITE_ROW) {
        return step_result::row;
    }
    if (code == SQLITE_DONE) {
        return step_result::done;
    }
    if ((code & 0xFF) == SQLITE_CONSTRAINT) {
        return step_result::constraint;
    }
    fail(db_, code, "step");
}

void sqlite_statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t sqlite_statement::int64(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double sqlite_statement::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

std::string sqlite_statement::text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
                : std::string();
}

bool sqlite_statement::is_null(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::string sqlite_statement::blob(int column) const {
    const auto* data = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
    return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
                : std::string();
}

sqlite_connection::sqlite_connection(
    const std::string& path, std::chrono::milliseconds busy_timeout, bool read_only
) {
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    const int code = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (code != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
        sqlite3_close(db_);
        db_ = nullptr;
        throw_for(code, "cannot open " + path + ": " + message);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout.count()));
    try {
        // An acknowledged write survives kill -9 and power loss: WAL with a full sync at every commit.
        exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
        // Statement journals (the savepoint of each change in a group commit, and of each statement) stay in
        // memory: they are only ever read to roll back in this process, and once spilled to a temporary file
        // every later batch wrote ~25 extra pages per create through pwrite.
        exec("PRAGMA temp_store=MEMORY;");
        if (read_only) {
            exec("PRAGMA query_only=ON;");
        }
    } catch (...) {
        sqlite3_close(db_);
        throw;
    }
}

sqlite_connection::~sqlite_connection() {
    for (auto& [sql, statements] : idle_statements_) {
        for (auto* stmt : statements) {
            sqlite3_finalize(stmt);
        }
    }
    sqlite3_close(db_);
}

sqlite3_stmt* sqlite_connection::take_statement(std::string_view sql) {
    if (auto found = idle_statements_.find(sql); found != idle_statements_.end() && !found->second.empty()) {
        auto* stmt = found->second.back();
        found->second.pop_back();
        --idle_count_;
        return stmt;
    }
    sqlite3_stmt* stmt = nullptr;
    const int code = sqlite3_prepare_v3(
        db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr
    );
    check(db_, code, "prepare");
    return stmt;
}

void sqlite_connection::give_back(sqlite3_stmt* stmt, bool keep) noexcept {
    // Reset releases what the statement holds (a read snapshot, a pending write step) as finalize would.
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    if (!keep || idle_count_ >= max_idle_statements) {
        sqlite3_finalize(stmt);
        return;
    }
    try {
        auto found = idle_statements_.find(std::string_view(sqlite3_sql(stmt)));
        if (found == idle_statements_.end()) {
            found = idle_statements_.emplace(sqlite3_sql(stmt), std::vector<sqlite3_stmt*>{}).first;
        }
        found->second.push_back(stmt);
        ++idle_count_;
    } catch (...) {  // out of memory: not kept
        sqlite3_finalize(stmt);
    }
}

void sqlite_connection::exec(std::string_view sql) {
    const std::string text(sql);
    char* error = nullptr;
    const int code = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    if (code != SQLITE_OK) {
        std::string message = error ? error : sqlite3_errstr(code);
        sqlite3_free(error);
        throw_for(code, "exec: " + message);
    }
}

void sqlite_connection::run(std::string_view sql) {
    auto statement = prepare(sql);
    if (statement.step() == sqlite_statement::step_result::constraint) {
        fail(db_, SQLITE_CONSTRAINT, "run");
    }
}

std::int64_t sqlite_connection::last_insert_id() const {
    return sqlite3_last_insert_rowid(db_);
}

std::int64_t sqlite_connection::changes() const {
    return sqlite3_changes64(db_);
}

bool sqlite_connection::in_transaction() const {
    return sqlite3_get_autocommit(db_) == 0;
}

void sqlite_connection::begin(begin_mode mode) {
    run(mode == begin_mode::immediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

void sqlite_connection::commit() {
    run("COMMIT");
}

void sqlite_connection::rollback() {
    run("ROLLBACK");
}

}  // namespace storefront::storage::detail
