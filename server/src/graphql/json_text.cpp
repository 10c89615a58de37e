// JSON text for responses and messages: Boost.JSON's serialiser, except doubles, which std::to_chars
// writes in their shortest round-trip form as graphql-js clients expect to read them.

#include "json_text.hpp"

#include <charconv>

#include <boost/json/serialize.hpp>

namespace storefront::graphql::detail {
namespace {

void write(std::string& out, const boost::json::value& v) {
    switch (v.kind()) {
        case boost::json::kind::double_: {
            char buffer[64];
            const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v.get_double());
            out.append(buffer, ec == std::errc{} ? end : buffer);
            return;
        }
        case boost::json::kind::array: {
            out += '[';
            bool first = true;
            for (const auto& item : v.get_array()) {
                out += first ? "" : ",";
                first = false;
                write(out, item);
            }
            out += ']';
            return;
        }
        case boost::json::kind::object: {
            out += '{';
            bool first = true;
            for (const auto& [key, item] : v.get_object()) {
                out += first ? "" : ",";
                first = false;
                out += boost::json::serialize(boost::json::string_view(key));
                out += ':';
                write(out, item);
            }
            out += '}';
            return;
        }
        default:
            out += boost::json::serialize(v);
            return;
    }
}

}  // namespace

std::string json_text(const boost::json::value& v) {
    std::string out;
    write(out, v);
    return out;
}

}  // namespace storefront::graphql::detail
