// RAII over libpq: connections with client-side deadlines (non-blocking sockets and poll), typed parameters
// and columns, SQLSTATE classification, transactions.

#include "postgres/connection.hpp"

#include <charconv>
#include <cstring>
#include <libpq-fe.h>
#include <poll.h>
#include <stdexcept>
#include <utility>

#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

namespace {

using clock = std::chrono::steady_clock;

// SQLSTATEs that mean "the database cannot serve this now" rather than a bug: connection exceptions
// (08), operator intervention (57: shutdown, statement_timeout's query_canceled), insufficient resources
// (53), and serialisation failures or deadlocks (40) that a client retries. An undefined table (42P01) or
// schema (3F000) means a sandbox's schema was dropped by another instance while its stores were in use:
// the caller answers 503 and builds them again, rather than a 500 for a bug.
bool is_unavailable_state(std::string_view state) {
    return state.starts_with("08") || state.starts_with("57") || state.starts_with("53") ||
           state.starts_with("40") || state == "42P01" || state == "3F000";
}

std::string field(const PGresult* r, int code) {
    const char* v = PQresultErrorField(r, code);
    return v ? v : "";
}

struct result_deleter {
    void operator()(PGresult* r) const { PQclear(r); }
};
using result_ptr = std::unique_ptr<PGresult, result_deleter>;

}  // namespace

std::string format_array(const std::vector<std::optional<std::string>>& items) {
    std::string out = "{";
    for (const auto& item : items) {
        if (out.size() > 1) {
            out += ',';
        }
        if (!item) {
            out += "NULL";
            continue;
        }
        out += '"';
        for (const char c : *item) {
            if (c == '"' || c == '\\') {
                out += '\\';
            }
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

std::string format_array(const std::vector<std::string>& items) {
    return format_array(std::vector<std::optional<std::string>>(items.begin(), items.end()));
}

std::vector<std::optional<std::string>> parse_array(std::string_view literal) {
    std::vector<std::optional<std::string>> out;
    if (literal.size() < 2 || literal.front() != '{' || literal.back() != '}') {
        throw pg_error("malformed array literal", "");
    }
    std::size_t i = 1;
    const std::size_t end = literal.size() - 1;
    while (i < end) {
        std::string item;
        if (literal[i] == '"') {
            for (++i; i < end && literal[i] != '"'; ++i) {
                if (literal[i] == '\\' && i + 1 < end) {
                    ++i;
                }
                item += literal[i];
            }
            if (i >= end) {
                throw pg_error("malformed array literal", "");
            }
            ++i;  // the closing quote
            out.emplace_back(std::move(item));
        } else {
            const std::size_t comma = std::min(literal.find(',', i), end);
            item = literal.substr(i, comma - i);
            // Unquoted NULL is the null item; a text "NULL" comes back quoted.
            out.push_back(item == "NULL" ? std::nullopt : std::optional<std::string>(std::move(item)));
            i = comma;
        }
        if (i < end && literal[i] == ',') {
            ++i;
        }
    }
    return out;
}

std::vector<std::string> parse_array_no_nulls(std::string_view literal) {
    std::vector<std::string> out;
    for (auto& item : parse_array(literal)) {
        out.push_back(item.value_or(""));
    }
    return out;
}

pg_params& pg_params::add(std::int64_t value) {
    values_.push_back(std::to_string(value));
    nulls_.push_back(false);
    formats_.push_back(0);
    return *this;
}

pg_params& pg_params::add(double value) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;  // shortest round trip
    values_.emplace_back(buffer, end);
    nulls_.push_back(false);
    formats_.push_back(0);
    return *this;
}

pg_params& pg_params::add(bool value) {
    values_.emplace_back(value ? "t" : "f");
    nulls_.push_back(false);
    formats_.push_back(0);
    return *this;
}

pg_params& pg_params::add(std::string_view text) {
    values_.emplace_back(text);
    nulls_.push_back(false);
    formats_.push_back(0);
    return *this;
}

pg_params& pg_params::add_bytes(std::string_view bytes) {
    values_.emplace_back(bytes);
    nulls_.push_back(false);
    formats_.push_back(1);
    return *this;
}

pg_params& pg_params::add_null() {
    values_.emplace_back();
    nulls_.push_back(true);
    formats_.push_back(0);
    return *this;
}

pg_rows::pg_rows(PGresult* result) : result_(result, PQclear) {}

int pg_rows::size() const {
    return result_ ? PQntuples(result_.get()) : 0;
}

std::int64_t pg_rows::affected() const {
    const char* n = result_ ? PQcmdTuples(result_.get()) : "";
    std::int64_t value = 0;
    std::from_chars(n, n + std::strlen(n), value);
    return value;
}

bool pg_rows::is_null(int row, int column) const {
    return PQgetisnull(result_.get(), row, column) != 0;
}

std::string_view pg_rows::text(int row, int column) const {
    return {
        PQgetvalue(result_.get(), row, column),
        static_cast<std::size_t>(PQgetlength(result_.get(), row, column))};
}

std::int64_t pg_rows::int64(int row, int column) const {
    const auto t = text(row, column);
    std::int64_t value = 0;
    if (std::from_chars(t.data(), t.data() + t.size(), value).ec != std::errc{}) {
        throw pg_error("not an integer column", "");
    }
    return value;
}

double pg_rows::real(int row, int column) const {
    const auto t = text(row, column);
    double value = 0;
    if (std::from_chars(t.data(), t.data() + t.size(), value).ec != std::errc{}) {
        throw pg_error("not a numeric column", "");
    }
    return value;
}

bool pg_rows::boolean(int row, int column) const {
    return text(row, column) == "t";
}

std::string pg_rows::bytes(int row, int column) const {
    std::size_t length = 0;
    unsigned char* raw = PQunescapeBytea(
        reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row, column)), &length
    );
    if (!raw) {
        throw std::bad_alloc();
    }
    std::string out(reinterpret_cast<const char*>(raw), length);
    PQfreemem(raw);
    return out;
}

