#pragma once
// The one exception a durable adapter throws when its backend cannot be reached or answered in time (a
// PostgreSQL server that is down, a SQLite file that is locked past the busy timeout, a full disk). The
// server answers 503 with Retry-After and the request changes nothing; expected outcomes stay result<T>.

#include <stdexcept>
#include <string>

namespace storefront::storage {

class storage_unavailable : public std::runtime_error {
  public:
    // `what` is for the log only (never sent to clients); it must not contain credentials.
    explicit storage_unavailable(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace storefront::storage
