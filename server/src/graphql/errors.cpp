// The JSON shape of a GraphQL error, as Apollo Server and graphql-js write it.
// Members in the order clients print them: message, locations, path, extensions.

#include "graphql/errors.hpp"

namespace storefront::graphql {

boost::json::object to_json(const error& e) {
    boost::json::object out;
    out["message"] = e.message;
    if (!e.locations.empty()) {
        boost::json::array locations;
        for (const auto& l : e.locations) {
            locations.push_back(boost::json::object{{"line", l.line}, {"column", l.column}});
        }
        out["locations"] = std::move(locations);
    }
    if (!e.path.empty()) {
        out["path"] = e.path;
    }
    if (!e.code.empty() || !e.extensions.empty()) {
        boost::json::object extensions;
        if (!e.code.empty()) {
            extensions["code"] = e.code;
        }
        for (const auto& [key, value] : e.extensions) {
            extensions[key] = value;
        }
        out["extensions"] = std::move(extensions);
    }
    return out;
}

}  // namespace storefront::graphql