pg_connection::pg_connection(const std::string& dsn, const pg_limits& limits, const std::string& schema)
    : limits_(limits) {
    const auto seconds = std::chrono::ceil<std::chrono::seconds>(limits.connect_timeout).count();
    const std::string timeout = std::to_string(std::max<long long>(2, seconds));  // libpq's minimum is 2
    // Our bounds come before the DSN's own fields (which may override them); keepalives notice a peer
    // that vanished without closing the TCP connection.
    const char* keys[] = {
        "connect_timeout",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "application_name",
        "dbname",
        nullptr};
    const char* values[] = {timeout.c_str(), "1", "5", "2", "3", "storefront", dsn.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (!conn_) {
        throw std::bad_alloc();
    }
    if (PQstatus(conn_) != CONNECTION_OK) {
        std::string message = PQerrorMessage(conn_);
        PQfinish(conn_);
        conn_ = nullptr;
        while (!message.empty() && message.back() == '\n') {
            message.pop_back();
        }
        throw storage_unavailable("PostgreSQL connection failed: " + message);
    }
    // libpq would print server notices (NOTICE, the FATAL of a shutdown) to stderr; errors that matter reach
    // the adapter as results or exceptions instead.
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr
    );
    if (PQsetnonblocking(conn_, 1) != 0) {
        PQfinish(conn_);
        conn_ = nullptr;
        throw storage_unavailable("PostgreSQL connection cannot be made non-blocking");
    }
    try {
        // The server gives up first (statement_timeout); the client's deadline only catches a silent peer.
        exec(
            "SELECT set_config('statement_timeout', $1, false), "
            "set_config('idle_in_transaction_session_timeout', $2, false)",
            pg_params()
                .add(std::to_string(limits.statement_timeout.count()))
                .add(std::to_string(limits.statement_timeout.count() * 4))
        );
        if (!schema.empty()) {
            // Only the sandbox's schema: tables are created and found there, never in the shared view.
            (void
            )exec("SELECT set_config('search_path', $1, false)", pg_params().add(quote_identifier(schema)));
        }
    } catch (...) {
        PQfinish(conn_);
        conn_ = nullptr;
        throw;
    }
}

pg_connection::~pg_connection() {
    if (conn_) {
        PQfinish(conn_);
    }
}

std::string pg_connection::quote_identifier(std::string_view name) const {
    char* quoted = PQescapeIdentifier(conn_, name.data(), name.size());
    if (!quoted) {
        throw pg_error("cannot quote an identifier", "");
    }
    std::string out(quoted);
    PQfreemem(quoted);
    return out;
}

bool pg_connection::healthy() const {
    return !broken_ && conn_ && PQstatus(conn_) == CONNECTION_OK;
}

void pg_connection::lost(const std::string& what) {
    broken_ = true;
    std::string message = conn_ ? PQerrorMessage(conn_) : "";
    while (!message.empty() && message.back() == '\n') {
        message.pop_back();
    }
    throw storage_unavailable("PostgreSQL " + what + (message.empty() ? "" : ": " + message));
}

void pg_connection::wait_socket(bool for_write, clock::time_point deadline) {
    pollfd fd{PQsocket(conn_), static_cast<short>(POLLIN | (for_write ? POLLOUT : 0)), 0};
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now()).count();
        if (left <= 0) {
            broken_ = true;  // the server may still be working on it: this connection is not reusable
            throw storage_unavailable("PostgreSQL did not answer in time");
        }
        const int n = ::poll(&fd, 1, static_cast<int>(left));
        if (n > 0) {
            return;
        }
        if (n < 0 && errno != EINTR) {
            lost("poll failed");
        }
    }
}

