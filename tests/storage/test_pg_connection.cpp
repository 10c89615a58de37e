// pg_connection's statement sent with the next one (a write's savepoint in the write's own round trip,
// libpq's pipeline mode): it takes effect before the statement, its failure is the statement's answer,
// a violation of the statement is still answered as one, and the connection stays usable afterwards. Then
// exec_later's statements nobody waits for: they run in order before the next statement or the COMMIT, a
// failure of one (a violation too) is thrown there, and a roll-back sends none of them.

#include <stdexcept>
#include <string>

#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "postgres/connection.hpp"

namespace detail = storefront::storage::detail;
using storefront::test::pg_backend;

namespace {

struct pg_table {
    detail::pg_connection conn{pg_backend::config().backend, detail::pg_limits{}};
    pg_table() { (void)conn.exec("CREATE TABLE t (k text PRIMARY KEY)"); }
    long long rows() { return conn.exec("SELECT count(*) FROM t").int64(0, 0); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(pg_connection_send_with_next)

BOOST_AUTO_TEST_CASE(the_queued_savepoint_is_made_before_the_statement_it_travels_with) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    detail::pg_transaction tx(db.conn);
    (void)db.conn.exec("INSERT INTO t VALUES ('kept')");
    db.conn.send_with_next("SAVEPOINT write");
    (void)db.conn.exec("INSERT INTO t VALUES ($1)", detail::pg_params().add("undone"));
    BOOST_TEST(!db.conn.drop_unsent());  // it went with the insert
    BOOST_TEST(db.rows() == 2);
    (void)db.conn.exec("ROLLBACK TO SAVEPOINT write");
    BOOST_TEST(db.rows() == 1);
    tx.commit();
    BOOST_TEST(db.rows() == 1);
}

BOOST_AUTO_TEST_CASE(a_violation_of_the_statement_is_answered_and_its_savepoint_undoes_it) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    detail::pg_transaction tx(db.conn);
    (void)db.conn.exec("INSERT INTO t VALUES ('a')");
    db.conn.send_with_next("SAVEPOINT write");
    const auto violation = db.conn.exec_or_violation(
        "INSERT INTO t VALUES ($1)", detail::pg_params().add("a"), nullptr, detail::pg_plan::kept
    );
    BOOST_TEST((violation == detail::pg_violation::unique));
    (void)db.conn.exec("ROLLBACK TO SAVEPOINT write");  // the transaction goes on
    (void)db.conn.exec("INSERT INTO t VALUES ('b')");
    tx.commit();
    BOOST_TEST(db.rows() == 2);
}

BOOST_AUTO_TEST_CASE(a_failing_queued_statement_is_the_answer_and_the_statement_does_not_run) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    {
        detail::pg_transaction tx(db.conn);
        BOOST_CHECK_THROW((void)db.conn.exec("SELECT 1/0"), detail::pg_error);  // aborts the transaction
        db.conn.send_with_next("SAVEPOINT write");
        try {
            (void)db.conn.exec("INSERT INTO t VALUES ($1)", detail::pg_params().add("never"));
            BOOST_FAIL("the insert ran in an aborted transaction");
        } catch (const detail::pg_error& e) {
            BOOST_TEST(e.sqlstate() == "25P02");  // the savepoint's failure: in failed transaction
        }
    }  // rolled back
    BOOST_TEST(db.conn.healthy());
    BOOST_TEST(db.rows() == 0);
    db.conn.send_with_next("SELECT 1");
    BOOST_TEST(db.conn.drop_unsent());  // not carried by anything yet
    BOOST_TEST(!db.conn.drop_unsent());
}

