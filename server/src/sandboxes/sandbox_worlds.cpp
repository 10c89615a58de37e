// sandbox_worlds: the sandbox views, their cache, reset, POST /sandboxes and the purge thread.

#include "server/sandboxes/sandbox_worlds.hpp"

#include <algorithm>
#include <ctime>
#include <exception>
#include <limits>
#include <utility>

#include "server/api/store/order_expiry.hpp"
#include "server/codec/json_writer.hpp"
#include "server/ops/metrics.hpp"
#include "server/routing/error_responses.hpp"
#include "server/telemetry/log.hpp"
#include "storage/storage_error.hpp"

namespace storefront::server {

namespace {

using system_clock = std::chrono::system_clock;

// Sandboxes with data kept open at once when closing loses nothing: each holds database connections (two
// per SQLite file, two per PostgreSQL schema with its LISTEN connection), so PostgreSQL's max_connections
// bounds it there.
std::size_t open_capacity_of(const storage::storage_config& shared, bool durable) {
    if (!durable) {
        return std::numeric_limits<std::size_t>::max();  // memory: the data lives in the open stores
    }
    return storage::kind_of(shared.backend) == storage::backend_kind::postgresql ? 16 : 64;
}

// `t` as ISO-8601 UTC with seconds ("2026-11-24T21:00:00Z").
std::string iso_utc(system_clock::time_point t) {
    const std::time_t seconds = system_clock::to_time_t(t);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    (void)std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

// 507 in the shape of the request's surface.
response quota_full(error_style errors, std::string_view message) {
    metrics().sandbox_quota_refused();
    return errors == error_style::petstore ? pet_error(http::status::insufficient_storage, message)
                                           : http_error(http::status::insufficient_storage, message);
}

// A storage failure's answer in the shape of the request's surface.
response storage_failed(error_style errors, boost::system::error_code code) {
    return errors == error_style::petstore ? pet_error_response(code) : error_response(code);
}

// The kinds of rows --sandbox-rows limits (route.hpp's row_kind but none), each counted by its store.
constexpr row_kind every_row_kind[] = {
    row_kind::product,
    row_kind::category,
    row_kind::user,
    row_kind::pet,
    row_kind::order,
    row_kind::pet_user,
    row_kind::cart,
    row_kind::shop_order,
    row_kind::payment};

// How many rows of `kind` `stores` hold (blocking; the catalogue and users through their cached lists).
std::size_t rows_of(row_kind kind, store_set& stores) {
    switch (kind) {
        case row_kind::product:
            return stores.product_json.current()->size();
        case row_kind::category:
            return stores.category_json.current()->size();
        case row_kind::user:
            return stores.user_json.current()->size();
        case row_kind::pet:
            return stores.pets->count();
        case row_kind::order:
            return stores.orders->count();
        case row_kind::pet_user:
            return stores.pet_users->count();
        case row_kind::cart:
            return stores.shop->count_carts();
        case row_kind::shop_order:
            return stores.shop->count_orders();
        case row_kind::payment:
            return stores.shop->count_payments();
        case row_kind::none:
            break;
    }
    return 0;
}

// The rows of `kind` `stores` added beyond the seed's `seed` (deletes of seed rows count as nothing added).
std::size_t added(row_kind kind, store_set& stores, const row_counts& seed) {
    const std::size_t now = rows_of(kind, stores);
    const std::size_t seeded = seed.of[static_cast<std::size_t>(kind)];
    return now > seeded ? now - seeded : 0;
}

// Every counted row `stores` added beyond the seed (blocking).
std::size_t rows_added(store_set& stores, const row_counts& seed) {
    std::size_t total = 0;
    for (const row_kind kind : every_row_kind) {
        total += added(kind, stores, seed);
    }
    return total;
}

}  // namespace

// One sandbox's world, as dispatch sees it.
class sandbox_worlds::view final : public sandbox_view {
  public:
    view(std::shared_ptr<store_world> world, const sandbox_tables& tables)
        : world_(std::move(world)), tables_(tables) {}

