#pragma once
// Argon2id password hashing (libsodium). Hashes are self-describing PHC strings; clear text is never stored.
// Both calls are CPU- and memory-heavy (~19 MiB, tens of ms): run them off I/O threads.

#include <string>
#include <string_view>

namespace storefront::core {

// A fresh salted Argon2id hash of `password`. Throws std::runtime_error if libsodium fails (out of memory).
[[nodiscard]] std::string hash_password(std::string_view password);

// True when `password` matches `hash`; false for any mismatch or malformed hash.
[[nodiscard]] bool verify_password(std::string_view password, const std::string& hash);

// Spends the same work as a verify against a real hash; used when the user does not exist,
// so response time does not reveal which e-mails are registered.
void burn_verify_time(std::string_view password);

}  // namespace storefront::core
