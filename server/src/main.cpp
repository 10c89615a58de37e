// The storefront executable: configuration, start-up (READY=1 to systemd), the drain on SIGTERM/SIGINT and a
// graceful stop.

#include <csignal>
#include <functional>
#include <iostream>
#include <memory>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "server/composition_root.hpp"
#include "server/ops/config_parser.hpp"
#include "server/ops/drain.hpp"
#include "server/ops/systemd_notify.hpp"
#include "server/ops/watchdog.hpp"
#include "server/telemetry/log.hpp"
#include "server/transport/http_server.hpp"
#include "storage/factory.hpp"

namespace {

using namespace storefront::server;

// WATCHDOG=1 pings tied to every I/O thread of both listeners, when systemd asks for them (WatchdogSec=).
std::unique_ptr<io_watchdog> start_watchdog(http_server& server, http_server* pet_server) {
    const auto timeout = watchdog_timeout();
    if (!timeout) {
        return nullptr;
    }
    std::vector<io_watchdog::thread_poster> threads;
    for (http_server* s : {&server, pet_server}) {
        for (std::size_t i = 0; s != nullptr && i < s->thread_count(); ++i) {
            threads.emplace_back([s, i](std::function<void()> probe) {
                s->post_to_thread(i, std::move(probe));
            });
        }
    }
    // Half the timeout between pings, as sd_watchdog_enabled(3) advises.
    auto watchdog = std::make_unique<io_watchdog>(std::move(threads), *timeout / 2, notify_watchdog);
    watchdog->start();
    return watchdog;
}

}  // namespace

int main(int argc, char* argv[]) {
    using namespace storefront::server;
    const auto parsed = parse_config(argc, argv);
    if (!parsed.config) {
        (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << '\n';
        return parsed.exit_code;
    }
    const server_config& config = *parsed.config;
    if (config.instance) {
        set_log_instance(*config.instance);
    }
    std::signal(SIGPIPE, SIG_IGN);
    try {
        // Signals are blocked from here on in every thread but this one's signal_set.
        boost::asio::io_context signals_io;
        boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
        if (config.secrets_generated) {
            log_event(
                "warning",
                "generated_token_secrets",
                {field(
                    "message",
                    "no token secrets configured: random ones generated; tokens will not survive a restart"
                )}
            );
        }
        if (config.pet.secret_generated) {
            log_event(
                "warning",
                "generated_pet_token_secret",
                {field(
                    "message",
                    "no --pet-token-secret configured: /api/v3 bearer tokens will not survive a restart"
                )}
            );
        }
        if (config.pet.development_credentials) {
            log_event(
                "warning",
                "development_pet_credentials",
                {field(
                    "message",
                    "/api/v3 accepts the documented development api_key and/or OAuth client; "
                    "set --pet-api-keys and --pet-clients for any other use"
                )}
            );
        }
        if (config.fault_injection) {
            log_event(
                "warning",
                "fault_injection_enabled",
                {field(
                    "message", "/api requests may ask for _delay, _status and _fail_rate (--fault-injection)"
                )}
            );
        }
        if (config.reset_data) {
            storefront::storage::reset_to_seed(config.storage);
            log_event(
                "info",
                "data_reset",
                {field("storage", storefront::storage::redacted(config.storage.backend))}
            );
            return 0;
        }
        composition_root app(config);
        http_server server(config, app.listener());
        server.start();
        // --pet-port: a second listener, sharing app (the same stores and tokens), for deployments that give
        // the pet surface its own base address. It serves the same routes.
        server_config pet_listener_config = config;
        pet_listener_config.port = config.pet.port;
        std::unique_ptr<http_server> pet_server;
        if (config.pet.port != 0) {
            pet_server = std::make_unique<http_server>(pet_listener_config, app.listener());
            pet_server->start();
            log_event(
                "info",
                "pet_listening",
                {field("address", config.address),
                 field("port", static_cast<long long>(pet_server->port())),
                 field(
                     "url", "http://" + config.address + ":" + std::to_string(pet_server->port()) + "/api/v3"
                 )}
            );
        }
        log_event(
            "info",
            "listening",
            {field("address", config.address),
             field("port", static_cast<long long>(server.port())),
             field("threads", static_cast<long long>(config.threads)),
             field("locations", static_cast<long long>(app.locations().location_count())),
             field("storage", storefront::storage::redacted(config.storage.backend)),
             field("url", "http://" + config.address + ":" + std::to_string(server.port()) + "/api/v1")}
        );
        app.state().mark_started();  // listeners open, data loaded: /readyz may say ready
        notify_ready();
        std::unique_ptr<io_watchdog> watchdog = start_watchdog(server, pet_server.get());
        const stop_request stop = wait_and_drain(signals_io, signals, app.state(), config.drain, [&app] {
            app.events().close_all();
        });
        log_event(
            "info",
            "stopping",
            {field("signal", static_cast<long long>(stop.signal)),
             field("drain_cut_short", stop.cut_short ? "true" : "false")}
        );
        watchdog.reset();  // before the I/O threads wind down: systemd stops watching at STOPPING=1
        server.begin_shutdown();
        if (pet_server) {
            pet_server->begin_shutdown();
        }
        bool clean = server.wait(config.limits.shutdown_timeout);
        if (pet_server) {
            clean = pet_server->wait(config.limits.shutdown_timeout) && clean;
        }
        app.passwords().stop();
        app.stop_writes();
        log_event("info", "stopped", {field("clean", clean ? "true" : "false")});
        return 0;
    } catch (const std::exception& e) {
        log_event("error", "fatal", {field("what", e.what())});
        return 1;
    }
}
