// make_event_log: the change feed's shared history where instances share a database (PostgreSQL); none
// for the backends that serve one process.

#include "storage/event_log.hpp"

#ifdef STOREFRONT_WITH_POSTGRES
#include "postgres/stores.hpp"
#endif

namespace storefront::storage {

std::unique_ptr<event_log> make_event_log(const storage_config& config) {
#ifdef STOREFRONT_WITH_POSTGRES
    if (kind_of(config.backend) == backend_kind::postgresql) {
        return make_pg_event_log(config);
    }
#endif
    (void)config;
    return nullptr;
}

}  // namespace storefront::storage
