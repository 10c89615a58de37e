// Recognising a --storage value, and printing it without the credentials a connection string may hold.

#include "storage/storage_config.hpp"

namespace storefront::storage {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

bool is_postgresql_url(std::string_view backend) {
    return starts_with(backend, "postgresql://") || starts_with(backend, "postgres://");
}

}  // namespace

std::optional<backend_kind> kind_of(std::string_view backend) {
    if (backend == "memory") {
        return backend_kind::memory;
    }
    if (starts_with(backend, "sqlite:") && backend.size() > 7) {
        return backend_kind::sqlite;
    }
    if (is_postgresql_url(backend) || backend.find('=') != std::string_view::npos) {
        return backend_kind::postgresql;
    }
    return std::nullopt;
}

std::string redacted(std::string_view backend) {
    if (kind_of(backend) != backend_kind::postgresql) {
        return std::string(backend);
    }
    if (!is_postgresql_url(backend)) {
        return "postgresql (key=value connection string)";
    }
    // scheme://[user[:password]@]host[:port][/db][?params]: keep scheme, host, port and database.
    const auto scheme_end = backend.find("://") + 3;
    auto rest = backend.substr(scheme_end);
    rest = rest.substr(0, rest.find('?'));
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        rest = rest.substr(at + 1);
    }
    return std::string(backend.substr(0, scheme_end)) + std::string(rest);
}

}  // namespace storefront::storage
