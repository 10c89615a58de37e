// Argon2id hashing and verification through libsodium, with OWASP's minimum parameters
// (t=2, m=19 MiB, p=1), plus a dummy verify that equalises timing for unknown accounts.

#include "core/password.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

#include <sodium.h>

namespace storefront::core {

namespace {

constexpr unsigned long long ops_limit = 2;
constexpr std::size_t mem_limit = 19u * 1024u * 1024u;
// Far beyond any real pass phrase; bounds the work an unauthenticated request can ask for.
constexpr std::size_t max_password_bytes = 4096;

void ensure_sodium() {
    // sodium_init is itself thread-safe, but a static keeps it to one call and one error check.
    static const bool initialised = sodium_init() >= 0;
    if (!initialised) {
        throw std::runtime_error("libsodium initialisation failed");
    }
}

const std::string& dummy_hash() {
    static const std::string hash = hash_password("storefront timing-equaliser password");
    return hash;
}

}  // namespace

std::string hash_password(std::string_view password) {
    if (password.size() > max_password_bytes) {
        throw std::invalid_argument("password longer than 4096 bytes");
    }
    ensure_sodium();
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(
            out, password.data(), password.size(), ops_limit, mem_limit, crypto_pwhash_ALG_ARGON2ID13
        ) != 0) {
        throw std::runtime_error("Argon2id hashing failed (out of memory?)");
    }
    return std::string{out};
}

bool verify_password(std::string_view password, const std::string& hash) {
    if (password.size() > max_password_bytes) {
        return false;
    }
    // libsodium reads a NUL-terminated string of at most crypto_pwhash_STRBYTES - 1 characters.
    if (hash.empty() || hash.size() >= crypto_pwhash_STRBYTES || hash.find('\0') != std::string::npos) {
        return false;
    }
    ensure_sodium();
    return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

void burn_verify_time(std::string_view password) {
    // The result is meaningless; only the work matters.
    static_cast<void>(verify_password(password, dummy_hash()));
}

}  // namespace storefront::core
