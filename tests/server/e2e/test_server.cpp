// Starts and stops the in-process server the end-to-end tests talk to.

#include "test_server.hpp"

#include <vector>

#include <boost/test/unit_test.hpp>

namespace storefront::test {

server::server_config test_config() {
    server::server_config c;
    c.address = "127.0.0.1";
    c.port = 0;
    c.threads = 2;
    c.access_log = false;
    c.tokens.access_secret = test_access_secret;
    c.tokens.refresh_secret = test_refresh_secret;
    c.limits.body_limit = 64 * 1024;
    c.limits.form_body_limit = 64 * 1024;
    c.limits.keepalive_timeout = std::chrono::seconds(5);
    c.limits.write_timeout = std::chrono::seconds(5);
    c.pet.tokens.secret = test_pet_secret;
    c.pet.api_keys = {"special-key", "second-test-key"};
    c.pet.clients = {
        {"petstore-client", "petstore-secret", {"read:pets", "write:pets"}},
        {"reader-client", "reader-secret", {"read:pets"}},
        {"writer-client", "writer-secret", {"write:pets"}},
    };
    c.pet.image_budget = 256 * 1024;
    // Every suite logs in from 127.0.0.1: the per-client login brake would count them all as one guesser
    // (the accounts suite tests that budget on a server of its own).
    c.login_brake.client_free_failures = 1000;
    return c;
}

running_server::running_server(server::server_config config) : config_(std::move(config)) {
    app_ = std::make_unique<server::composition_root>(config_);
    server_ = std::make_unique<server::http_server>(config_, app_->listener());
    server_->start();
    app_->state().mark_started();  // as main does once listening
}

running_server::~running_server() {
    server_->begin_shutdown();
    server_->wait(std::chrono::seconds(5));
    server_.reset();
    app_.reset();
}

namespace {

std::vector<std::function<void()>>& stops_at_run_end() {
    static std::vector<std::function<void()>> stops;
    return stops;
}

struct stop_kept_servers {
    ~stop_kept_servers() {
        for (auto& stop : stops_at_run_end()) {
            stop();
        }
        stops_at_run_end().clear();
    }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(stop_kept_servers);

void stop_when_the_run_ends(std::function<void()> stop) {
    stops_at_run_end().push_back(std::move(stop));
}

running_server& shared_server() {
    static std::unique_ptr<running_server> instance = [] {
        auto s = std::make_unique<running_server>(test_config());
        stop_when_the_run_ends([] { instance.reset(); });
        return s;
    }();
    return *instance;
}

}  // namespace storefront::test
