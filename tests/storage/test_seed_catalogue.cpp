// Seed catalogue contract: the facts clients of the public store service check (ids, category ranges,
// prices, titles, slugs, images, descriptions) and product pagination, on every catalogue adapter.

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/slug.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/factory.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;

namespace {

using storefront::test::memory_backend;
using storefront::test::sqlite_backend;
using backends = boost::mpl::list<memory_backend, sqlite_backend>;

template <class Backend>
std::vector<core::product> all_products() {
    const auto store = storage::make_catalogue_store(Backend::config());
    return store->list_products({}, {0, core::max_page_limit});
}

template <class Predicate>
std::vector<std::int64_t> ids_where(const std::vector<core::product>& products, Predicate keep) {
    std::vector<std::int64_t> ids;
    for (const auto& p : products) {
        if (keep(p)) {
            ids.push_back(p.id);
        }
    }
    return ids;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// Seed pictures are storefront's own, stored as paths under /api/v1/images/ (served with the public URL).
bool is_own_image(const std::string& url) {
    return url.starts_with("/api/v1/images/") && url.ends_with(".png");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(seed_catalogue)

BOOST_AUTO_TEST_CASE_TEMPLATE(holds_51_products_in_id_order, Backend, backends) {
    const auto store = storage::make_catalogue_store(Backend::config());
    BOOST_TEST(store->count_products({}) == 51u);
    const auto products = store->list_products({}, {0, 100});
    BOOST_TEST_REQUIRE(products.size() == 51u);
    for (std::size_t i = 0; i < products.size(); ++i) {
        BOOST_TEST(products[i].id == static_cast<std::int64_t>(i + 1));
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(categories_are_the_five_seed_categories, Backend, backends) {
    struct expected {
        std::int64_t id;
        const char* name;
        const char* slug;
    };
    const expected table[] = {
        {1, "Clothes", "clothes"},
        {2, "Electronics", "electronics"},
        {3, "Furniture", "furniture"},
        {4, "Shoes", "shoes"},
        {5, "Miscellaneous", "miscellaneous"},
    };
    const auto categories = storage::make_catalogue_store(Backend::config())->list_categories();
    BOOST_TEST_REQUIRE(categories.size() == std::size(table));
    for (std::size_t i = 0; i < categories.size(); ++i) {
        BOOST_TEST_CONTEXT("category " << table[i].id) {
            BOOST_TEST(categories[i].id == table[i].id);
            BOOST_TEST(categories[i].name == table[i].name);
            BOOST_TEST(categories[i].slug == table[i].slug);
            BOOST_TEST(is_own_image(categories[i].image));
            BOOST_TEST(categories[i].created_at > 0);
            BOOST_TEST(categories[i].updated_at >= categories[i].created_at);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(products_fall_in_their_category_ranges, Backend, backends) {
    struct range {
        std::int64_t first;
        std::int64_t last;
        std::int64_t category;
    };
    const range table[] = {{1, 17, 1}, {18, 27, 2}, {28, 34, 3}, {35, 44, 4}, {45, 51, 5}};
    const auto products = all_products<Backend>();
    const auto categories = storage::make_catalogue_store(Backend::config())->list_categories();
    for (const auto& p : products) {
        BOOST_TEST_CONTEXT("product " << p.id) {
            const auto r = std::find_if(std::begin(table), std::end(table), [&](const range& r) {
                return p.id >= r.first && p.id <= r.last;
            });
            BOOST_TEST_REQUIRE(r != std::end(table));
            BOOST_TEST(p.product_category.id == r->category);
            const auto& c = categories[static_cast<std::size_t>(r->category - 1)];
            BOOST_TEST(p.product_category.name == c.name);
            BOOST_TEST(p.product_category.slug == c.slug);
            BOOST_TEST(p.product_category.image == c.image);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(price_and_title_facts_clients_check, Backend, backends) {
    const auto products = all_products<Backend>();
    BOOST_TEST(
        ids_where(products, [](const auto& p) { return p.price == 44; }) ==
            (std::vector<std::int64_t>{1, 19}),
        boost::test_tools::per_element()
    );
    BOOST_TEST(
        ids_where(products, [](const auto& p) { return p.price >= 90 && p.price <= 100; }) ==
            (std::vector<std::int64_t>{4, 8, 24}),
        boost::test_tools::per_element()
    );
    BOOST_TEST(
        ids_where(
            products, [](const auto& p) { return lower(p.title).find("hoodie") != std::string::npos; }
        ) == (std::vector<std::int64_t>{2, 3}),
        boost::test_tools::per_element()
    );
    for (const auto& p : products) {
        BOOST_TEST_CONTEXT("product " << p.id) {
            BOOST_TEST(p.price >= 10);
            BOOST_TEST(p.price <= 98);
            BOOST_TEST(p.price == static_cast<double>(static_cast<int>(p.price)));
        }
    }
    BOOST_TEST(products[0].title == "Majestic Mountain Graphic T-Shirt");
    BOOST_TEST(products[50].title == "Elegant Glass Tumbler Set");
    BOOST_TEST(products[50].price == 50);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(slugs_follow_titles_except_product_42, Backend, backends) {
    const auto products = all_products<Backend>();
    BOOST_TEST(products[41].slug == "elegant-patent-leather-peep-toe-pumps");
    BOOST_TEST(products[0].slug == "majestic-mountain-graphic-t-shirt");
    std::set<std::string> slugs;
    for (const auto& p : products) {
        BOOST_TEST_CONTEXT("product " << p.id) {
            if (p.id != 42) {
                BOOST_TEST(p.slug == core::make_slug(p.title));
            }
            BOOST_TEST(slugs.insert(p.slug).second);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(images_descriptions_and_timestamps, Backend, backends) {
    const auto products = all_products<Backend>();
    std::set<std::string> descriptions;
    std::set<std::string> images;
    for (const auto& p : products) {
        BOOST_TEST_CONTEXT("product " << p.id) {
            BOOST_TEST(p.images.size() >= 2u);
            BOOST_TEST(p.images.size() <= 3u);
            for (const auto& url : p.images) {
                BOOST_TEST(is_own_image(url), url);
                BOOST_TEST(images.insert(url).second, url);
            }
            BOOST_TEST(!p.description.empty());
            BOOST_TEST(descriptions.insert(p.description).second);
            BOOST_TEST(p.created_at > 0);
            BOOST_TEST(p.updated_at >= p.created_at);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(product_pages, Backend, backends) {
    const auto store = storage::make_catalogue_store(Backend::config());
    struct page_case {
        std::size_t offset;
        std::size_t limit;
        std::size_t size;
        std::int64_t first_id;
    };
    const page_case table[] = {
        {0, 10, 10, 1},
        {10, 10, 10, 11},
        {50, 10, 1, 51},
        {0, 100, 51, 1},
        {51, 10, 0, 0},
        {1000, 100, 0, 0},
        {core::max_page_offset, 100, 0, 0},
    };
    for (const auto& c : table) {
        BOOST_TEST_CONTEXT("offset " << c.offset << " limit " << c.limit) {
            const auto page = store->list_products({}, {c.offset, c.limit});
            BOOST_TEST_REQUIRE(page.size() == c.size);
            for (std::size_t i = 0; i < page.size(); ++i) {
                BOOST_TEST(page[i].id == c.first_id + static_cast<std::int64_t>(i));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(revision_is_stable_without_changes, Backend, backends) {
    const auto store = storage::make_catalogue_store(Backend::config());
    const auto first = store->revision();
    (void)store->list_products({}, {0, 10});
    BOOST_TEST(store->revision() == first);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(storage_factory)

BOOST_AUTO_TEST_CASE(unknown_backend_is_refused) {
    storage::storage_config config;
    config.backend = "mongodb";
    BOOST_CHECK_THROW((void)storage::make_catalogue_store(config), std::invalid_argument);
    BOOST_CHECK_THROW((void)storage::make_user_store(config), std::invalid_argument);
    BOOST_CHECK_THROW((void)storage::make_location_store(config), std::invalid_argument);
    try {
        (void)storage::make_catalogue_store(config);
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(std::string(e.what()) == "unknown storage backend: mongodb");
    }
}

BOOST_AUTO_TEST_SUITE_END()
