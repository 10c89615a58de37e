#pragma once
// Test-side HTTP over 127.0.0.1: a blocking Beast client for well-formed requests and a raw socket for
// byte-exact ones. Every call has a deadline so a broken server fails a test instead of hanging it.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

namespace storefront::test {

struct http_reply {
    unsigned status = 0;
    std::map<std::string, std::string> headers;  // names lower-cased; repeated headers joined by ", "
    std::string body;
    bool connection_closed = false;  // the server closed after this reply

    [[nodiscard]] boost::json::value json() const;  // throws if the body is not JSON
    [[nodiscard]] std::string header(const std::string& lower_name) const;
};

struct http_request_spec {
    std::string method = "GET";
    std::string target = "/";
    std::string body;
    std::string content_type;  // empty: no Content-Type header
    std::vector<std::pair<std::string, std::string>> headers;
};

// One request on a fresh connection.
http_reply send_request(std::uint16_t port, const http_request_spec& spec);

// Shorthands.
http_reply get(std::uint16_t port, const std::string& target);
http_reply post_json(std::uint16_t port, const std::string& target, const std::string& json_body);

// Writes `bytes` as-is, then reads until the server closes or `wait` passes; returns everything read.
std::string raw_exchange(
    std::uint16_t port,
    std::string_view bytes,
    std::chrono::milliseconds wait = std::chrono::milliseconds(3000)
);

struct raw_result {
    std::string bytes;
    bool closed_by_server = false;  // the server ended the connection (EOF or reset) before `wait` passed
    std::chrono::milliseconds elapsed{0};
};

// Like raw_exchange, and tells whether the server closed the connection.
raw_result raw_exchange_until_close(
    std::uint16_t port,
    std::string_view bytes,
    std::chrono::milliseconds wait = std::chrono::milliseconds(3000)
);

// One client connection kept open across requests (keep-alive), each read with a deadline.
class keep_alive_connection {
  public:
    explicit keep_alive_connection(std::uint16_t port);
    ~keep_alive_connection();
    keep_alive_connection(const keep_alive_connection&) = delete;
    keep_alive_connection& operator=(const keep_alive_connection&) = delete;

    // GET `target` on this connection; throws when the server closed it or did not answer in time.
    http_reply get(const std::string& target);
    // True if the server closes the connection (EOF or reset) within `wait`.
    bool closed_by_server(std::chrono::milliseconds wait);

  private:
    struct state;
    std::unique_ptr<state> state_;
};

// Splits raw bytes holding one or more HTTP responses (Content-Length framed) into replies.
std::vector<http_reply> parse_responses(std::string_view bytes);

}  // namespace storefront::test
