// Pet surface credentials: client list parsing, scope lists, HTTP Basic decoding and the pet bearer
// tokens on top of jwt_codec (string "sub" = client id, "typ" access, "aud" storefront-pet, "scope").

#include "core/pet_auth.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

#include "core/base64url.hpp"
#include "core/text.hpp"

namespace storefront::core {

namespace {

constexpr std::string_view pet_access_type = "access";
constexpr std::array<std::string_view, 3> known_scopes{scope_read_pets, scope_write_pets, scope_admin_users};

// application/x-www-form-urlencoded decoding ('+' is a space); nullopt for a broken escape.
std::optional<std::string> form_decode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out.push_back(' ');
        } else if (text[i] == '%') {
            if (i + 2 >= text.size()) {
                return std::nullopt;
            }
            const int hi = hex_digit_value(text[i + 1]);
            const int lo = hex_digit_value(text[i + 2]);
            if (hi < 0 || lo < 0) {
                return std::nullopt;
            }
            out.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

}  // namespace

validated<std::vector<pet_client>> parse_pet_clients(std::string_view spec) {
    std::vector<pet_client> clients;
    std::string_view rest = spec;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view entry = trim_spaces(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (entry.empty()) {
            continue;
        }
        const auto first = entry.find(':');
        const auto second = first == std::string_view::npos ? first : entry.find(':', first + 1);
        if (second == std::string_view::npos) {
            return validation_errors{
                {"pet client `" + std::string(entry.substr(0, first)) +
                 "` must be written id:secret:scopes"}};
        }
        pet_client client;
        client.id = std::string(trim_spaces(entry.substr(0, first)));
        client.secret = std::string(entry.substr(first + 1, second - first - 1));
        client.scopes = split_scopes(entry.substr(second + 1));
        if (client.id.empty() || client.secret.empty()) {
            return validation_errors{{"pet client id and secret must not be empty"}};
        }
        if (client.scopes.empty()) {
            return validation_errors{{"pet client `" + client.id + "` needs at least one scope"}};
        }
        for (const auto& scope : client.scopes) {
            if (std::find(known_scopes.begin(), known_scopes.end(), scope) == known_scopes.end()) {
                return validation_errors{
                    {"pet client `" + client.id + "` has unknown scope `" + scope +
                     "` (known: read:pets, write:pets, admin:users)"}};
            }
        }
        const bool duplicate = std::any_of(clients.begin(), clients.end(), [&](const pet_client& c) {
            return c.id == client.id;
        });
        if (duplicate) {
            return validation_errors{{"pet client `" + client.id + "` is configured twice"}};
        }
        clients.push_back(std::move(client));
    }
    return validated<std::vector<pet_client>>(boost::system::in_place_value, std::move(clients));
}

std::vector<std::string> split_scopes(std::string_view scopes) {
    std::vector<std::string> out;
    while (!scopes.empty()) {
        const auto space = scopes.find(' ');
        const std::string_view item = scopes.substr(0, space);
        if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) {
            out.emplace_back(item);
        }
        if (space == std::string_view::npos) {
            break;
        }
        scopes.remove_prefix(space + 1);
    }
    return out;
}

bool has_scope(std::string_view scopes, std::string_view wanted) {
    const auto items = split_scopes(scopes);
    return std::find(items.begin(), items.end(), wanted) != items.end();
}

std::optional<basic_credentials> parse_basic_authorization(std::string_view header) {
    header = trim_spaces(header);
    constexpr std::string_view scheme = "basic";
    if (header.size() <= scheme.size() || header[scheme.size()] != ' ') {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < scheme.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(header[i])) != scheme[i]) {
            return std::nullopt;
        }
    }
    const auto decoded = base64_decode(trim_spaces(header.substr(scheme.size())));
    if (!decoded) {
        return std::nullopt;
    }
    const auto colon = decoded->find(':');
    if (colon == std::string::npos) {
        return std::nullopt;
    }
    auto id = form_decode(std::string_view(*decoded).substr(0, colon));
    auto secret = form_decode(std::string_view(*decoded).substr(colon + 1));
    if (!id || !secret) {
        return std::nullopt;
    }
    return basic_credentials{std::move(*id), std::move(*secret)};
}

pet_tokens::pet_tokens(const pet_token_settings& settings)
    : codec_(settings.secret), lifetime_(settings.lifetime) {
    if (lifetime_.count() <= 0) {
        throw std::invalid_argument("pet_tokens: lifetime must be positive");
    }
}

std::string pet_tokens::issue(std::string_view client_id, std::string_view scope, std::int64_t now) const {
    token_claims claims;
    claims.subject = std::string(client_id);
    claims.subject_is_number = false;
    claims.type = std::string(pet_access_type);
    claims.audience = std::string(pet_audience);
    claims.scope = std::string(scope);
    claims.issued_at = now;
    claims.expires_at = now + lifetime_.count();
    return codec_.sign(claims);
}

result<pet_grant> pet_tokens::verify(std::string_view token, std::int64_t now) const {
    const auto claims = codec_.verify(token, now, {pet_access_type, pet_audience});
    if (!claims || claims->subject_is_number || claims->subject.empty()) {
        return errc::invalid_token;
    }
    return pet_grant{claims->subject, claims->scope};
}

std::optional<std::vector<std::string>> grant_scopes(
    const std::optional<std::string>& requested, const std::vector<std::string>& client_scopes
) {
    std::vector<std::string> granted = requested ? split_scopes(*requested) : client_scopes;
    const bool allowed =
        !granted.empty() && std::all_of(granted.begin(), granted.end(), [&](const std::string& s) {
            return std::find(client_scopes.begin(), client_scopes.end(), s) != client_scopes.end();
        });
    if (!allowed) {
        return std::nullopt;
    }
    return granted;
}

}  // namespace storefront::core
