// pg_connection's round trips: a statement alone, or with what waits to go in front of it (a transaction's
// BEGIN, a write's SAVEPOINT, statements nobody waits for) in one libpq pipeline, where a statement kept
// prepared is prepared on its first run too. Fewer round trips are fewer sleeps and wake-ups on both sides
// (a checkout: 20 round trips to 11, 1.12x the checkouts per second; bench/RESULTS.md, session 30).

#include <algorithm>
#include <chrono>
#include <libpq-fe.h>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "postgres/connection.hpp"
#include "postgres/result_ptr.hpp"

namespace storefront::storage::detail {

void pg_connection::send_with_next(std::string sql) {
    for (const auto& q : queued_) {
        if (q.what == queued_statement::role::with_next) {
            throw std::logic_error("pg_connection: one statement at a time goes with the next");
        }
    }
    queued_.push_back({queued_statement::role::with_next, std::move(sql), {}});
}

bool pg_connection::drop_unsent() {
    bool had = false;
    std::erase_if(queued_, [&](const queued_statement& q) {
        had = had || q.what == queued_statement::role::with_next;
        return q.what != queued_statement::role::begin;
    });
    return had;
}

void pg_connection::exec_later(std::string_view sql, const pg_params& params, pg_plan plan, pg_rows* into) {
    if (!in_transaction_) {
        throw std::logic_error("pg_connection: exec_later outside a transaction");
    }
    queued_.push_back({queued_statement::role::later, std::string(sql), params, plan, into});
}

void pg_connection::send_queued() {
    const bool any_later = std::any_of(queued_.begin(), queued_.end(), [](const queued_statement& q) {
        return q.what == queued_statement::role::later;
    });
    if (!any_later) {
        return;
    }
    if (PGresult* failure = run_pipeline(nullptr, nullptr, pg_plan::per_run, nullptr)) {
        (void)classify(failure, nullptr, true);  // throws: a queued statement's failure is never answered
    }
}

void pg_connection::send_statement(std::string_view sql, const pg_params& params, const char* prepared_name) {
    const auto count = params.values_.size();
    std::vector<const char*> values(count);
    std::vector<int> lengths(count);
    for (std::size_t i = 0; i < count; ++i) {
        values[i] = params.nulls_[i] ? nullptr : params.values_[i].c_str();
        lengths[i] = static_cast<int>(params.values_[i].size());
    }
    const int n = static_cast<int>(count);
    const int sent =
        prepared_name != nullptr
            ? PQsendQueryPrepared(
                  conn_, prepared_name, n, values.data(), lengths.data(), params.formats_.data(), 0
              )
            : PQsendQueryParams(
                  conn_,
                  std::string(sql).c_str(),
                  n,
                  nullptr,
                  values.data(),
                  lengths.data(),
                  params.formats_.data(),
                  0
              );
    if (!sent) {
        lost("send failed");
    }
}

PGresult* pg_connection::run(
    std::string_view sql, const pg_params& params, pg_plan plan, bool* queued_failed
) {
    if (!healthy()) {
        lost("connection is broken");
    }
    const auto prepared = plan == pg_plan::kept ? prepared_.find(sql) : prepared_.end();
    const bool to_prepare =
        plan == pg_plan::kept && prepared == prepared_.end() && prepared_.size() < max_prepared;
    if (!queued_.empty() || to_prepare) {
        return run_pipeline(&sql, &params, plan, queued_failed);
    }
    send_statement(sql, params, prepared != prepared_.end() ? prepared->second.c_str() : nullptr);
    return finish();
}

PGresult* pg_connection::run_pipeline(
    const std::string_view* sql, const pg_params* params, pg_plan plan, bool* queued_failed
) {
    // One step per result the pipeline answers with: a prepare, a queued statement, the statement.
    struct step {
        enum class kind { prepare, queued, statement } what;
        std::string prepared_text;  // of a prepare: recorded once it succeeded
        std::string prepared_name;
        pg_rows* into = nullptr;
    };
    std::vector<step> steps;
    std::map<std::string, std::string, std::less<>> preparing;  // prepared in this pipeline
    const auto send = [&](std::string_view text, const pg_params& values_of, pg_plan how) {
        const char* name = nullptr;
        if (how == pg_plan::kept) {
            if (const auto known = prepared_.find(text); known != prepared_.end()) {
                name = known->second.c_str();
            } else if (const auto now = preparing.find(text); now != preparing.end()) {
                name = now->second.c_str();
            } else if (prepared_.size() + preparing.size() < max_prepared) {
                auto fresh = "s" + std::to_string(prepares_sent_++);
                const std::string owned(text);
                if (!PQsendPrepare(
                        conn_,
                        fresh.c_str(),
                        owned.c_str(),
                        static_cast<int>(values_of.values_.size()),
                        nullptr
                    )) {
                    lost("send failed");
                }
                name = preparing.emplace(owned, fresh).first->second.c_str();
                steps.push_back({step::kind::prepare, owned, std::move(fresh)});
            }
        }
        send_statement(text, values_of, name);
    };

    if (PQenterPipelineMode(conn_) != 1) {
        lost("send failed");
    }
    for (auto& q : std::exchange(queued_, {})) {
        send(q.sql, q.params, q.plan);
        steps.push_back({step::kind::queued, {}, {}, q.into});
    }
    if (sql != nullptr) {
        send(*sql, *params, plan);
        steps.push_back({step::kind::statement, {}, {}});
    }
    if (PQpipelineSync(conn_) != 1) {
        lost("send failed");
    }

    // Every step's result (PGRES_PIPELINE_ABORTED after a failure), then the sync; the first failure is
    // the answer.
    const auto deadline =
        std::chrono::steady_clock::now() + limits_.statement_timeout + std::chrono::seconds(2);
    flush(deadline);
    result_ptr failure;
    result_ptr answer;
    for (auto& s : steps) {
        result_ptr r(first_result_of_query(deadline));
        const bool ok = succeeded(r.get());
        if (ok && s.what == step::kind::prepare) {
            prepared_.emplace(std::move(s.prepared_text), std::move(s.prepared_name));
        }
        if (!ok && !failure) {
            if (queued_failed != nullptr) {
                *queued_failed = s.what == step::kind::queued;
            }
            failure = std::move(r);
            continue;
        }
        if (ok && s.what == step::kind::queued && s.into != nullptr) {
            *s.into = pg_rows(r.release());
        } else if (s.what == step::kind::statement) {
            answer = std::move(r);
        }
    }
    const result_ptr sync(next_result(deadline));
    if (!sync || PQresultStatus(sync.get()) != PGRES_PIPELINE_SYNC || PQexitPipelineMode(conn_) != 1) {
        lost("connection lost");
    }
    return failure ? failure.release() : answer.release();
}

}  // namespace storefront::storage::detail
