#pragma once
// Command-line flags and STOREFRONT_<NAME> environment variables -> server_config (flags win).

#include <optional>
#include <string>

#include "server/ops/server_config.hpp"

namespace storefront::server {

struct parsed_config {
    std::optional<server_config> config;  // empty when help or the version was asked for or input was bad
    std::string message;                  // help text, "storefront <version>" or the error
    int exit_code = 0;                    // 0 for help and version, 2 for bad input
};

// Reads the process environment for STOREFRONT_<NAME> (e.g. STOREFRONT_ACCESS_SECRET for --access-secret).
[[nodiscard]] parsed_config parse_config(int argc, const char* const argv[]);

}  // namespace storefront::server
