#pragma once
// Matches a path against the route tables: segment by segment, a literal segment beats a "{param}" segment
// at the same position (whatever the table order), with fallback when the literal branch leads nowhere.
// Built once at start-up; matching allocates only the captured parameters' vector.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/http/verb.hpp>

#include "core/compat.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

// The outcome of matching one request head.
struct route_match {
    enum class kind { found, not_found, method_not_allowed } outcome = kind::not_found;
    const route* matched = nullptr;      // set when found
    const route_table* table = nullptr;  // the surface of the path, when the path is known
    void* services = nullptr;            // what that surface's handlers are called with
    path_params params;                  // captured segments, still percent-encoded
    std::string_view allow;              // "GET, HEAD, POST, OPTIONS" for a known path
    // The surface's --compat, when the path is known (dispatch's wrong_method).
    core::compat_mode compat = core::compat_mode::none;
};

// A surface's table with the services its handlers take (the surface pairs them, so the types agree;
// a table whose handlers use nothing may go without), and the --compat its routing answers follow.
struct mounted_table {
    mounted_table(const route_table* t, void* s = nullptr, core::compat_mode c = core::compat_mode::none)
        : table(t), services(s), compat(c) {}
    const route_table* table;
    void* services;
    core::compat_mode compat;
};

// A surface's table, typed by the services its handlers take, so that mount() pairs it with those alone
// (`store_routes().mount(store_services_)` in the composition root).
template <class Services>
struct surface_table : route_table {
    [[nodiscard]] mounted_table mount(Services& services) const { return {this, &services}; }
    [[nodiscard]] mounted_table mount(Services& services, core::compat_mode compat) const {
        return {this, &services, compat};
    }
};

// The table of the rows `Rows` (a constexpr array in the surface's routes.cpp), made on the first call: the
// one body of every surface's table accessor, `return table_of<store_services, routes>("/api/v1", ...);`.
template <class Services, const auto& Rows>
[[nodiscard]] const surface_table<Services>& table_of(
    std::string_view prefix, error_style errors, request_logging logging = request_logging::logged
) {
    static const surface_table<Services> table{{prefix, errors, Rows, logging}};
    return table;
}

class router {
  public:
    explicit router(std::vector<mounted_table> tables);
    ~router();
    router(const router&) = delete;
    router& operator=(const router&) = delete;

    // HEAD matches GET routes. For OPTIONS the match is method_not_allowed with `allow` set (the caller
    // answers the preflight).
    [[nodiscard]] route_match match(http::verb verb, std::string_view path) const;

    // Every route, table by table, in table order (for the API documents and metrics).
    [[nodiscard]] const std::vector<const route_table*>& tables() const { return tables_; }

  private:
    struct node;
    struct resource;
    std::vector<const route_table*> tables_;
    std::unique_ptr<node> root_;
    std::vector<std::unique_ptr<resource>> resources_;
};

}  // namespace storefront::server
