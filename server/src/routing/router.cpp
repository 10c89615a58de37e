// The route trie: one node per path segment, literal children tried before the "{param}" child, so the
// most specific pattern wins segment by segment. A resource is one pattern with its verbs.

#include "server/routing/router.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <boost/container/small_vector.hpp>

namespace storefront::server {

struct router::resource {
    const route_table* table = nullptr;
    void* services = nullptr;  // what the table was mounted with
    core::compat_mode compat = core::compat_mode::none;
    std::vector<std::string_view> param_names;  // in path order
    std::vector<const route*> routes;
    std::string allow;  // "GET, HEAD, POST, OPTIONS"
};

struct router::node {
    std::vector<std::pair<std::string_view, std::unique_ptr<node>>> literals;
    std::unique_ptr<node> param;
    resource* here = nullptr;  // the pattern that ends at this node
};

namespace {

bool is_param(std::string_view segment) {
    return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

// Path segments without a heap allocation for the usual depths (match runs on every request).
using segment_list = boost::container::small_vector<std::string_view, 8>;

// Splits "/a/b/c" into its segments; "" for the root path "/".
segment_list segments_of(std::string_view path) {
    segment_list out;
    while (!path.empty()) {
        path.remove_prefix(1);  // the '/'
        const auto end = path.find('/');
        out.push_back(path.substr(0, end));
        path = end == std::string_view::npos ? std::string_view() : path.substr(end);
    }
    return out;
}

// Alphabetical, HEAD right after GET: "DELETE, GET, HEAD, POST, OPTIONS".
std::string allow_list(std::vector<const route*> routes) {
    std::sort(routes.begin(), routes.end(), [](const route* a, const route* b) {
        return http::to_string(a->verb) < http::to_string(b->verb);
    });
    std::string allow;
    for (const route* r : routes) {
        allow += http::to_string(r->verb);
        allow += ", ";
        if (r->verb == http::verb::get) {
            allow += "HEAD, ";
        }
    }
    allow += "OPTIONS";
    return allow;
}

}  // namespace

router::router(std::vector<mounted_table> tables) : root_(std::make_unique<node>()) {
    tables_.reserve(tables.size());
    for (const auto& [table, services, compat] : tables) {
        tables_.push_back(table);
        for (const route& r : table->routes) {
            if (!r.pattern.starts_with(table->prefix)) {
                throw std::logic_error("route outside its table's prefix: " + std::string(r.pattern));
            }
            node* at = root_.get();
            std::vector<std::string_view> names;
            for (const std::string_view segment : segments_of(r.pattern)) {
                if (is_param(segment)) {
                    if (!at->param) {
                        at->param = std::make_unique<node>();
                    }
                    names.push_back(segment.substr(1, segment.size() - 2));
                    at = at->param.get();
                    continue;
                }
                auto it = std::find_if(at->literals.begin(), at->literals.end(), [&](const auto& child) {
                    return child.first == segment;
                });
                if (it == at->literals.end()) {
                    at->literals.emplace_back(segment, std::make_unique<node>());
                    it = std::prev(at->literals.end());
                }
                at = it->second.get();
            }
            if (at->here == nullptr) {
                resources_.push_back(std::make_unique<resource>());
                at->here = resources_.back().get();
                at->here->table = table;
                at->here->services = services;
                at->here->compat = compat;
                at->here->param_names = std::move(names);
            } else if (at->here->param_names != names) {
                throw std::logic_error("one path shape, two parameter spellings: " + std::string(r.pattern));
            }
            for (const route* other : at->here->routes) {
                if (other->verb == r.verb) {
                    throw std::logic_error("route listed twice: " + std::string(r.pattern));
                }
            }
            at->here->routes.push_back(&r);
        }
    }
    for (auto& res : resources_) {
        res->allow = allow_list(res->routes);
    }
}

router::~router() = default;

route_match router::match(http::verb verb, std::string_view path) const {
    route_match out;
    if (path.empty() || path.front() != '/') {
        return out;
    }
    const segment_list segments = segments_of(path);
    segment_list captured;
    // Depth-first: literal child first, then the parameter child; the first complete path wins.
    const auto walk = [&](auto& self, const node& at, std::size_t depth) -> const resource* {
        if (depth == segments.size()) {
            return at.here;
        }
        const std::string_view segment = segments[depth];
        for (const auto& [literal, child] : at.literals) {
            if (literal == segment) {
                if (const resource* found = self(self, *child, depth + 1)) {
                    return found;
                }
            }
        }
        if (at.param && !segment.empty()) {
            captured.push_back(segment);
            if (const resource* found = self(self, *at.param, depth + 1)) {
                return found;
            }
            captured.pop_back();
        }
        return nullptr;
    };
    const resource* res = walk(walk, *root_, 0);
    if (res == nullptr) {
        return out;
    }
    out.table = res->table;
    out.services = res->services;
    out.compat = res->compat;
    out.allow = res->allow;
    const http::verb wanted = verb == http::verb::head ? http::verb::get : verb;
    const auto found = std::find_if(res->routes.begin(), res->routes.end(), [&](const route* r) {
        return r->verb == wanted;
    });
    if (found == res->routes.end()) {
        out.outcome = route_match::kind::method_not_allowed;
        return out;
    }
    out.outcome = route_match::kind::found;
    out.matched = *found;
    out.params.reserve(captured.size());
    for (std::size_t i = 0; i < captured.size(); ++i) {
        out.params.push_back({res->param_names[i], captured[i]});
    }
    return out;
}

}  // namespace storefront::server
