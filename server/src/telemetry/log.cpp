// JSON-lines logger. Each thread buffers its lines in order: access-log lines ("request") stay there until
// the flusher thread writes them, every 100 ms or as soon as 32 KiB have gathered (as nginx's `access_log
// ... buffer= flush=`), because a write(2) per request cost more than building the answer; any other event
// is written at once, together with the lines its thread logged before it. A flush writes whole lines
// under one lock, so lines from several threads never interleave. Lines still buffered are written at exit.
// I/O threads never write access lines themselves: a log reader that stalls (a full journald pipe, a disk
// under writeback) blocks the flusher only, and once it is max_pending behind, access lines are dropped
// and counted (a warning says how many) instead of stalling every connection.

#include "server/telemetry/log.hpp"

#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "core/flat_json.hpp"
#include "server/codec/json_writer.hpp"
#include "server/telemetry/thread_name.hpp"

namespace storefront::server {

namespace {

constexpr std::size_t flush_bytes = 32 * 1024;
constexpr std::size_t max_pending = 8 * 1024 * 1024;  // per thread
constexpr auto flush_interval = std::chrono::milliseconds(100);

void write_all(const std::string& bytes) {
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, data, left);
        if (n <= 0) {
            return;  // a closed stdout must not take the server down
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
}

// The lines one thread has logged and not yet written. Its mutex is contended only by the flusher, so
// I/O threads never wait for each other to log; flush() writes under one process-wide lock.
class line_buffer {
  public:
    enum class added { kept, filled, dropped };

    // Appends one line. `now` (an event) writes everything this thread buffered at once; an access line
    // waits for the flusher, and answers `filled` when it brought the buffer to flush_bytes (wake the
    // flusher) or `dropped` when the buffer is already max_pending long.
    added add(const std::string& line, bool now) {
        std::unique_lock lock(lines_mutex_);
        if (!now && pending_.size() >= max_pending) {
            return added::dropped;
        }
        const bool was_short = pending_.size() < flush_bytes;
        pending_ += line;
        if (now) {
            write_out(lock);
            return added::kept;
        }
        return was_short && pending_.size() >= flush_bytes ? added::filled : added::kept;
    }

    void flush() {
        std::unique_lock lock(lines_mutex_);
        write_out(lock);
    }

  private:
    // Swaps the lines out and writes them outside this buffer's lock, under the write lock, taken first
    // so this thread's lines keep their order.
    void write_out(std::unique_lock<std::mutex>& lock) {
        static auto* const write_mutex = new std::mutex;  // never destroyed, like the buffers
        lock.unlock();
        const std::lock_guard writing(*write_mutex);
        lock.lock();
        writing_.swap(pending_);
        lock.unlock();
        if (!writing_.empty()) {
            write_all(writing_);
            writing_.clear();
        }
    }

    std::mutex lines_mutex_;
    std::string pending_;
    std::string writing_;  // only touched under the write lock
};

// Every thread's buffer, and the thread that flushes them every flush_interval. Never destroyed: the
// flusher and I/O threads may still log while the process exits.
class line_buffers {
  public:
    static line_buffers& instance() {
        static auto* const buffers = new line_buffers;
        return *buffers;
    }

    // Adds `line` to this thread's buffer (see line_buffer::add), waking the flusher when it is full.
    void add(const std::string& line, bool now) {
        switch (mine().add(line, now)) {
            case line_buffer::added::kept:
                break;
            case line_buffer::added::filled:
                wake_flusher();
                break;
            case line_buffer::added::dropped:
                dropped_.fetch_add(1, std::memory_order_relaxed);
                break;
        }
    }

    // Lines dropped since the last call.
    std::uint64_t take_dropped() { return dropped_.exchange(0, std::memory_order_relaxed); }

    // This thread's buffer, made on its first line; written and dropped when the thread ends.
    line_buffer& mine() {
        struct owned {
            line_buffer* buffer = nullptr;
            ~owned() {
                if (buffer != nullptr) {
                    instance().retire(buffer);
                }
            }
        };
        thread_local owned own;
        if (own.buffer == nullptr) {
            own.buffer = new line_buffer;
            const std::lock_guard lock(registry_mutex_);
            all_.push_back(own.buffer);
            if (!flusher_started_) {
                flusher_started_ = true;
                std::thread([this] {
                    name_this_thread("sf-log");
                    flush_periodically();
                }).detach();
                std::atexit([] { instance().flush_all(); });
            }
        }
        return *own.buffer;
    }

