// End to end over HTTP, on the memory backend and on SQLite (server_tests), or on PostgreSQL when the
// throw-away cluster of server_tests_pg is there (TEST_PG_DSN): the lists' X-Total-Count and Link, sortBy and
// order, q, select (lists and single items), their 400s, the CORS headers that expose them, and default
// answers that keep the exact bytes they had before any of this (data/default_answers.txt).

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace lists_e2e_file {
namespace {

// One server per backend, started on first use and shared by this file's read-only cases.
struct backend {
    std::string name;
    std::unique_ptr<temp_dir> dir;  // SQLite's file; none for memory
    std::unique_ptr<running_server> server;
    std::uint16_t port() const { return server->port(); }
};

server::server_config list_config(const std::string& storage) {
    auto c = test_config();
    c.storage.backend = storage;
    c.storage.generated_locations = 1000;
    return c;
}

std::vector<backend>& backends() {
    static std::vector<backend> all = [] {
        std::vector<backend> out;
        if (std::getenv("TEST_PG_DSN")) {  // server_tests_pg: the same cases on a fresh PostgreSQL database
            out.push_back(
                {"postgresql", nullptr, std::make_unique<running_server>(list_config(create_test_database()))}
            );
        } else {
            out.push_back({"memory", nullptr, std::make_unique<running_server>(list_config("memory"))});
            auto dir = std::make_unique<temp_dir>();
            const std::string storage = "sqlite:" + (dir->path() / "lists.db").string();
            out.push_back({"sqlite", std::move(dir), std::make_unique<running_server>(list_config(storage))});
        }
        // Run when the test run ends (by then `all` holds the servers), before static destruction.
        stop_when_the_run_ends([] {
            for (auto& b : all) {
                b.server.reset();
            }
        });
        return out;
    }();
    return all;
}

const std::string product_sorts = "sortBy must be one of: id, title, price, creationAt, updatedAt";
const std::string category_sorts = "sortBy must be one of: id, name";
const std::string user_sorts = "sortBy must be one of: id, name, email";
const std::string orders = "order must be one of: asc, desc";
const std::string product_selects =
    "select must be a comma-separated list of: id, title, slug, price, stock, description, category, "
    "images, "
    "creationAt, updatedAt";
const std::string category_selects =
    "select must be a comma-separated list of: id, name, slug, image, creationAt, updatedAt";
const std::string user_selects =
    "select must be a comma-separated list of: id, email, name, role, avatar, creationAt, updatedAt";
const std::string exposed =
    "X-Total-Count, Link, ETag, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed";

std::vector<std::string> messages_of(const http_reply& reply) {
    std::vector<std::string> out;
    const json::value body = reply.json();
    for (const auto& m : body.at("message").as_array()) {
        out.emplace_back(m.as_string());
    }
    return out;
}

std::vector<std::string> keys_of(const json::value& object) {
    std::vector<std::string> out;
    for (const auto& member : object.as_object()) {
        out.emplace_back(member.key());
    }
    return out;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return text;
}

std::string text_of(const json::value& item, const char* field) {
    return std::string(item.at(field).as_string());
}

// Every item of a list (limit 100 covers the seed lists).
std::vector<json::value> every(std::uint16_t port, const std::string& path) {
    const auto list =
        get(port, path + (path.find('?') == std::string::npos ? "?" : "&") + "limit=100").json();
    return {list.as_array().begin(), list.as_array().end()};
}

std::vector<std::int64_t> ids(const std::vector<json::value>& items) {
    std::vector<std::int64_t> out;
    for (const auto& item : items) {
        out.push_back(item.at("id").as_int64());
    }
    return out;
}

// The test's own reading of `q`: every word, ignoring case, in one of `fields`.
std::vector<json::value> searched(
    const std::vector<json::value>& items,
    const std::vector<std::string>& words,
    std::vector<const char*> fields
) {
    std::vector<json::value> out;
    for (const auto& item : items) {
        const bool all = std::all_of(words.begin(), words.end(), [&](const std::string& word) {
            return std::any_of(fields.begin(), fields.end(), [&](const char* field) {
                return lower(text_of(item, field)).find(lower(word)) != std::string::npos;
            });
        });
        if (all) {
            out.push_back(item);
        }
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(lists_e2e)

// The answers of requests without the new parameters are the bytes cb16e60 served (before this work).
BOOST_AUTO_TEST_CASE(default_answers_keep_their_bytes) {
    std::ifstream file(STOREFRONT_E2E_DATA_DIR "/default_answers.txt");
    BOOST_TEST_REQUIRE(file.good());
    std::vector<std::pair<std::string, std::string>> table;
    for (std::string line; std::getline(file, line);) {
        if (!line.empty() && line.front() != '#') {
            const auto space = line.find(' ');
            table.emplace_back(line.substr(0, space), line.substr(space + 1));
        }
    }
    BOOST_TEST_REQUIRE(table.size() >= 10u);
    for (auto& b : backends()) {
        const std::string public_url = "http://127.0.0.1:" + std::to_string(b.port());
        for (const auto& [target, recorded] : table) {
            BOOST_TEST_CONTEXT(b.name << " " << target) {
                std::string expected = recorded;
                for (auto at = expected.find("@PUBLIC_URL@"); at != std::string::npos;
                     at = expected.find("@PUBLIC_URL@", at)) {
                    expected.replace(at, 12, public_url);
                }
                const auto reply = get(b.port(), target);
                BOOST_TEST(reply.status == 200u);
                BOOST_TEST(reply.body == expected);
            }
        }
    }
}

// The per-request path (any select) writes every field exactly as the pre-serialised pages do.
BOOST_AUTO_TEST_CASE(selecting_every_field_gives_the_default_bytes) {
    const std::vector<std::pair<std::string, std::string>> table{
        {"/api/v1/products?offset=5&limit=7",
         "select=id,title,slug,price,stock,description,category,images,creationAt,updatedAt"},
        {"/api/v1/products?title=classic&limit=20",
         "select=updatedAt,creationAt,images,category,description,stock,price,slug,title"},
        {"/api/v1/categories", "select=name,slug,image,creationAt,updatedAt"},
        {"/api/v1/users?limit=3", "select=email,name,role,avatar,creationAt,updatedAt"},
        {"/api/v1/categories/2/products",
         "select=title,slug,price,stock,description,category,images,creationAt,updatedAt"},
        {"/api/v1/products/2/related",
         "select=title,slug,price,stock,description,category,images,creationAt,updatedAt"},
        {"/api/v1/products/7",
         "select=title,slug,price,stock,description,category,images,creationAt,updatedAt"},
        {"/api/v1/users/3", "select=email,name,role,avatar,creationAt,updatedAt"},
    };
    for (auto& b : backends()) {
        for (const auto& [target, select] : table) {
            BOOST_TEST_CONTEXT(b.name << " " << target << " " << select) {
                const auto plain = get(b.port(), target);
                const auto shaped =
                    get(b.port(), target + (target.find('?') == std::string::npos ? "?" : "&") + select);
                BOOST_TEST(plain.status == 200u);
                BOOST_TEST(shaped.body == plain.body);
                BOOST_TEST(shaped.header("x-total-count") == plain.header("x-total-count"));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(total_count_is_every_match_before_paging) {
    struct row {
        std::string target;
        std::string total;
        std::vector<std::int64_t> ids;  // of the page answered
    };
    const std::vector<row> table{
        {"/api/v1/products", "51", range(1, 10)},
        {"/api/v1/products?offset=48", "51", {49, 50, 51}},
        {"/api/v1/products?price=44", "2", {1, 19}},
        {"/api/v1/products?price_min=90&price_max=100", "3", {4, 8, 24}},
        {"/api/v1/products?title=hoodie", "2", {2, 3}},
        {"/api/v1/products?categoryId=4", "10", range(35, 44)},
        {"/api/v1/products?categorySlug=shoes&limit=3", "10", {35, 36, 37}},
        {"/api/v1/products?categorySlug=shoes&categoryId=1", "0", {}},
        {"/api/v1/products?price_min=50&price_max=60&offset=0&limit=2", "4", {12, 28}},
        {"/api/v1/products?price_min=50&price_max=60&offset=2&limit=2", "4", {42, 51}},
        {"/api/v1/products?title=classic&price_min=10&price_max=50&categoryId=1",
         "6",
         {2, 6, 11, 14, 15, 17}},
        {"/api/v1/products?price_max=20", "4", {2, 22, 27, 43}},
        {"/api/v1/products?title=classic&price_min=10&price_max=50&categoryId=1&limit=2", "6", {2, 6}},
        {"/api/v1/products?title=nothing-like-this", "0", {}},
        {"/api/v1/products?offset=60", "51", {}},
        {"/api/v1/products?title=hoodie&offset=9", "2", {}},
        {"/api/v1/categories", "5", range(1, 5)},
        {"/api/v1/categories?offset=3&limit=10", "5", {4, 5}},
        {"/api/v1/categories?offset=5", "5", {}},
        {"/api/v1/categories/4/products", "10", range(35, 44)},
        {"/api/v1/categories/5/products?limit=2&offset=6", "7", {51}},
        {"/api/v1/products/2/related", "16", {1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}},
        {"/api/v1/products/2/related?offset=15&limit=5", "16", {17}},
        {"/api/v1/products/slug/sleek-futuristic-electric-bicycle/related", "6", range(46, 51)},
        {"/api/v1/users", "3", {1, 2, 3}},
        {"/api/v1/users?offset=1&limit=1", "3", {2}},
        {"/api/v1/users?offset=3", "3", {}},
    };
    for (auto& b : backends()) {
        for (const auto& r : table) {
            BOOST_TEST_CONTEXT(b.name << " " << r.target) {
                const auto reply = get(b.port(), r.target);
                BOOST_TEST(reply.status == 200u);
                BOOST_TEST(reply.header("x-total-count") == r.total);
                BOOST_TEST(ids_of(reply.json()) == r.ids, boost::test_tools::per_element());
                if (r.ids.empty()) {
                    BOOST_TEST(reply.body == "[]");
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(link_names_first_prev_next_last_and_keeps_other_parameters) {
    const auto link = [](const std::string& base, std::vector<std::pair<std::string, std::string>> rels) {
        std::string out;
        for (const auto& [rel, query] : rels) {
            out += (out.empty() ? "<" : ", <") + base + query + ">; rel=\"" + rel + "\"";
        }
        return out;
    };
    const std::string p = "/api/v1/products?";
    struct row {
        std::string target;
        std::string link;  // empty: no Link header
    };
    const std::vector<row> table{
        // The default page, a middle page, exactly the last page, a short last page, past the end.
        {"/api/v1/products",
         link(
             p,
             {{"first", "offset=0&limit=10"}, {"next", "offset=10&limit=10"}, {"last", "offset=50&limit=10"}}
         )},
        {"/api/v1/products?offset=20&limit=10",
         link(
             p,
             {{"first", "offset=0&limit=10"},
              {"prev", "offset=10&limit=10"},
              {"next", "offset=30&limit=10"},
              {"last", "offset=50&limit=10"}}
         )},
        {"/api/v1/products?offset=50&limit=10",
         link(
             p,
             {{"first", "offset=0&limit=10"}, {"prev", "offset=40&limit=10"}, {"last", "offset=50&limit=10"}}
         )},
        {"/api/v1/products?offset=45&limit=5",
         link(
             p,
             {{"first", "offset=0&limit=5"},
              {"prev", "offset=40&limit=5"},
              {"next", "offset=50&limit=5"},
              {"last", "offset=50&limit=5"}}
         )},
        {"/api/v1/products?offset=3&limit=10",
         link(
             p,
             {{"first", "offset=0&limit=10"},
              {"prev", "offset=0&limit=10"},
              {"next", "offset=13&limit=10"},
              {"last", "offset=50&limit=10"}}
         )},
        {"/api/v1/products?offset=70&limit=10",
         link(
             p,
             {{"first", "offset=0&limit=10"}, {"prev", "offset=60&limit=10"}, {"last", "offset=50&limit=10"}}
         )},
        // limit 1 at both ends.
        {"/api/v1/products?limit=1",
         link(
             p, {{"first", "limit=1&offset=0"}, {"next", "limit=1&offset=1"}, {"last", "limit=1&offset=50"}}
         )},
        {"/api/v1/products?offset=50&limit=1",
         link(
             p, {{"first", "offset=0&limit=1"}, {"prev", "offset=49&limit=1"}, {"last", "offset=50&limit=1"}}
         )},
        // An empty result: first and last are the one empty page.
        {"/api/v1/products?title=zzz",
         link(p, {{"first", "title=zzz&offset=0&limit=10"}, {"last", "title=zzz&offset=0&limit=10"}})},
        // Every other parameter keeps its place and its encoding; offset and limit change in place.
        {"/api/v1/products?title=classic&offset=5&limit=5&sortBy=price&order=desc",
         link(
             p,
             {{"first", "title=classic&offset=0&limit=5&sortBy=price&order=desc"},
              {"prev", "title=classic&offset=0&limit=5&sortBy=price&order=desc"},
              {"next", "title=classic&offset=10&limit=5&sortBy=price&order=desc"},
              {"last", "title=classic&offset=15&limit=5&sortBy=price&order=desc"}}
         )},
        {"/api/v1/products?limit=2&title=classic%20red&&select=title",
         link(
             p,
             {{"first", "limit=2&title=classic%20red&select=title&offset=0"},
              {"next", "limit=2&title=classic%20red&select=title&offset=2"},
              {"last", "limit=2&title=classic%20red&select=title&offset=2"}}
         )},
        // The other lists: total a multiple of limit, the three users, related and category pages.
        {"/api/v1/categories/4/products?limit=5",
         link(
             "/api/v1/categories/4/products?",
             {{"first", "limit=5&offset=0"}, {"next", "limit=5&offset=5"}, {"last", "limit=5&offset=5"}}
         )},
        {"/api/v1/users?offset=2&limit=2",
         link(
             "/api/v1/users?",
             {{"first", "offset=0&limit=2"}, {"prev", "offset=0&limit=2"}, {"last", "offset=2&limit=2"}}
         )},
        {"/api/v1/users?offset=0&limit=3",
         link("/api/v1/users?", {{"first", "offset=0&limit=3"}, {"last", "offset=0&limit=3"}})},
        {"/api/v1/categories?limit=2",
         link(
             "/api/v1/categories?",
             {{"first", "limit=2&offset=0"}, {"next", "limit=2&offset=2"}, {"last", "limit=2&offset=4"}}
         )},
        {"/api/v1/products/2/related?offset=5&limit=5",
         link(
             "/api/v1/products/2/related?",
             {{"first", "offset=0&limit=5"},
              {"prev", "offset=0&limit=5"},
              {"next", "offset=10&limit=5"},
              {"last", "offset=15&limit=5"}}
         )},
        // Lists answered whole by default carry no Link: there is no page to move to.
        {"/api/v1/categories", ""},
        {"/api/v1/categories?sortBy=name", ""},
        {"/api/v1/products/2/related", ""},
    };
    for (auto& b : backends()) {
        for (const auto& r : table) {
            BOOST_TEST_CONTEXT(b.name << " " << r.target) {
                const auto reply = get(b.port(), r.target);
                BOOST_TEST(reply.status == 200u);
                BOOST_TEST(reply.header("link") == r.link);
                BOOST_TEST(!reply.header("x-total-count").empty());
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(sort_orders_fields_with_ties_by_ascending_id) {
    // The test's own order: a stable sort of the id-ordered list (ties stay in ascending id order).
    struct row {
        std::string list;
        std::string field;
        bool text;
    };
    const std::vector<row> table{
        {"/api/v1/products", "price", false},
        {"/api/v1/products", "title", true},
        {"/api/v1/products", "creationAt", true},
        {"/api/v1/products", "updatedAt", true},
        {"/api/v1/products", "id", false},
        {"/api/v1/categories", "name", true},
        {"/api/v1/users", "name", true},
        {"/api/v1/users", "email", true},
        {"/api/v1/categories/1/products", "price", false},
        {"/api/v1/products/20/related", "title", true},
    };
    for (auto& b : backends()) {
        for (const auto& r : table) {
            const auto items = every(b.port(), r.list);
            for (const std::string order : {"asc", "desc"}) {
                BOOST_TEST_CONTEXT(b.name << " " << r.list << " by " << r.field << " " << order) {
                    auto expected = items;
                    const auto before = [&](const json::value& a, const json::value& x) {
                        if (r.text) {
                            return lower(text_of(a, r.field.c_str())) < lower(text_of(x, r.field.c_str()));
                        }
                        return a.at(r.field).to_number<double>() < x.at(r.field).to_number<double>();
                    };
                    std::stable_sort(expected.begin(), expected.end(), [&](const auto& a, const auto& x) {
                        return order == "asc" ? before(a, x) : before(x, a);
                    });
                    const std::string target = r.list + "?limit=100&sortBy=" + r.field + "&order=" + order;
                    const auto reply = get(b.port(), target);
                    BOOST_TEST(reply.status == 200u);
                    BOOST_TEST(ids_of(reply.json()) == ids(expected), boost::test_tools::per_element());
                    BOOST_TEST(reply.header("x-total-count") == std::to_string(items.size()));
                }
            }
        }
        BOOST_TEST_CONTEXT(b.name) {
            // Ties: price 39 is ids 15, 25, 35, 36 and 44, in ascending id order both ways.
            const auto cheap_first = ids_of(get(b.port(), "/api/v1/products?sortBy=price&limit=100").json());
            const auto dear_first =
                ids_of(get(b.port(), "/api/v1/products?sortBy=price&order=desc&limit=100").json());
            const std::vector<std::int64_t> ties{15, 25, 35, 36, 44};
            for (const auto& list : {cheap_first, dear_first}) {
                const auto at = std::search(list.begin(), list.end(), ties.begin(), ties.end());
                BOOST_TEST((at != list.end()));
            }
            // Paging a sorted list slices the sorted order; order alone reverses the id order.
            const auto page = ids_of(get(b.port(), "/api/v1/products?sortBy=price&offset=5&limit=5").json());
            const std::vector<std::int64_t> slice(cheap_first.begin() + 5, cheap_first.begin() + 10);
            BOOST_TEST(page == slice, boost::test_tools::per_element());
            BOOST_TEST(
                ids_of(get(b.port(), "/api/v1/users?order=desc").json()) ==
                    std::vector<std::int64_t>({3, 2, 1}),
                boost::test_tools::per_element()
            );
            BOOST_TEST(
                ids_of(get(b.port(), "/api/v1/categories?sortBy=name&order=desc").json()) ==
                    std::vector<std::int64_t>({4, 5, 3, 2, 1}),
                boost::test_tools::per_element()
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(q_needs_every_word_and_combines_with_filters_sort_and_paging) {
    struct row {
        std::string list;  // the list, with any filters
        std::string q;     // as sent (percent-encoded)
        std::vector<std::string> words;
        std::vector<const char*> fields;
    };
    const std::vector<const char*> product_fields{"title", "description"};
    const std::vector<const char*> user_fields{"name", "email"};
    const std::vector<row> table{
        {"/api/v1/products", "hoodie", {"hoodie"}, product_fields},
        {"/api/v1/products", "classic%20red", {"classic", "red"}, product_fields},
        {"/api/v1/products", "RED%20%20classic", {"red", "classic"}, product_fields},
        {"/api/v1/products", "sleek+wireless", {"sleek", "wireless"}, product_fields},
        {"/api/v1/products", "comfort", {"comfort"}, product_fields},
        {"/api/v1/products?categoryId=1", "classic", {"classic"}, product_fields},
        {"/api/v1/products?price_max=50&categorySlug=clothes",
         "classic%20t-shirt",
         {"classic", "t-shirt"},
         product_fields},
        {"/api/v1/products?title=cap", "navy", {"navy"}, product_fields},
        {"/api/v1/products", "no-such-word", {"no-such-word"}, product_fields},
        {"/api/v1/categories/2/products", "sleek", {"sleek"}, product_fields},
        {"/api/v1/products/30/related", "modern%20table", {"modern", "table"}, product_fields},
        {"/api/v1/users", "mail.com", {"mail.com"}, user_fields},
        {"/api/v1/users", "MARIA", {"maria"}, user_fields},
        {"/api/v1/users", "admin%20mail", {"admin", "mail"}, user_fields},
        {"/api/v1/categories", "e", {"e"}, {"name"}},
    };
    for (auto& b : backends()) {
        for (const auto& r : table) {
            BOOST_TEST_CONTEXT(b.name << " " << r.list << " q=" << r.q) {
                const auto expected = searched(every(b.port(), r.list), r.words, r.fields);
                const std::string sep = r.list.find('?') == std::string::npos ? "?" : "&";
                const auto all = get(b.port(), r.list + sep + "q=" + r.q + "&limit=100");
                BOOST_TEST(all.status == 200u);
                BOOST_TEST(ids_of(all.json()) == ids(expected), boost::test_tools::per_element());
                BOOST_TEST(all.header("x-total-count") == std::to_string(expected.size()));
                // With a sort and a page: the total still counts every match.
                const auto page =
                    get(b.port(), r.list + sep + "q=" + r.q + "&sortBy=id&order=desc&limit=2&offset=1");
                BOOST_TEST(page.status == 200u);
                BOOST_TEST(page.header("x-total-count") == std::to_string(expected.size()));
                std::vector<std::int64_t> reversed = ids(expected);
                std::reverse(reversed.begin(), reversed.end());
                const std::vector<std::int64_t> slice(
                    reversed.begin() + std::min<std::ptrdiff_t>(1, std::ssize(reversed)),
                    reversed.begin() + std::min<std::ptrdiff_t>(3, std::ssize(reversed))
                );
                BOOST_TEST(ids_of(page.json()) == slice, boost::test_tools::per_element());
            }
        }
        BOOST_TEST_CONTEXT(b.name) {
            // Known matches on the seed, and an empty q that matches everything.
            BOOST_TEST(get(b.port(), "/api/v1/products?q=hoodie").header("x-total-count") != "0");
            BOOST_TEST(
                ids_of(get(b.port(), "/api/v1/users?q=maria").json()) == std::vector<std::int64_t>({2}),
                boost::test_tools::per_element()
            );
            BOOST_TEST(get(b.port(), "/api/v1/products?q=").header("x-total-count") == "51");
            BOOST_TEST(get(b.port(), "/api/v1/products?q=%20").header("x-total-count") == "51");
        }
    }
}

BOOST_AUTO_TEST_CASE(select_keeps_id_and_the_named_fields_on_lists_and_items) {
    struct row {
        std::string target;
        std::vector<std::string> keys;
    };
    const std::vector<row> lists{
        {"/api/v1/products?select=title,price&limit=3", {"id", "title", "price"}},
        {"/api/v1/products?select=price,title&title=hoodie", {"id", "title", "price"}},
        {"/api/v1/products?select=id", {"id"}},
        {"/api/v1/products?select=category&sortBy=price", {"id", "category"}},
        {"/api/v1/products?select=%20images%20,slug", {"id", "slug", "images"}},
        {"/api/v1/categories?select=name", {"id", "name"}},
        {"/api/v1/categories/3/products?select=updatedAt", {"id", "updatedAt"}},
        {"/api/v1/products/2/related?select=description&limit=2", {"id", "description"}},
        {"/api/v1/users?select=email,role", {"id", "email", "role"}},
    };
    for (auto& b : backends()) {
        for (const auto& r : lists) {
            BOOST_TEST_CONTEXT(b.name << " " << r.target) {
                const auto reply = get(b.port(), r.target);
                BOOST_TEST(reply.status == 200u);
                const auto list = reply.json();
                BOOST_TEST_REQUIRE(!list.as_array().empty());
                for (const auto& item : list.as_array()) {
                    BOOST_TEST(keys_of(item) == r.keys, boost::test_tools::per_element());
                }
            }
        }
        BOOST_TEST_CONTEXT(b.name) {
            const std::string base = "http://127.0.0.1:" + std::to_string(b.port());
            const std::vector<std::pair<std::string, std::string>> items{
                {"/api/v1/products/1?select=price,title",
                 R"({"id":1,"title":"Majestic Mountain Graphic T-Shirt","price":44})"},
                {"/api/v1/products/slug/classic-red-pullover-hoodie?select=title",
                 R"({"id":2,"title":"Classic Red Pullover Hoodie"})"},
                {"/api/v1/products/3?select=id", R"({"id":3})"},
                {"/api/v1/categories/1?select=name", R"({"id":1,"name":"Clothes"})"},
                {"/api/v1/categories/slug/shoes?select=slug,image",
                 R"({"id":4,"slug":"shoes","image":")" + base + R"(/api/v1/images/categories/4.png"})"},
                {"/api/v1/users/2?select=email", R"({"id":2,"email":"maria@mail.com"})"},
                {"/api/v1/users/1?select=name&sortBy=whatever", R"({"id":1,"name":"Jhon"})"},
                {"/api/v1/products?select=price&price=44", R"([{"id":1,"price":44},{"id":19,"price":44}])"},
                {"/api/v1/users?select=name&sortBy=name&order=desc",
                 R"([{"id":2,"name":"Maria"},{"id":1,"name":"Jhon"},{"id":3,"name":"Admin"}])"},
            };
            for (const auto& [target, body] : items) {
                BOOST_TEST_CONTEXT(target) {
                    const auto reply = get(b.port(), target);
                    BOOST_TEST(reply.status == 200u);
                    BOOST_TEST(reply.body == body);
                }
            }
            // A product's category, when selected, is the whole category.
            const auto with_category = get(b.port(), "/api/v1/products/1?select=category").json();
            BOOST_TEST(
                keys_of(with_category.at("category")) ==
                    std::vector<std::string>({"id", "name", "slug", "image", "creationAt", "updatedAt"}),
                boost::test_tools::per_element()
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_list_parameters_are_400_naming_the_allowed_values) {
    struct row {
        std::string target;
        std::vector<std::string> messages;  // all of them, in order
    };
    const std::vector<row> table{
        {"/api/v1/products?sortBy=name", {product_sorts}},
        {"/api/v1/products?sortBy=Title", {product_sorts}},
        {"/api/v1/products?sortBy=", {product_sorts}},
        {"/api/v1/products?sortBy=id&sortBy=price", {"sortBy must be given at most once"}},
        {"/api/v1/products?order=DESC", {orders}},
        {"/api/v1/products?order=up&sortBy=price", {orders}},
        {"/api/v1/products?q=a&q=b", {"q must be given at most once"}},
        {"/api/v1/products?select=password", {product_selects}},
        {"/api/v1/products?select=title,", {product_selects}},
        {"/api/v1/products?select=", {product_selects}},
        {"/api/v1/products?select=category.name", {product_selects}},
        {"/api/v1/categories?sortBy=title", {category_sorts}},
        {"/api/v1/categories?select=title", {category_selects}},
        {"/api/v1/categories?order=random", {orders}},
        {"/api/v1/categories?offset=-1", {"offset must not be less than 0"}},
        {"/api/v1/categories/1/products?sortBy=name", {product_sorts}},
        {"/api/v1/categories/1/products?select=name", {product_selects}},
        {"/api/v1/products/2/related?sortBy=email", {product_sorts}},
        {"/api/v1/products/2/related?limit=0", {"limit must not be less than 1"}},
        {"/api/v1/products/slug/classic-red-pullover-hoodie/related?order=x", {orders}},
        {"/api/v1/users?sortBy=title", {user_sorts}},
        {"/api/v1/users?sortBy=password", {user_sorts}},
        {"/api/v1/users?select=password", {user_selects}},
        // Items take select only; a bad one is 400 before the lookup (even for what does not exist).
        {"/api/v1/products/1?select=nope", {product_selects}},
        {"/api/v1/products/999?select=nope", {product_selects}},
        {"/api/v1/products/slug/no-such-product?select=name", {product_selects}},
        {"/api/v1/categories/1?select=price", {category_selects}},
        {"/api/v1/categories/slug/shoes?select=title", {category_selects}},
        {"/api/v1/users/1?select=password", {user_selects}},
        {"/api/v1/users/1?select=email&select=name", {"select must be given at most once"}},
        // Every problem at once: the page's, the filters', then the list options'.
        {"/api/v1/products?limit=0&price=abc&sortBy=x&select=y",
         {"limit must not be less than 1",
          "price must be a number conforming to the specified constraints",
          product_sorts,
          product_selects}},
        {"/api/v1/users?offset=x&order=sideways&q=a&q=b",
         {"offset must be a number conforming to the specified constraints",
          orders,
          "q must be given at most once"}},
    };
    for (auto& b : backends()) {
        for (const auto& r : table) {
            BOOST_TEST_CONTEXT(b.name << " " << r.target) {
                const auto reply = get(b.port(), r.target);
                BOOST_TEST(reply.status == 400u);
                BOOST_TEST(reply.header("content-type") == "application/json; charset=utf-8");
                BOOST_TEST(reply.json().at("error").as_string() == "Bad Request");
                BOOST_TEST(reply.json().at("statusCode").as_int64() == 400);
                BOOST_TEST(messages_of(reply) == r.messages, boost::test_tools::per_element());
                BOOST_TEST(reply.header("x-total-count").empty());
                BOOST_TEST(reply.header("link").empty());
            }
        }
        BOOST_TEST_CONTEXT(b.name) {
            // Single items ignore the list-only parameters; unknown ids stay 404 with a valid select.
            BOOST_TEST(get(b.port(), "/api/v1/products/1?sortBy=nothing&order=x&q=a&q=b").status == 200u);
            BOOST_TEST(get(b.port(), "/api/v1/products/999?select=title").status == 404u);
            BOOST_TEST(get(b.port(), "/api/v1/categories/99/products?sortBy=name&order=desc").status == 400u);
            BOOST_TEST(get(b.port(), "/api/v1/categories/99/products?sortBy=title").status == 404u);
            BOOST_TEST(get(b.port(), "/api/v1/products/999/related?q=x").status == 404u);
        }
    }
}

BOOST_AUTO_TEST_CASE(cors_exposes_the_list_headers_and_preflights_allow_conditional_and_sandbox_headers) {
    for (auto& b : backends()) {
        BOOST_TEST_CONTEXT(b.name) {
            for (const std::string target :
                 {"/api/v1/products",
                  "/api/v1/products?sortBy=price",
                  "/api/v1/users/1",
                  "/api/v1/nothing",
                  "/api/v1/images/products/1-1.png"}) {
                BOOST_TEST_CONTEXT(target) {
                    BOOST_TEST(get(b.port(), target).header("access-control-expose-headers") == exposed);
                }
            }
            const auto preflight =
                send_request(b.port(), {.method = "OPTIONS", .target = "/api/v1/products"});
            BOOST_TEST(preflight.status == 204u);
            BOOST_TEST(
                preflight.header("access-control-allow-headers") ==
                "Content-Type, Authorization, api_key, If-None-Match, X-Sandbox, Idempotency-Key, "
                "Last-Event-ID"
            );
        }
    }
}

// On a server of its own: totals and links follow writes at once (the cached lists are per revision).
BOOST_AUTO_TEST_CASE(totals_follow_writes) {
    running_server server(list_config("memory"));
    const auto port = server.port();
    BOOST_TEST(get(port, "/api/v1/products").header("x-total-count") == "51");
    const auto created = post_json(
        port,
        "/api/v1/products",
        R"({"title":"Zebra Classic Mug","price":39,"description":"A mug","categoryId":5,)"
        R"("images":["https://placehold.co/600x400"]})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u);
    const auto id = created.json().at("id").as_int64();
    const auto all = get(port, "/api/v1/products?offset=50");
    BOOST_TEST(all.header("x-total-count") == "52");
    BOOST_TEST(ids_of(all.json()) == std::vector<std::int64_t>({51, id}), boost::test_tools::per_element());
    BOOST_TEST(get(port, "/api/v1/products?q=zebra").header("x-total-count") == "1");
    BOOST_TEST(get(port, "/api/v1/categories/5/products").header("x-total-count") == "8");
    BOOST_TEST(get(port, "/api/v1/products/45/related").header("x-total-count") == "7");
    // Sorted by title, the new product is last; by price it sits among the ties at 39 by its id.
    const auto by_title = ids_of(get(port, "/api/v1/products?sortBy=title&order=desc&limit=1").json());
    BOOST_TEST(by_title == std::vector<std::int64_t>({id}), boost::test_tools::per_element());
    const auto by_price = ids_of(get(port, "/api/v1/products?sortBy=price&limit=100").json());
    const std::vector<std::int64_t> ties{15, 25, 35, 36, 44, id};
    BOOST_TEST((std::search(by_price.begin(), by_price.end(), ties.begin(), ties.end()) != by_price.end()));
    BOOST_TEST(
        get(port, "/api/v1/products?offset=50&limit=1").header("link").find("rel=\"next\"") !=
        std::string::npos
    );
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace lists_e2e_file
