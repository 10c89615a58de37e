// pg_server: databases created through libpq on the TEST_PG_DSN server, and the server stopped and started.

#include "common/pg_server.hpp"

#include <cstdlib>
#include <libpq-fe.h>
#include <memory>
#include <stdexcept>

#include <unistd.h>

namespace storefront::test {

namespace {

struct conn_deleter {
    void operator()(PGconn* c) const { PQfinish(c); }
};
using conn_ptr = std::unique_ptr<PGconn, conn_deleter>;

conn_ptr connect(const std::string& dsn) {
    conn_ptr conn(PQconnectdb(dsn.c_str()));
    if (!conn || PQstatus(conn.get()) != CONNECTION_OK) {
        throw std::runtime_error(
            std::string("test database: ") + (conn ? PQerrorMessage(conn.get()) : "no memory")
        );
    }
    return conn;
}

std::string quoted(const std::string& value) {
    std::string out = "'";
    for (const char c : value) {
        if (c == '\'' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "'";
}

// TEST_PG_DSN with another database name, as a key=value string (the factory accepts both forms).
std::string with_database(const std::string& dsn, const std::string& database) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &error);
    if (!options) {
        std::string message = error ? error : "no memory";
        PQfreemem(error);
        throw std::runtime_error("TEST_PG_DSN: " + message);
    }
    std::string out;
    for (auto* o = options; o->keyword; ++o) {
        if (o->val && *o->val && std::string(o->keyword) != "dbname") {
            out += std::string(o->keyword) + "=" + quoted(o->val) + " ";
        }
    }
    PQconninfoFree(options);
    return out + "dbname=" + quoted(database);
}

}  // namespace

std::string create_test_database() {
    const char* server = std::getenv("TEST_PG_DSN");
    if (!server) {
        throw std::runtime_error("TEST_PG_DSN is unset");
    }
    static int counter = 0;
    const std::string name =
        "storefront_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
    run_sql(server, "CREATE DATABASE " + name);
    return with_database(server, name);
}

void run_sql(const std::string& dsn, const std::string& sql) {
    (void)query_value(dsn, sql);
}

std::optional<std::string> query_value(const std::string& dsn, const std::string& sql) {
    const auto conn = connect(dsn);
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn.get(), sql.c_str()), PQclear);
    const auto status = PQresultStatus(r.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        throw std::runtime_error("test SQL failed: " + std::string(PQresultErrorMessage(r.get())));
    }
    if (status != PGRES_TUPLES_OK || PQntuples(r.get()) == 0) {
        return std::nullopt;
    }
    return std::string(PQgetvalue(r.get(), 0, 0));
}

open_transaction::open_transaction(const std::string& dsn, const std::string& sql)
    : conn_(connect(dsn).release()) {
    auto* conn = static_cast<PGconn*>(conn_);
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn, ("BEGIN; " + sql).c_str()), PQclear);
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) {
        const std::string message = PQresultErrorMessage(r.get());
        PQfinish(conn);
        throw std::runtime_error("test SQL failed: " + message);
    }
}

open_transaction::~open_transaction() {
    PQfinish(static_cast<PGconn*>(conn_));
}

bool pg_ctl(const char* action) {
    const char* cmd = std::getenv("TEST_PG_CTL_CMD");
    return cmd && std::system((std::string(cmd) + " " + action + " >/dev/null 2>&1").c_str()) == 0;
}

restart_guard::~restart_guard() {
    if (stopped) {
        (void)pg_ctl("start");
    }
}

}  // namespace storefront::test
