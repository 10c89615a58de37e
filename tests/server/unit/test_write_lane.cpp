// The write lane (issue 21, group commit): writes queued while the writer thread is busy share the next
// transaction, each gets its own answer (or its own exception), a commit that fails answers every write of
// its batch with the failure, writes of different stores never share a batch, and a full queue refuses at
// once.

#include <atomic>
#include <chrono>
#include <future>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/test/unit_test.hpp>

#include "server/services/write_lane.hpp"
#include "storage/write_batch.hpp"

namespace asio = boost::asio;
using storefront::server::offload_rejected;
using storefront::server::write_lane;
using storefront::storage::write_batch;

namespace {

// A database as the batch sees it: writes join the batch's transaction, which commits or rolls back.
class fake_database final : public write_batch::member {
  public:
    // Inside the writer thread's batch (throws, as an adapter would fail, when there is none to join).
    void write(int value) {
        auto* batch = write_batch::open_on_this_thread();
        if (batch == nullptr || !batch->join(*this)) {
            throw std::logic_error("not inside a batch of this database");
        }
        pending_.push_back(value);
    }
    void commit() override {
        if (fail_commits) {
            throw std::runtime_error("disk full");
        }
        durable.insert(durable.end(), pending_.begin(), pending_.end());
        pending_.clear();
        ++commits;
    }
    void roll_back() noexcept override {
        pending_.clear();
        ++roll_backs;
    }

    std::atomic<bool> fail_commits{false};
    std::vector<int> durable;  // read once the io_context has finished
    int commits = 0;
    int roll_backs = 0;

  private:
    std::vector<int> pending_;
};

// Holds the writer thread in its first write until released, so that the writes after it queue up.
struct gate {
    std::promise<void> opened;
    std::shared_future<void> open = opened.get_future().share();
    std::atomic<bool> entered{false};