BOOST_AUTO_TEST_CASE(a_statement_prepared_on_its_first_run_still_runs_after_the_queued_one) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    detail::pg_transaction tx(db.conn);
    for (const char* key : {"first", "second"}) {  // prepared on the first run, by name on the second
        db.conn.send_with_next("SAVEPOINT write");
        (void)db.conn.exec("INSERT INTO t VALUES ($1)", detail::pg_params().add(key), detail::pg_plan::kept);
        (void)db.conn.exec("ROLLBACK TO SAVEPOINT write");
    }
    (void)db.conn.exec("INSERT INTO t VALUES ('third')");
    tx.commit();
    BOOST_TEST(db.rows() == 1);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pg_connection_exec_later)

BOOST_AUTO_TEST_CASE(queued_statements_run_in_order_before_the_next_one_and_hand_over_their_rows) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    detail::pg_transaction tx(db.conn);
    detail::pg_rows first;
    db.conn.exec_later("INSERT INTO t VALUES ($1)", detail::pg_params().add("a"), detail::pg_plan::kept);
    db.conn.exec_later("SELECT k FROM t ORDER BY k", {}, detail::pg_plan::per_run, &first);
    db.conn.exec_later("INSERT INTO t VALUES ($1)", detail::pg_params().add("b"), detail::pg_plan::kept);
    BOOST_TEST(first.size() == 0);  // nothing sent yet
    BOOST_TEST(db.rows() == 2);     // both inserts ran before the count
    BOOST_TEST(first.size() == 1);  // the read saw the first insert only
    BOOST_TEST(first.text(0, 0) == "a");
    db.conn.exec_later("INSERT INTO t VALUES ($1)", detail::pg_params().add("c"), detail::pg_plan::kept);
    tx.commit();  // carries the last insert
    BOOST_TEST(db.rows() == 3);
}

BOOST_AUTO_TEST_CASE(a_failing_queued_statement_is_thrown_by_the_next_even_a_violation) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    (void)db.conn.exec("INSERT INTO t VALUES ('taken')");
    {
        detail::pg_transaction tx(db.conn);
        db.conn.exec_later("INSERT INTO t VALUES ($1)", detail::pg_params().add("taken"));
        // The next statement would insert a new key: the queued one's violation is not its answer.
        BOOST_CHECK_THROW(
            (void
            )db.conn.exec_or_violation("INSERT INTO t VALUES ($1)", detail::pg_params().add("new"), nullptr),
            detail::pg_error
        );
    }  // rolled back
    BOOST_TEST(db.conn.healthy());
    BOOST_TEST(db.rows() == 1);
    {
        detail::pg_transaction tx(db.conn);
        db.conn.exec_later("INSERT INTO t VALUES ($1)", detail::pg_params().add("taken"));
        BOOST_CHECK_THROW(tx.commit(), detail::pg_error);  // the COMMIT carried it
    }
    BOOST_TEST(db.rows() == 1);
}

BOOST_AUTO_TEST_CASE(a_roll_back_sends_nothing_queued_and_send_queued_sends_it_now) {
    if (!pg_backend::available()) {
        return;
    }
    pg_table db;
    BOOST_CHECK_THROW(db.conn.exec_later("INSERT INTO t VALUES ('x')"), std::logic_error);  // no transaction
    {
        detail::pg_transaction tx(db.conn);
        (void)db.conn.exec("INSERT INTO t VALUES ('sent')");
        db.conn.exec_later("INSERT INTO t VALUES ('queued')");
    }  // rolled back: the queued insert never went out
    BOOST_TEST(db.rows() == 0);
    detail::pg_transaction tx(db.conn);
    db.conn.send_with_next("SAVEPOINT write");
    db.conn.exec_later("INSERT INTO t VALUES ('now')");
    db.conn.send_queued();
    BOOST_TEST(!db.conn.drop_unsent());  // the savepoint went with it
    (void)db.conn.exec("ROLLBACK TO SAVEPOINT write");
    BOOST_TEST(db.rows() == 0);
    db.conn.exec_later("INSERT INTO t VALUES ('kept')");
    db.conn.send_queued();
    tx.commit();
    BOOST_TEST(db.rows() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
