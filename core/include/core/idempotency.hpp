#pragma once
// Idempotency-Key rules (issue 42, IETF httpapi idempotency-key draft): a key names one request of one user
// in one data set for 24 hours. The same key with the same request (fingerprint) replays the first answer;
// with another request it is a mismatch (422); while the first request still runs it is a conflict (409).
// An in-progress marker older than the stale limit belongs to a request that died (a crash): taken over.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/model.hpp"

namespace storefront::core {

inline constexpr timestamp_ms idempotency_key_lifetime_ms = 24LL * 60 * 60 * 1000;
inline constexpr timestamp_ms idempotency_stale_after_ms = 60 * 1000;
inline constexpr std::size_t max_idempotency_key_length = 255;

// A key as the header carries it: 1-255 visible ASCII characters (either as is or as a quoted sf-string,
// whose quotes are removed). nullopt for anything else (400).
[[nodiscard]] std::optional<std::string> parse_idempotency_key(std::string_view header);

// The request's fingerprint: hex SHA-256 of method, path and body (each length-prefixed, so no two requests
// share one by moving bytes between the parts).
[[nodiscard]] std::string request_fingerprint(
    std::string_view method, std::string_view path, std::string_view body
);

// A key as stored: its fingerprint, and once finished the answer's status and body.
struct idempotency_record {
    std::string fingerprint;
    bool in_progress = true;
    int status = 0;
    std::string body;
    timestamp_ms created_at = 0;  // when the first request began (the 24 h count from here)
    timestamp_ms updated_at = 0;  // when the marker was set or the answer stored
};

enum class idempotency_decision {
    start,        // no live record: run the request (the store sets the in-progress marker)
    replay,       // same fingerprint, finished: answer the stored status and body again
    mismatch,     // another fingerprint: 422
    in_progress,  // same key still running: 409
};

// What to do with a request of `fingerprint` at `now`, given the key's record (if any).
[[nodiscard]] idempotency_decision decide_idempotency(
    const std::optional<idempotency_record>& existing, std::string_view fingerprint, timestamp_ms now
) noexcept;

}  // namespace storefront::core
