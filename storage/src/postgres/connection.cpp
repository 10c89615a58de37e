// RAII over libpq: connections with client-side deadlines (non-blocking sockets and poll), typed parameters
// and columns, SQLSTATE classification, transactions.

#include "postgres/connection.hpp"

#include <charconv>
#include <cstring>
#include <libpq-fe.h>
#include <poll.h>
#include <stdexcept>
#include <utility>

#include "postgres/result_ptr.hpp"
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

pg_violation pg_connection::exec_or_violation(
    std::string_view sql, const pg_params& params, pg_rows* rows, pg_plan plan
) {
    bool queued_failed = false;
    PGresult* result = run(sql, params, plan, &queued_failed);  // before queued_failed is read
    return classify(result, rows, queued_failed);
}

pg_violation pg_connection::classify(PGresult* result, pg_rows* rows, bool queued_failed) {
    result_ptr r(result);
    if (succeeded(r.get())) {
        if (rows) {
            *rows = pg_rows(r.release());
        }
        return pg_violation::none;
    }
    const std::string state = field(r.get(), PG_DIAG_SQLSTATE);
    if (state == "23505" && !queued_failed) {
        return pg_violation::unique;
    }
    if (state == "23503" && !queued_failed) {
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
    if (in_transaction_) {
        throw std::logic_error("pg_connection: a transaction is open already");
    }
    in_transaction_ = true;
    queued_.insert(queued_.begin(), queued_statement{queued_statement::role::begin, "BEGIN", {}});
}

void pg_connection::commit() {
    const bool nothing_ran =
        !queued_.empty() && queued_.front().what == queued_statement::role::begin && queued_.size() == 1;
    in_transaction_ = false;
    if (nothing_ran) {
        queued_.clear();  // no statement ran: there is nothing to commit
        return;
    }
    (void)exec("COMMIT");  // with what exec_later queued
}

// A failure here marks the connection broken, and the pool drops it.
void pg_connection::rollback() {
    in_transaction_ = false;
    const bool never_begun = !queued_.empty() && queued_.front().what == queued_statement::role::begin;
    queued_.clear();  // nothing queued goes out now
    if (!never_begun && healthy()) {
        (void)exec("ROLLBACK");
    }
}

}  // namespace storefront::storage::detail
