#pragma once
// The transaction of every durable backend: begun when constructed, rolled back when it ends without
// commit(). The connection supplies begin(…), commit() and rollback() (so the SQL stays in its .cpp) and
// befriends this class, the only caller.

namespace storefront::storage::detail {

template <class Connection>
class scoped_transaction {
  public:
    // `how` is passed on to Connection::begin (SQLite: immediate or deferred).
    template <class... How>
    explicit scoped_transaction(Connection& conn, How... how) : conn_(conn) {
        conn_.begin(how...);
    }
    ~scoped_transaction() {
        if (!done_) {
            try {
                conn_.rollback();
            } catch (...) {  // nothing more to do: the connection reports the next error itself
            }
        }
    }
    scoped_transaction(const scoped_transaction&) = delete;
    scoped_transaction& operator=(const scoped_transaction&) = delete;

    void commit() {
        conn_.commit();
        done_ = true;
    }

  private:
    Connection& conn_;
    bool done_ = false;
};

}  // namespace storefront::storage::detail
