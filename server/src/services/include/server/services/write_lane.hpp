#pragma once
// Writes that share one commit without a thread per waiting write (issue 21, group commit). An I/O thread
// queues a write here and awaits it; a writer thread takes the queued writes of one view's stores (at most
// max_batch), runs them one after another inside one storage::write_batch, commits once, runs each write's
// after-commit step (patching cached lists; left to the next batch when writes of the same stores wait) and
// posts each answer back to its coroutine's executor. A write so costs a queue push and a post, where the
// offload pool cost a pool thread's sleep and wake-up per write waiting for a shared commit. SQLite has one
// writer thread (its writes go through its one write connection anyway); PostgreSQL several, each batch on
// a connection of its own, so that its backends parse and index in parallel while the writes waiting
// meanwhile gather into the next batches. The memory backend's writes run inline.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/services/blocking_offload.hpp"

namespace storefront::server {

class write_lane {
  public:
    // At most this many writes share one batch (one transaction), so a batch cannot hold the database long.
    static constexpr std::size_t max_batch = 128;

    // Starts `writers` writer threads (at least one). At most `max_queued` writes waiting or running; more
    // are refused.
    explicit write_lane(std::size_t max_queued, std::size_t writers = 1);
    // stop()
    ~write_lane();
    write_lane(const write_lane&) = delete;
    write_lane& operator=(const write_lane&) = delete;

    // Runs `call()` (blocking storage writes of the stores `stores` names) in a batch with other writes of
    // the same stores, then, once the batch has committed, `after()` (a refresh of caches that their readers
    // would otherwise make: it is skipped when more writes of the same stores already wait, whose batch runs
    // its own); resumes with what `call` answered.
    // Throws what `call` threw, the batch's commit failure (then no write of the batch stands, whatever
    // `call` answered), or offload_rejected when the queue is full (without running `call`).
    template <class Call, class After>
    boost::asio::awaitable<std::invoke_result_t<Call&>> run(const void* stores, Call call, After after);

    // Whether one writer thread runs every batch (SQLite): batches then never hold row locks at once.
    [[nodiscard]] bool one_writer() const noexcept { return writers_.size() == 1; }
    [[nodiscard]] std::size_t queued() const { return counted(&write_lane::waiting_); }
    [[nodiscard]] std::size_t rejected() const { return counted(&write_lane::rejected_); }
    // Batches run so far (each one transaction, committed or failed), and the writes they carried.
    [[nodiscard]] std::size_t batches() const { return counted(&write_lane::batches_); }
    [[nodiscard]] std::size_t writes() const { return counted(&write_lane::writes_); }

    // Finishes the queued writes and ends the writer threads; later writes must not be made.
    void stop();

  private:
    // One queued write, typed by the awaiting coroutine; the writer thread sees only this.
    class write {
      public:
        explicit write(const void* stores) : stores(stores) {}
        virtual ~write() = default;
        write(const write&) = delete;
        write& operator=(const write&) = delete;
        virtual void run() noexcept = 0;                         // inside the batch
        virtual void fail(std::exception_ptr why) noexcept = 0;  // the batch did not commit
        virtual void committed() noexcept = 0;                   // the batch committed: after()
        virtual void answer() noexcept = 0;                      // posts the answer back and deletes this
        const void* const stores;
    };
    template <class Call, class After, class Handler>
    class typed_write;

    // Queues `w`, or, when max_queued writes already wait or run, answers it at once with offload_rejected.
    // One locked step, so that queued() never counts a write the writer threads cannot take yet.
    void submit(write* w);
    void serve();
    [[nodiscard]] std::vector<write*> take_batch();  // under mutex_
    void run_batch(const std::vector<write*>& batch);
    [[nodiscard]] bool writes_waiting_for(const void* stores) const;  // queued writes of `stores`?
    // One of the counters below, read under mutex_.
    [[nodiscard]] std::size_t counted(std::size_t write_lane::*counter) const;

    std::size_t max_queued_;
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<write*> queue_;
    std::size_t waiting_ = 0;  // queued or running, bounded by max_queued_
    std::size_t rejected_ = 0;
    std::size_t batches_ = 0;
    std::size_t writes_ = 0;
    std::size_t idle_ = 0;   // writer threads waiting on ready_
    std::size_t woken_ = 0;  // of them, woken by a submit and not yet running: later submits wake another
    bool stopping_ = false;
    std::vector<std::thread> writers_;
};

template <class Call, class After, class Handler>
class write_lane::typed_write final : public write_lane::write {
  public:
    using answer_type = std::invoke_result_t<Call&>;

    typed_write(const void* stores, Call& call, After& after, Handler handler)
        : write(stores),
          call_(call),
          after_(after),
          handler_(std::move(handler)),
          // Tracked work: the coroutine's io_context keeps running until the answer is posted.
          work_(boost::asio::prefer(
              boost::asio::get_associated_executor(handler_), boost::asio::execution::outstanding_work.tracked
          )) {}

    void run() noexcept override {
        try {
            answer_.emplace(call_());
        } catch (...) {
            failure_ = std::current_exception();
        }
    }
    void fail(std::exception_ptr why) noexcept override {
        answer_.reset();
        if (!failure_) {
            failure_ = std::move(why);
        }
    }
    void committed() noexcept override {
        if (!failure_) {
            after_();
        }
    }
    void answer() noexcept override {
        auto work = std::move(work_);
        // The failure moves with the answer: the writer thread keeps no reference to an exception that an
        // I/O thread reads and frees (libstdc++ counts those references where ThreadSanitizer cannot see).
        boost::asio::post(
            work,
            [resume = std::move(handler_), why = std::move(failure_), answer = std::move(answer_)]() mutable {
                std::move(resume)(std::move(why), std::move(answer));
            }
        );
        delete this;
    }

  private:
    Call& call_;    // in the awaiting coroutine's frame, which lives until the answer arrives
    After& after_;  // likewise
    Handler handler_;
    std::decay_t<decltype(boost::asio::prefer(
        boost::asio::get_associated_executor(std::declval<Handler&>()),
        boost::asio::execution::outstanding_work.tracked
    ))>
        work_;
    std::optional<answer_type> answer_;
    std::exception_ptr failure_;
};

template <class Call, class After>
boost::asio::awaitable<std::invoke_result_t<Call&>> write_lane::run(
    const void* stores, Call call, After after
) {
    // GCC 12 may destroy a temporary passed to a coroutine twice (bug 99576): calls capture by reference.
    static_assert(std::is_trivially_destructible_v<Call>, "capture by reference ([&]) in storage calls");
    static_assert(std::is_trivially_destructible_v<After>, "capture by reference in after-commit steps");
    static_assert(noexcept(after()), "an after-commit step must not throw: the write has committed");
    using answer_type = std::invoke_result_t<Call&>;
    static_assert(!std::is_void_v<answer_type>, "a write answers a result");
    auto initiate = [this, stores, &call, &after](auto handler) {
        submit(new typed_write<Call, After, decltype(handler)>(stores, call, after, std::move(handler)));
    };
    // Named locals into co_await, not temporaries: GCC 12 destroys those twice (bug 99576).
    auto answered = boost::asio::async_initiate<
        const boost::asio::use_awaitable_t<>,
        void(std::exception_ptr, std::optional<answer_type>)>(
        std::move(initiate), boost::asio::use_awaitable
    );
    std::optional<answer_type> answer = co_await std::move(answered);
    co_return std::move(*answer);
}

}  // namespace storefront::server
