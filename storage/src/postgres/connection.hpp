#pragma once
// A small RAII layer over libpq (Debian libpq-dev) for the pg_* adapters: one connection with bounded waits
// (connect_timeout, a client-side deadline on every statement, statement_timeout on the server),
// parameterised statements only, results with typed columns, and transactions that roll back unless
// committed. A lost connection or a timeout throws storage_unavailable and marks the connection broken; a
// constraint violation is returned to the adapter (exec_or_violation); any other error throws pg_error (a
// bug).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/transaction.hpp"

struct pg_conn;
struct pg_result;

namespace storefront::storage::detail {

class pg_error : public std::runtime_error {
  public:
    pg_error(const std::string& what, std::string sqlstate)
        : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
    [[nodiscard]] const std::string& sqlstate() const noexcept { return sqlstate_; }

  private:
    std::string sqlstate_;
};

// Parameters $1, $2, … in order; text format except bytes (binary, for bytea).
class pg_params {
  public:
    pg_params& add(std::int64_t value);
    pg_params& add(double value);
    pg_params& add(bool value);
    pg_params& add(std::string_view text);
    pg_params& add(const char* text) { return add(std::string_view(text)); }
    pg_params& add_bytes(std::string_view bytes);
    pg_params& add_null();
    template <class T>
    pg_params& add(const std::optional<T>& value) {
        return value ? add(*value) : add_null();
    }

  private:
    friend class pg_connection;
    std::vector<std::string> values_;
    std::vector<bool> nulls_;
    std::vector<int> formats_;
};

// The rows of one statement; columns in text format.
class pg_rows {
  public:
    pg_rows() = default;
    explicit pg_rows(::pg_result* result);

    [[nodiscard]] int size() const;
    [[nodiscard]] bool empty() const { return size() == 0; }
    [[nodiscard]] std::int64_t affected() const;  // rows changed by INSERT/UPDATE/DELETE

    [[nodiscard]] bool is_null(int row, int column) const;
    [[nodiscard]] std::string_view text(int row, int column) const;
    [[nodiscard]] std::int64_t int64(int row, int column) const;
    [[nodiscard]] double real(int row, int column) const;
    [[nodiscard]] bool boolean(int row, int column) const;
    [[nodiscard]] std::string bytes(int row, int column) const;  // a bytea column

  private:
    std::shared_ptr<::pg_result> result_;
};

enum class pg_violation { none, unique, foreign_key };

// How a statement is planned. per_run: for its parameters and the table sizes of the moment, at every run.
// kept: prepared once per connection, so later runs skip parsing and PostgreSQL may keep one generic plan;
// only for statements whose best plan cannot change with the data (a one-row insert, a function call): a
// generic plan of a lookup made while its table was small (a scan) would outlive the table's growth
// until the next ANALYZE (measured: a batch's re-read of its products by id scanning the whole table).
enum class pg_plan { per_run, kept };

// One-dimensional array literals in PostgreSQL's text format ({"a","b",NULL}), so a list travels in one
// parameter or column whatever characters its items hold.
[[nodiscard]] std::string format_array(const std::vector<std::optional<std::string>>& items);
[[nodiscard]] std::string format_array(const std::vector<std::string>& items);
// Throws pg_error for a malformed literal.
[[nodiscard]] std::vector<std::optional<std::string>> parse_array(std::string_view literal);
[[nodiscard]] std::vector<std::string> parse_array_no_nulls(std::string_view literal);

// The bounds every connection works within.
struct pg_limits {
    std::chrono::milliseconds connect_timeout{3000};
    std::chrono::milliseconds statement_timeout{5000};  // also the client-side deadline (plus a margin)
};

// How long the pool and the LISTEN thread wait before connecting again: doubling from the first to the most.
constexpr std::chrono::milliseconds first_backoff{100};
constexpr std::chrono::milliseconds max_backoff{2000};

class pg_connection {
  public:
    // BEGIN … COMMIT; the destructor rolls back a transaction that was not committed. BEGIN waits to go in
    // the round trip of the transaction's first statement (a round trip less per transaction); a transaction
    // that ran no statement sends nothing.
    using transaction = scoped_transaction<pg_connection>;

    // Connects to `dsn` (a libpq URL or key=value string); throws storage_unavailable when it cannot. The
    // DSN (which may hold a password) never appears in an exception message. A non-empty `schema` becomes
    // the session's search_path (it need not exist yet: the migration creates it).
    pg_connection(const std::string& dsn, const pg_limits& limits, const std::string& schema = {});
    ~pg_connection();
    pg_connection(const pg_connection&) = delete;
    pg_connection& operator=(const pg_connection&) = delete;

    // Runs one statement; every failure throws (storage_unavailable or pg_error).
    pg_rows exec(std::string_view sql, const pg_params& params = {}, pg_plan plan = pg_plan::per_run);
    // Like exec, but a UNIQUE or FOREIGN KEY violation is returned instead of thrown (the transaction
    // is then aborted: the caller returns and lets the transaction roll back).
    pg_violation exec_or_violation(
        std::string_view sql,
        const pg_params& params,
        pg_rows* rows = nullptr,
        pg_plan plan = pg_plan::per_run
    );

