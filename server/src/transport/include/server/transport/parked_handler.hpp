#pragma once
// A coroutine's completion handler kept until something on its I/O thread resumes it (a stream's wait, a
// batched send). Move-only; asio's any_completion_handler of Boost 1.81 recurses without end when moved from
// an lvalue, so a small holder of our own.

#include <memory>
#include <type_traits>
#include <utility>

namespace storefront::server {

template <typename... Args>
class parked_handler {
  public:
    template <typename Handler>
    void park(Handler&& h) {
        held_ = std::make_unique<holder<std::decay_t<Handler>>>(std::forward<Handler>(h));
    }
    explicit operator bool() const { return held_ != nullptr; }
    // Resumes the coroutine now, on this thread; it runs until it suspends again.
    void resume(Args... args) { std::exchange(held_, nullptr)->resume(std::move(args)...); }
    void drop() { held_.reset(); }

  private:
    struct base {
        virtual ~base() = default;
        virtual void resume(Args... args) = 0;
    };
    template <typename Handler>
    struct holder final : base {
        explicit holder(Handler&& h) : handler(std::move(h)) {}
        void resume(Args... args) override { std::move(handler)(std::move(args)...); }
        Handler handler;
    };
    std::unique_ptr<base> held_;
};

}  // namespace storefront::server