    // Under the registry lock, so no buffer is retired while it is written.
    void flush_all() {
        const std::lock_guard lock(registry_mutex_);
        for (line_buffer* b : all_) {
            b->flush();
        }
    }

  private:
    void retire(line_buffer* buffer) {
        const std::lock_guard lock(registry_mutex_);
        buffer->flush();
        std::erase(all_, buffer);
        delete buffer;
    }

    void wake_flusher() {
        {
            const std::lock_guard lock(wake_mutex_);
            wake_requested_ = true;
        }
        wake_.notify_one();
    }

    [[noreturn]] void flush_periodically();

    std::mutex registry_mutex_;
    std::vector<line_buffer*> all_;
    bool flusher_started_ = false;
    std::mutex wake_mutex_;
    std::condition_variable wake_;
    bool wake_requested_ = false;
    std::atomic<std::uint64_t> dropped_{0};
};

// -1: no instance configured. Relaxed is enough: set before the I/O threads start.
std::atomic<long long> log_instance{-1};

void append_decimal(std::string& out, long long n) {
    std::array<char, 24> digits{};
    const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), n);
    out.append(digits.data(), end);
}

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void emit(std::string_view level, std::string_view event, std::initializer_list<log_field> fields) {
    thread_local std::string line;
    line.clear();
    json_writer w(line);
    w.begin_object()
        .key("ts")
        .value(iso8601_ms(now_ms()))
        .key("level")
        .value(level)
        .key("event")
        .value(event);
    if (const long long instance = log_instance.load(std::memory_order_relaxed); instance >= 0) {
        w.key("instance").value(static_cast<std::int64_t>(instance));
    }
    for (const auto& f : fields) {
        w.key(f.name);
        if (f.is_number) {
            w.value(static_cast<std::int64_t>(f.number));
        } else {
            w.value(f.text);
        }
    }
    w.end_object();
    line += '\n';
    line_buffers::instance().add(line, true);
}

void line_buffers::flush_periodically() {
    for (;;) {
        {
            std::unique_lock lock(wake_mutex_);
            wake_.wait_for(lock, flush_interval, [this] { return wake_requested_; });
            wake_requested_ = false;
        }
        flush_all();
        if (const auto dropped = take_dropped(); dropped > 0) {
            emit("warning", "access_log_lines_dropped", {field("lines", static_cast<long long>(dropped))});
        }
    }
}

}  // namespace

void log_event(std::string_view level, std::string_view event, std::initializer_list<log_field> fields) {
    emit(level, event, fields);
}

void flush_log() {
    line_buffers::instance().flush_all();
}

void set_log_instance(unsigned n) {
    log_instance.store(n, std::memory_order_relaxed);
}

void log_request(const access_entry& entry) {
    // The same line log_event would write, with its constant parts written as they are: one per request.
    thread_local std::string line;
    line.assign(R"({"ts":")");
    line += iso8601_ms(now_ms());
    line += R"(","level":"info","event":"request")";
    if (const long long instance = log_instance.load(std::memory_order_relaxed); instance >= 0) {
        line += R"(,"instance":)";
        append_decimal(line, instance);
    }
    line += R"(,"method":)";
    core::append_json_string(line, entry.method);
    line += R"(,"path":)";
    core::append_json_string(line, entry.path);
    line += R"(,"status":)";
    append_decimal(line, entry.status);
    line += R"(,"duration_us":)";
    append_decimal(line, entry.duration.count());
    line += R"(,"client":)";
    core::append_json_string(line, entry.client);
    if (!entry.sandbox.empty()) {
        line += R"(,"sandbox":)";
        core::append_json_string(line, entry.sandbox);
    }
    line += "}\n";
    line_buffers::instance().add(line, false);
}

}  // namespace storefront::server