const char* pg_connection::prepared_name(std::string_view sql, const pg_params& params, PGresult*& failed) {
    if (const auto known = prepared_.find(sql); known != prepared_.end()) {
        return known->second.c_str();
    }
    if (prepared_.size() >= max_prepared) {
        return nullptr;
    }
    auto name = "s" + std::to_string(prepared_.size());
    const std::string text(sql);
    if (!PQsendPrepare(conn_, name.c_str(), text.c_str(), static_cast<int>(params.values_.size()), nullptr)) {
        lost("send failed");
    }
    result_ptr prepared(finish());
    if (PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) {
        failed =
            prepared.release();  // the statement's answer (a lock wait's timeout, an aborted transaction)
        return nullptr;
    }
    return prepared_.emplace(text, std::move(name)).first->second.c_str();
}

void pg_connection::send_with_next(std::string sql) {
    if (!unsent_.empty()) {
        throw std::logic_error("pg_connection: one statement at a time goes with the next");
    }
    unsent_ = std::move(sql);
}

bool pg_connection::drop_unsent() {
    const bool had = !unsent_.empty();
    unsent_.clear();
    return had;
}

PGresult* pg_connection::run_queued_alone() {
    auto queued = std::exchange(unsent_, {});  // not carried by the BEGIN: it goes after it
    if (std::exchange(begin_pending_, false)) {
        result_ptr begun(run("BEGIN", {}, pg_plan::per_run));
        if (PQresultStatus(begun.get()) != PGRES_COMMAND_OK) {
            return begun.release();
        }
    }
    if (!queued.empty()) {
        result_ptr alone(run(queued, {}, pg_plan::per_run));
        if (PQresultStatus(alone.get()) != PGRES_COMMAND_OK) {
            return alone.release();
        }
    }
    return nullptr;
}

PGresult* pg_connection::run(std::string_view sql, const pg_params& params, pg_plan plan) {
    if (!healthy()) {
        lost("connection is broken");
    }
    if (!unsent_.empty() && plan == pg_plan::kept && prepared_.find(sql) == prepared_.end()) {
        // Preparing is a round trip of its own, which must not come before the queued statements (a failed
        // prepare would abort the transaction before its savepoint): those go first, alone.
        if (PGresult* failed = run_queued_alone()) {
            return failed;
        }
    }
    const auto count = params.values_.size();
    std::vector<const char*> values(count);
    std::vector<int> lengths(count);
    for (std::size_t i = 0; i < count; ++i) {
        values[i] = params.nulls_[i] ? nullptr : params.values_[i].c_str();
        lengths[i] = static_cast<int>(params.values_[i].size());
    }
    const int n = static_cast<int>(count);
    PGresult* failed = nullptr;
    const char* name = plan == pg_plan::kept ? prepared_name(sql, params, failed) : nullptr;
    if (failed != nullptr) {
        return failed;
    }
    // Queued statements go in the same round trip (libpq's pipeline mode): one write, one round trip.
    int carried = 0;
    const auto carry = [&](const std::string& queued) {
        if ((carried == 0 && PQenterPipelineMode(conn_) != 1) ||
            !PQsendQueryParams(conn_, queued.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0)) {
            lost("send failed");
        }
        ++carried;
    };
    if (std::exchange(begin_pending_, false)) {
        carry("BEGIN");
    }
    if (!unsent_.empty()) {
        carry(std::exchange(unsent_, {}));
    }
    const int sent = [&] {
        if (name != nullptr) {
            return PQsendQueryPrepared(
                conn_, name, n, values.data(), lengths.data(), params.formats_.data(), 0
            );
        }
        const std::string text(sql);
        return PQsendQueryParams(
            conn_, text.c_str(), n, nullptr, values.data(), lengths.data(), params.formats_.data(), 0
        );
    }();
    if (!sent) {
        lost("send failed");
    }
    if (carried == 0) {
        return finish();
    }
    if (PQpipelineSync(conn_) != 1) {
        lost("send failed");
    }
    return finish_pipeline(carried);
}

void pg_connection::flush(clock::time_point deadline) {
    for (;;) {
        const int flushed = PQflush(conn_);
        if (flushed == 0) {
            break;
        }
        if (flushed < 0) {
            lost("send failed");
        }
        wait_socket(true, deadline);
        if (!PQconsumeInput(conn_)) {
            lost("connection lost");
        }
    }
}

PGresult* pg_connection::next_result(clock::time_point deadline) {
    while (PQisBusy(conn_)) {
        wait_socket(false, deadline);
        if (!PQconsumeInput(conn_)) {
            lost("connection lost");
        }
    }
    return PQgetResult(conn_);
}

