// The request inspector's records shared by the instances of one PostgreSQL (see request_recorder.hpp): each
// record is appended to the change feed's log under the data set "requests:<sandbox>" (its NOTIFY tells
// every instance), trimmed to the last `capacity`, listed from there; a stream on any instance is fed the
// records stored after the newest it knew of when it started.

#include <exception>
#include <string>

#include "server/services/request_recorder.hpp"

namespace storefront::server {

namespace {

constexpr std::string_view data_set_prefix = "requests:";
constexpr std::string_view record_type = "request";
// The log is trimmed every this many appends, so a sandbox keeps at most capacity + trim_every - 1 rows
// (the lists show the newest `capacity`) at one statement more per trim_every records.
constexpr std::uint64_t trim_every = 16;

}  // namespace

std::string shared_data_set(std::string_view sandbox) {
    return std::string(data_set_prefix).append(sandbox);
}

void request_logs::share_through(std::unique_ptr<storage::event_log> log) {
    shared_ = std::move(log);
    shared_->on_append([this](std::optional<std::string_view> data_set) { heard(data_set); });
}

void request_logs::forget_idle_shared(std::int64_t idle_before_ms) {
    if (shared_) {
        shared_->forget_idle(data_set_prefix, idle_before_ms);
    }
}

void request_logs::add_shared(std::string_view sandbox, const request_record& r) {
    const std::string data_set = shared_data_set(sandbox);
    const auto stored = shared_->append(data_set, record_type, record_json(r), std::nullopt, r.at_ms);
    if (stored.id % trim_every == 0) {
        shared_->trim(data_set, capacity_);
    }
}

std::string request_logs::newest_shared_json(std::string_view sandbox, std::size_t limit) const {
    const auto records = shared_->after(shared_data_set(sandbox), 0, limit);  // oldest first
    std::string out = "[";
    for (auto it = records.rbegin(); it != records.rend(); ++it) {
        if (it != records.rbegin()) {
            out.push_back(',');
        }
        out.append(it->data);
    }
    out.push_back(']');
    return out;
}

void request_logs::prime(std::string_view sandbox, request_log& log) {
    if (log.shared_seen() != 0) {
        return;  // a stream of this instance already follows the sandbox
    }
    const auto newest = shared_->after(shared_data_set(sandbox), 0, 1);
    if (!newest.empty()) {
        log.see(newest.back().id);
    }
}

// On the listener thread: one append on some instance (its data set), or nullopt when some may have been
// missed. Only sandboxes this instance has streams of are read.
void request_logs::heard(std::optional<std::string_view> data_set) {
    if (data_set && !data_set->starts_with(data_set_prefix)) {
        return;  // a change feed's append
    }
    std::vector<std::pair<std::string, std::shared_ptr<request_log>>> due;
    {
        std::lock_guard lock(mutex_);
        if (data_set) {
            const auto found = logs_.find(data_set->substr(data_set_prefix.size()));
            if (found != logs_.end()) {
                due.emplace_back(found->first, found->second.log);
            }
        } else {
            for (const auto& [sandbox, e] : logs_) {
                due.emplace_back(sandbox, e.log);
            }
        }
    }
    for (const auto& [sandbox, log] : due) {
        if (!log->followed()) {
            continue;
        }
        try {
            relay_new(sandbox, *log);
        } catch (const std::exception&) {  // the database is down: the next notification catches up
        }
    }
}

void request_logs::relay_new(std::string_view sandbox, request_log& log) {
    const std::string data_set = shared_data_set(sandbox);
    auto fresh = shared_->after(data_set, log.shared_seen(), capacity_);
    if (fresh.empty() && log.shared_seen() != 0) {
        // Cleared (DELETE /requests starts the numbering again): what came since is all there is.
        const auto newest = shared_->after(data_set, 0, 1);
        if (!newest.empty() && newest.back().id < log.shared_seen()) {
            fresh = shared_->after(data_set, 0, capacity_);
        }
    }
    for (auto& record : fresh) {
        log.relay(std::make_shared<const std::string>(std::move(record.data)));
    }
    if (!fresh.empty()) {
        log.see(fresh.back().id);
    }
}

}  // namespace storefront::server