    std::optional<void*> services_for(const route_table* table) const override {
        if (table == tables_.store) {
            return &world_->store();
        }
        if (table == tables_.pets) {
            return &world_->pets();
        }
        if (table == tables_.graphql) {
            return &world_->graphql();
        }
        if (table == tables_.docs) {
            return nullptr;
        }
        return std::nullopt;
    }
    const access_services& access() const override { return world_->access(); }
    store_set& stores() const { return world_->stores(); }
    event_hub* events() const { return world_->events(); }

  private:
    std::shared_ptr<store_world> world_;
    sandbox_tables tables_;
};

struct sandbox_worlds::entry {
    std::shared_ptr<const view> world;
    std::int64_t generation = -1;  // the registry's; -1: no data of its own (reads the pristine seed)
    std::uint64_t seen_revision = 0;
    std::chrono::steady_clock::time_point last_used;
    bool used_since_touch = false;
};

sandbox_worlds::sandbox_worlds(const sandbox_setup& setup)
    : config_(setup.config),
      commons_(setup.commons),
      tokens_(setup.tokens),
      pet_tokens_(setup.pet_tokens),
      tables_(setup.tables),
      registry_(storage::make_sandbox_store(setup.shared)),
      pristine_(std::make_shared<store_set>(storage::storage_config{}, setup.commons)),
      open_capacity_(open_capacity_of(setup.shared, registry_->durable())) {
    pristine_->warm();
    for (const row_kind kind : every_row_kind) {
        seed_rows_.of[static_cast<std::size_t>(kind)] = rows_of(kind, *pristine_);
    }
    // Often enough that a sandbox expires within about a tenth of its TTL, at most once a minute.
    const auto interval = std::clamp<std::chrono::milliseconds>(
        std::chrono::duration_cast<std::chrono::milliseconds>(config_.ttl) / 10,
        std::chrono::milliseconds(200),
        std::chrono::minutes(1)
    );
    purge_ = std::make_unique<periodic_task>("sandbox_purge", interval, [this] { purge_now(); });
}

sandbox_worlds::~sandbox_worlds() = default;

std::shared_ptr<const sandbox_worlds::view> sandbox_worlds::make_view(
    const std::string& id, std::shared_ptr<store_set> stores
) const {
    core::token_settings tokens = tokens_;
    tokens.access_secret = core::sandbox_secret(tokens_.access_secret, id);
    tokens.refresh_secret = core::sandbox_secret(tokens_.refresh_secret, id);
    core::pet_token_settings pet_tokens = pet_tokens_;
    pet_tokens.secret = core::sandbox_secret(pet_tokens_.secret, id);
    auto world =
        std::make_shared<store_world>(std::move(stores), commons_, tokens, pet_tokens, "/sandbox/" + id);
    return std::make_shared<const view>(std::move(world), tables_);
}

storage::storage_config sandbox_worlds::own_config(const std::string& id) const {
    auto config = registry_->config_for(id);
    config.seed_read_only = false;  // copy-on-write: the sandbox's copy of the seed is its own
    return config;
}

std::optional<sandbox_worlds::view_ptr> sandbox_worlds::cached(const std::string& id, bool for_write) {
    const std::uint64_t revision = registry_->revision();
    std::lock_guard lock(map_mutex_);
    const auto found = entries_.find(id);
    if (found == entries_.end()) {
        return std::nullopt;
    }
    entry& e = found->second;
    if (e.seen_revision != revision || (for_write && e.generation < 0)) {
        return std::nullopt;
    }
    e.last_used = std::chrono::steady_clock::now();
    e.used_since_touch = e.generation >= 0;
    return e.world;
}

boost::asio::awaitable<or_response<sandbox_worlds::view_ptr>> sandbox_worlds::open(
    std::string_view id, bool for_write, error_style errors
) {
    std::string key(id);
    if (auto hit = cached(key, for_write)) {
        co_return std::move(*hit);
    }
    co_return co_await commons_.storage.run([this, &key, for_write, errors] {
        return load(key, for_write, errors);
    });
}

or_response<sandbox_worlds::view_ptr> sandbox_worlds::load(
    const std::string& id, bool for_write, error_style errors
) {
    std::lock_guard build(build_mutex_);
    const std::uint64_t revision = registry_->revision();  // before the lookup: a later change is seen later
    auto found = registry_->find(id);
    if (!found) {
        return storage_failed(errors, found.error());
    }
    std::optional<storage::sandbox_record> record = std::move(*found);
    if (!record && for_write) {
        auto created = registry_->create(id, config_.max_live, system_clock::now());
        if (!created) {
            if (created.error() == core::errc::storage_full) {
                return quota_full(
                    errors,
                    "This server holds as many sandboxes as it may (--sandbox-max); reuse one of yours, "
                    "delete one (DELETE /sandbox/{id}) or wait until idle ones expire"
                );
            }
            return storage_failed(errors, created.error());
        }
        record = std::move(*created);
    }
    const std::int64_t generation = record ? record->generation : -1;
    std::shared_ptr<const view> world;
    {
        std::lock_guard lock(map_mutex_);
        const auto known = entries_.find(id);
        if (known != entries_.end() && known->second.generation == generation) {
            world = known->second.world;  // the same life of the sandbox: keep its open stores
        }
    }
    if (!world) {
        if (record) {
            auto own = std::make_shared<store_set>(own_config(id), commons_);
            own->logins.inherit(*pristine_->sessions);  // logins made before the first write stay
            world = make_view(id, std::move(own));
        } else {
            world = make_view(id, pristine_);
        }
    }
    {
        std::lock_guard lock(map_mutex_);
        entry& e = entries_[id];
        e.world = world;
        e.generation = generation;
        e.seen_revision = revision;
        e.last_used = std::chrono::steady_clock::now();
        e.used_since_touch = generation >= 0;
    }
    evict_beyond_capacity();
    return view_ptr(world);
}

void sandbox_worlds::evict_beyond_capacity() {
    // Sandboxes without data cost a view each: keep at most as many as may hold data, and the open ones
    // with data within open_capacity_ (only when closing them loses nothing).
    std::lock_guard lock(map_mutex_);
    const auto over = [&](bool with_data) {
        std::size_t n = 0;
        for (const auto& [id, e] : entries_) {
            n += (e.generation >= 0) == with_data ? 1 : 0;
        }
        return n > (with_data ? open_capacity_ : config_.max_live);
    };
    for (const bool with_data : {true, false}) {
        if (with_data && !registry_->durable()) {
            continue;
        }
        while (over(with_data)) {
            auto oldest = entries_.end();
            for (auto it = entries_.begin(); it != entries_.end(); ++it) {
                if ((it->second.generation >= 0) == with_data &&
                    (oldest == entries_.end() || it->second.last_used < oldest->second.last_used)) {
                    oldest = it;
                }
            }
            entries_.erase(oldest);
        }
    }
}

void sandbox_worlds::remove(const std::string& id) {
    std::weak_ptr<const view> closing;
    {
        std::lock_guard lock(map_mutex_);
        const auto found = entries_.find(id);
        if (found != entries_.end()) {
            closing = found->second.world;
            entries_.erase(found);
        }
    }
    if (registry_->durable()) {
        // Requests still in this sandbox finish on its old stores before its files go: a write acknowledged
        // after the delete began would otherwise land in a file about to be unlinked.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!closing.expired() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    }
    auto removed = registry_->remove(id);
    if (commons_.events != nullptr) {
        commons_.events->drop(id);  // its streams end; a new stream starts a new feed
    }
    if (commons_.inspector != nullptr) {
        commons_.inspector->drop(id);  // its records go with it, its inspector streams end
    }
    if (!removed) {
        throw storage::storage_unavailable("cannot remove sandbox: " + removed.error().message());
    }
}

boost::asio::awaitable<std::optional<response>> sandbox_worlds::admit_write(
    const sandbox_view& entered, row_kind kind, error_style errors
) {
    if (kind == row_kind::none) {
        co_return std::nullopt;
    }
    store_set& stores = static_cast<const view&>(entered).stores();
    const std::size_t rows = co_await commons_.storage.run([&] { return added(kind, stores, seed_rows_); });
    if (rows >= config_.max_rows) {
        co_return quota_full(
            errors,
            "This sandbox has added as many rows of this kind as it may (--sandbox-rows " +
                std::to_string(config_.max_rows) + "); delete some, or reset it with DELETE /sandbox/{id}"
        );
    }
    co_return std::nullopt;
}

boost::asio::awaitable<response> sandbox_worlds::reset(std::string_view id) {
    std::string key(id);
    // A storage failure or a full pool leaves through dispatch's one try (routing/request_finish.cpp's
    // failure_answer): 503 with Retry-After, as for any request.
    co_await commons_.storage.run([this, &key] {
        std::lock_guard build(build_mutex_);
        remove(key);
    });
    response r;
    r.status = http::status::no_content;
    co_return r;
}

boost::asio::awaitable<response> sandbox_worlds::create() {
    const std::string id = core::random_sandbox_id();
    const std::string base = commons_.public_url + "/sandbox/" + id;
    std::string out;
    json_writer(out)
        .begin_object()
        .key("id")
        .value(id)
        .key("apiBase")
        .value(base + "/api/v1")
        .key("petBase")
        .value(base + "/api/v3")
        .key("expiresAt")
        .value(iso_utc(system_clock::now() + config_.ttl))
        .end_object();
    co_return json_response(http::status::created, std::move(out));
}

void sandbox_worlds::forget_cached_lists() {
    pristine_->forget_cached_lists();
    std::lock_guard lock(map_mutex_);
    entries_.clear();  // reopened with fresh lists on their next request
}

void sandbox_worlds::purge_now() {
    std::lock_guard build(build_mutex_);
    // Uses recorded since the last pass reach the registry (the TTL counts from the last use).
    std::vector<std::pair<std::string, system_clock::time_point>> used;
    std::vector<std::shared_ptr<const view>> open_with_data;
    {
        std::lock_guard lock(map_mutex_);
        const auto steady_now = std::chrono::steady_clock::now();
        const auto system_now = system_clock::now();
        for (auto& [id, e] : entries_) {
            if (e.generation >= 0) {
                open_with_data.push_back(e.world);
            }
            if (e.used_since_touch) {
                used.emplace_back(id, system_now - (steady_now - e.last_used));
                e.used_since_touch = false;
            }
        }
    }
    for (const auto& [id, when] : used) {
        (void)registry_->touch(id, when);
    }
    auto idle = registry_->idle_since(system_clock::now() - config_.ttl, 100);
    if (idle) {
        for (const auto& id : *idle) {
            remove(id);
            log_event("info", "sandbox_expired", {field("sandbox", id)});
        }
    }
    std::vector<std::size_t> rows;
    rows.reserve(open_with_data.size());
    const auto now_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(system_clock::now().time_since_epoch()).count();
    for (const auto& world : open_with_data) {
        rows.push_back(rows_added(world->stores(), seed_rows_));
        // The shop's housekeeping in each open sandbox: unpaid orders past --order-ttl expire, told to the
        // sandbox's feed (a request paying or cancelling one past its time expires it too), old
        // Idempotency-Keys go.
        (void)expire_due_orders(*world->stores().shop, world->events(), now_ms);
        (void)world->stores().shop->purge_keys(now_ms);
    }
    metrics().sandbox_rows(rows);
    if (auto live = registry_->count()) {
        metrics().sandboxes_live(*live);
    }
}

}  // namespace storefront::server
