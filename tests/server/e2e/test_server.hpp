#pragma once
// The real server, in process, on 127.0.0.1 with a free port, shared by the end-to-end tests.
// Secrets are fixed here so tests can also forge expired or mis-signed tokens.

#include <cstdint>
#include <functional>
#include <memory>

#include "server/composition_root.hpp"
#include "server/ops/server_config.hpp"
#include "server/transport/http_server.hpp"

namespace storefront::test {

inline constexpr const char* test_access_secret = "test-access-secret-0123456789abcdef";
inline constexpr const char* test_refresh_secret = "test-refresh-secret-0123456789abcdef";
inline constexpr const char* test_pet_secret = "test-pet-token-secret-0123456789abcdef";

// A configuration for tests: port 0, two I/O threads, no access log, small limits where tests probe them.
server::server_config test_config();

class running_server {
  public:
    explicit running_server(server::server_config config);
    ~running_server();
    [[nodiscard]] std::uint16_t port() const { return server_->port(); }
    server::http_server& server() { return *server_; }
    server::composition_root& app() { return *app_; }

  private:
    server::server_config config_;
    std::unique_ptr<server::composition_root> app_;
    std::unique_ptr<server::http_server> server_;
};

// The shared instance, started on first use.
running_server& shared_server();

// Runs `stop` when the test run ends (a global fixture's teardown), before static destruction: a server kept
// in a static until then would otherwise still run its I/O threads while the program's other statics (e.g.
// core's field-name tables, which those threads read) are destroyed, which ThreadSanitizer reports as a race.
void stop_when_the_run_ends(std::function<void()> stop);

}  // namespace storefront::test