    // Queues `sql` (without parameters: SAVEPOINT …) to be sent in the same round trip as the next
    // statement; when it fails, its failure is that statement's answer (which then does not run). One at a
    // time: throws std::logic_error while one waits.
    void send_with_next(std::string sql);
    // Drops what waits to be sent after the transaction's BEGIN: send_with_next's statement and what
    // exec_later queued (a write that answered an error: nothing of it went out). Whether send_with_next's
    // statement was among it, i.e. never sent.
    bool drop_unsent();

    // Inside a transaction: queues a statement whose answer nothing waits for (a notification, the lines
    // of a row whose id is known, a delete), to go in the round trip of the next statement (exec, or the
    // COMMIT) after what was queued before it; a round trip saved each. Its failure is thrown by that
    // statement, a constraint violation too (nothing could tell it from the statement's own). `into`, when
    // given, receives its rows then (a read the next statement's answer is used with). Throws
    // std::logic_error outside a transaction, where nothing would be sure to send it.
    void exec_later(
        std::string_view sql,
        const pg_params& params = {},
        pg_plan plan = pg_plan::per_run,
        pg_rows* into = nullptr
    );
    // Sends what exec_later queued now, in one round trip, throwing its first failure (a write in a batch,
    // before its answer is given: its statements must not outlive its savepoint). Nothing queued: nothing.
    void send_queued();

    // `name` quoted as an SQL identifier (libpq's escaping), for statements that cannot take a parameter.
    [[nodiscard]] std::string quote_identifier(std::string_view name) const;

    // False once a statement failed on the connection level; the pool then drops the connection.
    [[nodiscard]] bool healthy() const;
    // Reads what the server sent while the connection was idle (a shutdown notice) without blocking;
    // false when the connection turned out to be gone.
    [[nodiscard]] bool still_open();

    // For LISTEN: waits up to `timeout` for notifications; each one (its channel and payload) is appended to
    // `received`. Throws storage_unavailable when the connection is lost.
    struct notification {
        std::string channel;
        std::string payload;
    };
    void wait_for_notifications(std::chrono::milliseconds timeout, std::vector<notification>& received);

  private:
    friend class scoped_transaction<pg_connection>;
    void begin();
    void commit();
    void rollback();  // not on a broken connection: the pool drops it

    // Runs `sql` with what is queued in front of it: the statement's result, or the first failure of a
    // queued one (then `queued_failed` is set and the statement did not run).
    ::pg_result* run(
        std::string_view sql, const pg_params& params, pg_plan plan, bool* queued_failed = nullptr
    );
    // What is queued, then `sql` (when given), in one pipeline (libpq's pipeline mode: one write, one round
    // trip); a kept statement not prepared yet is prepared in the same pipeline. Answers as run(); without
    // `sql`, nullptr when everything queued succeeded.
    ::pg_result* run_pipeline(
        const std::string_view* sql, const pg_params* params, pg_plan plan, bool* queued_failed
    );
    // Sends one statement (by `prepared_name` when it is prepared), not waiting for its answer.
    void send_statement(std::string_view sql, const pg_params& params, const char* prepared_name);
    // Flushes what was sent and waits for its results: the first one.
    ::pg_result* finish();
    // Takes `result`: none with its rows in `rows` (when given) for a success; a UNIQUE or FOREIGN KEY
    // violation of the statement itself is returned; every other failure (a queued statement's violation
    // too) is thrown: storage_unavailable, or pg_error.
    pg_violation classify(::pg_result* result, pg_rows* rows, bool queued_failed);
    void flush(std::chrono::steady_clock::time_point deadline);
    // The next result (nullptr at the end of a query's), waiting for it until `deadline`.
    ::pg_result* next_result(std::chrono::steady_clock::time_point deadline);
    // The first result of the query whose results come next; the others are dropped.
    ::pg_result* first_result_of_query(std::chrono::steady_clock::time_point deadline);
    void wait_socket(bool for_write, std::chrono::steady_clock::time_point deadline);
    [[noreturn]] void lost(const std::string& what);

    static constexpr std::size_t max_prepared = 256;

    // A statement waiting to go in the next round trip: the transaction's BEGIN, send_with_next's, or
    // exec_later's.
    struct queued_statement {
        enum class role { begin, with_next, later };
        role what;
        std::string sql;
        pg_params params;
        pg_plan plan = pg_plan::per_run;
        pg_rows* into = nullptr;
    };

    ::pg_conn* conn_ = nullptr;
    pg_limits limits_;
    std::map<std::string, std::string, std::less<>> prepared_;  // statement text -> name
    unsigned prepares_sent_ = 0;            // names s0, s1, … (a failed one is not reused)
    std::vector<queued_statement> queued_;  // in the order they go
    bool in_transaction_ = false;
    bool broken_ = false;
};

using pg_transaction = pg_connection::transaction;

}  // namespace storefront::storage::detail
