#pragma once
// Everything the executable is configured with, parsed once from flags and STOREFRONT_* variables.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/auth_tokens.hpp"
#include "storage/storage_config.hpp"

namespace storefront::server {

struct limits_config {
    std::size_t header_limit = 8 * 1024;        // bytes of request line + headers
    std::size_t body_limit = 1024 * 1024;       // bytes of request body
    std::chrono::seconds read_timeout{30};      // per read of one request, including keep-alive idle time
    std::chrono::seconds write_timeout{30};     // per write of one response
    std::chrono::seconds shutdown_timeout{10};  // in-flight requests get this long after SIGTERM
    std::size_t hash_threads = 2;               // Argon2id workers (each ~19 MiB while hashing)
    std::size_t hash_queue = 64;                // waiting Argon2id jobs beyond this get 503
};

struct server_config {
    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;  // 0 = any free port (logged at start)
    std::size_t threads = 1;    // I/O threads, one io_context and acceptor each
    bool access_log = true;     // one JSON line per request on stdout
    bool secrets_generated = false;
    core::token_settings tokens;
    storage::storage_config storage;
    limits_config limits;
};

}  // namespace storefront::server
