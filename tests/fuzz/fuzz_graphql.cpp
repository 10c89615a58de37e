// libFuzzer harness: bytes as a GraphQL document (optionally followed by "\n---\n" and JSON variables),
// prepared, then every operation executed against the storefront schema with resolvers that answer sample
// values.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/json/parse.hpp>

#include "api/graphql/store_schema.hpp"  // the schema /graphql serves, the one copy
#include "graphql/graphql.hpp"

namespace gql = storefront::graphql;
namespace json = boost::json;

namespace {

// A plausible value of `t`: two list items, empty objects (their fields answer samples too), sample leaves; a
// field whose arguments include "id": "0" fails, so error paths and null propagation run too.
json::value sample_value(const gql::schema& s, const gql::type_ref& t) {
    if (t.wrap == gql::type_ref::kind::non_null) {
        return sample_value(s, *t.of);
    }
    if (t.wrap == gql::type_ref::kind::list) {
        return json::array{sample_value(s, *t.of), sample_value(s, *t.of)};
    }
    const gql::type_def* named = s.find_type(t.name);
    if (named->kind == gql::type_kind::enum_type) {
        return json::value(named->values.front().name);
    }
    if (t.name == "Int") {
        return 3000000000LL;  // out of 32-bit range: a serialisation error
    }
    if (t.name == "Float") {
        return 1.5;
    }
    if (t.name == "Boolean") {
        return true;
    }
    if (named->is_leaf()) {
        return "s";
    }
    return json::object{};
}

// The schema without resolvers: type lookups for the stubs.
const gql::schema& shape() {
    static const gql::schema s = gql::schema::from_sdl(storefront::server::store_schema_sdl);
    return s;
}

const gql::schema& fuzz_schema() {
    static const gql::schema s = [] {
        gql::schema out = gql::schema::from_sdl(storefront::server::store_schema_sdl);
        for (const auto& type : shape().types()) {
            if (type.builtin || type.kind != gql::type_kind::object) {
                continue;
            }
            for (const auto& field : type.fields) {
                out.resolve(type.name, field.name, [result = field.type](const gql::resolve_info& info) {
                    const auto* id = info.arguments.if_contains("id");
                    if (id != nullptr && *id == json::value("0")) {
                        return gql::resolved::fail("Not found", "NOT_FOUND");
                    }
                    if (info.field_name == "login") {
                        throw std::runtime_error("stub failure");
                    }
                    return gql::resolved::ok(sample_value(shape(), result));
                });
            }
        }
        return out;
    }();
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t split = input.find("\n---\n");
    const std::string_view query = input.substr(0, split);
    json::object variables;
    if (split != std::string_view::npos) {
        boost::system::error_code ec;
        json::value parsed = json::parse(input.substr(split + 5), ec);
        if (!ec && parsed.is_object()) {
            variables = std::move(parsed.as_object());
        }
    }
    static gql::document_cache cache(64);
    const gql::limits bounds{.max_fields = 2000};
    const gql::preparation prepared = cache.prepare(fuzz_schema(), query, bounds);
    if (prepared.document == nullptr) {
        if (prepared.errors.empty()) {
            __builtin_trap();  // a refused document always says why
        }
        return 0;
    }
    for (const auto& op : prepared.document->ast().operations) {
        const auto choice = gql::choose_operation(*prepared.document, op.name);
        const auto result =
            gql::execute(fuzz_schema(), *prepared.document, op.name, variables, nullptr, bounds);
        (void)choice;
        (void)gql::to_response_json(result);
    }
    return 0;
}