    // Waits (bounded) until the writer thread is held here.
    void wait_entered() const {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!entered && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        BOOST_TEST_REQUIRE(entered.load());
    }
};

// Waits (bounded) until `lane` holds `n` writes queued or running.
void wait_for_queued(const write_lane& lane, std::size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (lane.queued() < n && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    BOOST_TEST_REQUIRE(lane.queued() == n);
}

// An io_context run by its own thread until its work is done.
struct io_thread {
    asio::io_context io;
    asio::executor_work_guard<asio::io_context::executor_type> busy = asio::make_work_guard(io);
    std::thread runner{[this] { io.run(); }};
    ~io_thread() {
        busy.reset();
        runner.join();
    }
};

// Queues one write of `value` to `db` (under the stores `key`) and returns its answer's future: value * 10,
// or what the write or its batch threw. `hold` keeps the writer thread in this write until it opens.
std::future<int> queue_write(
    io_thread& t,
    write_lane& lane,
    const void* key,
    fake_database& db,
    int value,
    std::atomic<int>& afters,
    gate* hold = nullptr
) {
    return asio::co_spawn(
        t.io,
        [&lane, key, &db, value, &afters, hold]() -> asio::awaitable<int> {
            const auto call = [&db, value, hold] {
                if (hold != nullptr) {
                    hold->entered = true;
                    hold->open.wait();
                }
                if (value < 0) {
                    throw std::invalid_argument("refused");
                }
                db.write(value);
                return value * 10;
            };
            const auto after = [&afters]() noexcept { afters.fetch_add(1); };
            co_return co_await lane.run(key, call, after);
        },
        asio::use_future
    );
}

// A lane, two databases behind it, and the io_context whose coroutines await their writes.
struct held_lane {
    explicit held_lane(std::size_t max_queued = 64, std::size_t writers = 1) : lane(max_queued, writers) {}
    // A case that failed before open() must not leave the writer thread held (the io thread would wait).
    ~held_lane() {
        if (!opened) {
            open();
        }
    }
    held_lane(const held_lane&) = delete;
    held_lane& operator=(const held_lane&) = delete;

    // Queues `values` (the first to `db`, held in the writer thread until `hold` opens; each later one to
    // `other` when `to_other(value)`, else to `db`), waits until they are all queued, and returns each
    // write's future answer.
    template <class ToOther>
    std::vector<std::future<int>> hold_then_queue(const std::vector<int>& values, ToOther to_other) {
        std::vector<std::future<int>> answers;
        answers.push_back(queue_write(*io, lane, &key, db, values.front(), afters, &hold));
        hold.wait_entered();
        for (std::size_t i = 1; i < values.size(); ++i) {
            const bool elsewhere = to_other(values[i]);
            answers.push_back(queue_write(
                *io, lane, elsewhere ? &other_key : &key, elsewhere ? other : db, values[i], afters
            ));
        }
        wait_for_queued(lane, values.size());
        return answers;
    }
    std::vector<std::future<int>> hold_then_queue(const std::vector<int>& values) {
        return hold_then_queue(values, [](int) { return false; });
    }
    // Lets the held write go; the caller then reads the answers.
    void open() {
        opened = true;
        hold.opened.set_value();
    }
    // Waits until the io_context has delivered every answer (then the databases may be read).
    void finish() { io.reset(); }

    write_lane lane;
    fake_database db;
    fake_database other;
    std::atomic<int> afters{0};
    gate hold;
    const int key = 0;
    const int other_key = 0;
    bool opened = false;
    std::optional<io_thread> io{std::in_place};
};

struct small_lane : held_lane {
    small_lane() : held_lane(2) {}
};

struct two_writer_lane : held_lane {
    two_writer_lane() : held_lane(64, 2) {}
};

}  // namespace

BOOST_AUTO_TEST_SUITE(write_lane_batches)

BOOST_FIXTURE_TEST_CASE(writes_queued_together_share_one_commit_and_each_gets_its_own_answer, held_lane) {
    std::vector<int> values(20);
    std::iota(values.begin(), values.end(), 0);
    auto answers = hold_then_queue(values);
    open();
    for (int i = 0; i < 20; ++i) {
        BOOST_TEST(answers[i].get() == i * 10);
    }
    finish();
    BOOST_TEST(lane.batches() == 2U);  // the held write alone, then the 19 queued behind it together
    BOOST_TEST(lane.writes() == 20U);
    BOOST_TEST(db.commits == 2);
    BOOST_TEST(db.durable.size() == 20U);
    // The held write's batch left its after-commit step to the 19 waiting behind it; theirs all ran.
    BOOST_TEST(afters.load() == 19);
    BOOST_TEST(lane.queued() == 0U);
}

BOOST_FIXTURE_TEST_CASE(an_exception_of_one_write_reaches_only_its_own_caller, held_lane) {
    auto answers = hold_then_queue({1, -1, 3});  // -1 throws
    open();
    BOOST_TEST(answers[0].get() == 10);
    BOOST_CHECK_THROW(answers[1].get(), std::invalid_argument);
    BOOST_TEST(answers[2].get() == 30);
    finish();
    BOOST_TEST(db.durable == (std::vector<int>{1, 3}), boost::test_tools::per_element());
    BOOST_TEST(afters.load() == 1);  // 3's; 1's batch left it to theirs, the refused write has none
}

BOOST_FIXTURE_TEST_CASE(a_commit_that_fails_answers_every_write_of_its_batch_with_the_failure, held_lane) {
    auto answers = hold_then_queue({1, 2, 3, 4, 5});
    db.fail_commits = true;
    open();
    for (auto& answer : answers) {
        BOOST_CHECK_THROW(answer.get(), std::runtime_error);  // "disk full": never acknowledged
    }
    finish();
    BOOST_TEST(db.durable.empty());
    BOOST_TEST(db.roll_backs == 2);
    BOOST_TEST(afters.load() == 0);
}

BOOST_FIXTURE_TEST_CASE(writes_of_different_stores_never_share_a_batch, held_lane) {
    // 0 held, then other, db, other, db: a batch joining both databases would throw in write()
    auto answers = hold_then_queue({0, 1, 2, 3, 4}, [](int v) { return v % 2 == 1; });
    open();
    for (int i = 0; i <= 4; ++i) {
        BOOST_TEST(answers[i].get() == i * 10);
    }
    finish();
    BOOST_TEST(lane.batches() == 3U);  // the held one, then other's two together, then db's two together
    BOOST_TEST(db.commits == 2);
    BOOST_TEST(other.commits == 1);
    BOOST_TEST(other.durable == (std::vector<int>{1, 3}), boost::test_tools::per_element());
    // Only writes of the same stores stand in for a batch's after-commit steps: the held write's batch left
    // its step to db's two waiting behind it; other's batch ran its two although db's writes waited.
    BOOST_TEST(afters.load() == 4);
}

BOOST_FIXTURE_TEST_CASE(a_full_queue_refuses_at_once, small_lane) {
    auto answers = hold_then_queue({1, 2});
    auto third = queue_write(*io, lane, &key, db, 3, afters);
    BOOST_CHECK_THROW(third.get(), offload_rejected);  // answered while the first still holds the writer
    open();
    BOOST_TEST(answers[0].get() == 10);
    BOOST_TEST(answers[1].get() == 20);
    finish();
    BOOST_TEST(lane.rejected() == 1U);
    BOOST_TEST(db.durable.size() == 2U);
}

// PostgreSQL's lane has several writer threads: while one is held in a batch, another takes the writes
// queued meanwhile (here of other stores) and answers them.
BOOST_FIXTURE_TEST_CASE(
    a_second_writer_thread_answers_while_the_first_is_held_in_its_batch, two_writer_lane
) {
    auto held = queue_write(*io, lane, &key, db, 1, afters, &hold);
    hold.wait_entered();
    auto free = queue_write(*io, lane, &other_key, other, 2, afters);
    BOOST_TEST_REQUIRE((free.wait_for(std::chrono::seconds(5)) == std::future_status::ready));
    BOOST_TEST(free.get() == 20);
    BOOST_TEST((held.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout));
    open();
    BOOST_TEST(held.get() == 10);
    finish();
    BOOST_TEST(lane.batches() == 2U);
    BOOST_TEST(other.durable == std::vector<int>{2}, boost::test_tools::per_element());
    BOOST_TEST(db.durable == std::vector<int>{1}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
