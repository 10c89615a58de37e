// login_brake: two maps of key -> (failures, in flight, paused until, last failure) under one mutex.

#include "server/services/login_brake.hpp"

#include <algorithm>
#include <atomic>

namespace storefront::server {

namespace {

// Process-wide, like the metrics that read them (login_brake::counted).
std::atomic<std::uint64_t> refused_total{0};
std::atomic<std::uint64_t> failed_total{0};

// The kept state of `key` with one of its logins finished (no longer in flight); nullptr when `key` is
// empty or not kept (pruned, or never admitted).
template <class Table>
typename Table::mapped_type* finish_login(Table& keys, std::string_view key) {
    if (key.empty()) {
        return nullptr;
    }
    const auto it = keys.find(std::string(key));
    if (it == keys.end()) {
        return nullptr;
    }
    auto& state = it->second;
    state.in_flight -= state.in_flight > 0 ? 1 : 0;
    return &state;
}

}  // namespace

login_brake::totals login_brake::counted() noexcept {
    return {refused_total.load(std::memory_order_relaxed), failed_total.load(std::memory_order_relaxed)};
}

login_brake::login_brake(login_brake_settings settings) : settings_(settings) {}

std::int64_t login_brake::now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch()
    )
        .count();
}

std::int64_t login_brake::wait_of(key_state& state, std::uint32_t free_failures, std::int64_t now) const {
    if (state.failures > 0 && now - state.last_failure >= settings_.forget_after.count()) {
        state.failures = 0;  // quiet long enough: forgotten
        state.paused_until = 0;
    }
    if (now < state.paused_until) {
        return state.paused_until - now;
    }
    // Within the free budget, attempts in flight count as failures to come; beyond it, one at a time.
    const bool over = state.failures >= free_failures;
    if ((over && state.in_flight > 0) || (!over && state.failures + state.in_flight >= free_failures)) {
        return 1000;
    }
    return 0;
}

void login_brake::fail(key_state& state, std::uint32_t free_failures, std::int64_t now) const {
    ++state.failures;
    state.last_failure = now;
    if (state.failures >= free_failures) {
        const std::uint32_t doublings = std::min<std::uint32_t>(state.failures - free_failures, 20);
        const std::int64_t pause =
            std::min<std::int64_t>(settings_.first_pause.count() << doublings, settings_.max_pause.count());
        state.paused_until = now + pause;
    }
}

void login_brake::prune(table& keys, std::int64_t now) const {
    if (keys.size() < max_keys) {
        return;
    }
    std::erase_if(keys, [now](const auto& entry) {
        return entry.second.in_flight == 0 && entry.second.paused_until <= now;
    });
}

login_brake::verdict login_brake::admit(std::string_view account, std::string_view client, std::int64_t now) {
    std::lock_guard lock(mutex_);
    std::int64_t wait = 0;
    key_state* a = nullptr;
    key_state* c = nullptr;
    if (!account.empty()) {
        prune(accounts_, now);
        a = &accounts_[std::string(account)];
        wait = std::max(wait, wait_of(*a, settings_.account_free_failures, now));
    }
    if (!client.empty()) {
        prune(clients_, now);
        c = &clients_[std::string(client)];
        wait = std::max(wait, wait_of(*c, settings_.client_free_failures, now));
    }
    if (wait > 0) {
        refused_total.fetch_add(1, std::memory_order_relaxed);
        return {false, static_cast<std::uint32_t>((wait + 999) / 1000)};
    }
    if (a != nullptr) {
        ++a->in_flight;
    }
    if (c != nullptr) {
        ++c->in_flight;
    }
    return {true, 0};
}

void login_brake::settle(
    std::string_view account, std::string_view client, outcome result, std::int64_t now
) {
    if (result == outcome::failure) {
        failed_total.fetch_add(1, std::memory_order_relaxed);
    }
    std::lock_guard lock(mutex_);
    if (key_state* state = finish_login(accounts_, account)) {
        if (result == outcome::failure) {
            fail(*state, settings_.account_free_failures, now);
        } else if (result == outcome::success) {
            state->failures = 0;
            state->paused_until = 0;
        }
    }
    // A success resets the account's failures only; the client's stay counted.
    if (key_state* state = finish_login(clients_, client); state != nullptr && result == outcome::failure) {
        fail(*state, settings_.client_free_failures, now);
    }
}

}  // namespace storefront::server
