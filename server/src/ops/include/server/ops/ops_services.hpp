#pragma once
// What the operational routes (/healthz, /readyz, /metrics) use: the serving state, the shared readiness
// check and what it calls, and the offload pools and write lane whose depths /metrics reports.

#include "server/ops/readiness.hpp"
#include "server/ops/serving_state.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/services/password_worker.hpp"
#include "server/services/write_lane.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::server {

struct ops_services {
    serving_state& state;  // started / draining, as main sets it
    storage_readiness& readiness;
    storage::catalogue_store& catalogue;  // what the readiness check reads
    blocking_offload& storage;
    password_worker& passwords;
    const write_lane* writes = nullptr;  // shared commits of SQLite and PostgreSQL (nullptr on memory)
};

}  // namespace storefront::server