PGresult* pg_connection::first_result_of_query(clock::time_point deadline) {
    result_ptr first;
    while (PGresult* r = next_result(deadline)) {
        if (!first) {
            first.reset(r);
        } else {
            PQclear(r);
        }
    }
    if (!first || PQstatus(conn_) != CONNECTION_OK) {
        lost("connection lost");
    }
    return first.release();
}

PGresult* pg_connection::finish() {
    const auto deadline = clock::now() + limits_.statement_timeout + std::chrono::seconds(2);
    flush(deadline);
    return first_result_of_query(deadline);
}

PGresult* pg_connection::finish_pipeline(int carried) {
    // The queued statements' results, the statement's (PGRES_PIPELINE_ABORTED after a failure), then the
    // sync; the first failure is the answer.
    const auto deadline = clock::now() + limits_.statement_timeout + std::chrono::seconds(2);
    flush(deadline);
    result_ptr failure;
    for (int i = 0; i < carried; ++i) {
        result_ptr queued(first_result_of_query(deadline));
        if (!failure && PQresultStatus(queued.get()) != PGRES_COMMAND_OK) {
            failure = std::move(queued);
        }
    }
    result_ptr statement(first_result_of_query(deadline));
    const result_ptr sync(next_result(deadline));
    if (!sync || PQresultStatus(sync.get()) != PGRES_PIPELINE_SYNC || PQexitPipelineMode(conn_) != 1) {
        lost("connection lost");
    }
    return failure ? failure.release() : statement.release();
}

pg_violation pg_connection::exec_or_violation(
    std::string_view sql, const pg_params& params, pg_rows* rows, pg_plan plan
) {
    result_ptr r(run(sql, params, plan));
    const auto status = PQresultStatus(r.get());
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
        if (rows) {
            *rows = pg_rows(r.release());
        }
        return pg_violation::none;
    }
    const std::string state = field(r.get(), PG_DIAG_SQLSTATE);
    if (state == "23505") {
        return pg_violation::unique;
    }
    if (state == "23503") {
        return pg_violation::foreign_key;
    }
    // The primary message only: the detail line may quote row values (e-mails).
    const std::string message = field(r.get(), PG_DIAG_MESSAGE_PRIMARY);
    if (is_unavailable_state(state)) {
        if (state.starts_with("08") || state.starts_with("57P")) {
            broken_ = true;
        }
        throw storage_unavailable("PostgreSQL " + state + ": " + message);
    }
    throw pg_error("PostgreSQL " + state + ": " + message, state);
}

pg_rows pg_connection::exec(std::string_view sql, const pg_params& params, pg_plan plan) {
    pg_rows rows;
    if (exec_or_violation(sql, params, &rows, plan) != pg_violation::none) {
        throw pg_error("constraint violation", "23");
    }
    return rows;
}

bool pg_connection::still_open() {
    if (!healthy()) {
        return false;
    }
    pollfd fd{PQsocket(conn_), POLLIN, 0};
    if (::poll(&fd, 1, 0) > 0) {
        if (!PQconsumeInput(conn_)) {
            broken_ = true;
            return false;
        }
        while (PGnotify* n = PQnotifies(conn_)) {
            PQfreemem(n);
        }
    }
    return healthy();
}

void pg_connection::wait_for_notifications(
    std::chrono::milliseconds timeout, std::vector<notification>& received
) {
    if (!healthy()) {
        lost("connection is broken");
    }
    const auto collect = [&] {
        while (PGnotify* n = PQnotifies(conn_)) {
            received.push_back({n->relname, n->extra != nullptr ? n->extra : ""});
            PQfreemem(n);
        }
    };
    if (!PQconsumeInput(conn_)) {
        lost("connection lost");
    }
    collect();
    if (!received.empty()) {
        return;
    }
    pollfd fd{PQsocket(conn_), POLLIN, 0};
    const int n = ::poll(&fd, 1, static_cast<int>(timeout.count()));
    if (n > 0) {
        if (!PQconsumeInput(conn_) || PQstatus(conn_) != CONNECTION_OK) {
            lost("connection lost");
        }
        collect();
    } else if (n < 0 && errno != EINTR) {
        lost("poll failed");
    }
}

void pg_connection::begin() {
    if (begin_pending_) {
        throw std::logic_error("pg_connection: a transaction is open already");
    }
    begin_pending_ = true;
}

void pg_connection::commit() {
    if (std::exchange(begin_pending_, false)) {
        return;  // no statement ran: there is nothing to commit
    }
    (void)exec("COMMIT");
}

// A failure here marks the connection broken, and the pool drops it.
void pg_connection::rollback() {
    if (std::exchange(begin_pending_, false)) {
        return;  // never sent
    }
    if (healthy()) {
        (void)exec("ROLLBACK");
    }
}

}  // namespace storefront::storage::detail
