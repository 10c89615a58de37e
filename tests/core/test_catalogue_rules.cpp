// Catalogue input rules: path ids, URLs, product/category/user bodies (every message at once, the public
// service's texts) and the product filters.
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/catalogue_rules.hpp"

using namespace storefront::core;
using kind = input_value::kind;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace catalogue_rules_file {
namespace {

input_value str(std::string s) {
    return {kind::string, std::move(s), {}};
}
input_value num(std::string s) {
    return {kind::number, std::move(s), {}};
}
input_value form(std::string s) {
    return {kind::text, std::move(s), {}};
}
input_value array(std::vector<input_value> items) {
    return {kind::array, "", std::move(items)};
}

input_fields valid_product() {
    return {
        {"title", str("Blue Mug")},
        {"price", num("12.5")},
        {"description", str("A mug")},
        {"categoryId", num("2")},
        {"images", array({str("https://placehold.co/600x400")})},
    };
}

std::vector<std::string> messages_of(const validation_errors& e) {
    return e.messages;
}

query_params params(std::vector<std::pair<std::string, std::string>> pairs) {
    query_params out;
    for (auto& [name, value] : pairs) {
        out.push_back({name, value});
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalogue_rules)

BOOST_AUTO_TEST_CASE(path_ids_are_integers_that_fit_int64) {
    BOOST_TEST(parse_path_id("1").value() == 1);
    BOOST_TEST(parse_path_id("-3").value() == -3);
    BOOST_TEST(parse_path_id("9223372036854775807").value() == 9223372036854775807LL);
    for (const std::string bad :
         {"", "abc", "1.5", "1e3", "+1", " 1", "9223372036854775808", "0x10", "1|2"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!parse_path_id(bad));
        }
    }
}

BOOST_AUTO_TEST_CASE(urls_as_the_public_service_accepts_them) {
    for (const std::string good :
         {"https://placehold.co/600x400",
          "http://x.com/a.png",
          "x.com/a.png",
          "https://a.b.example.org:8443/p?q=1#f",
          "http://127.0.0.1:8080/api/v1/files/a.png",
          "http://localhost:8080/a.png",
          "HTTPS://EXAMPLE.COM"}) {
        BOOST_TEST_CONTEXT(good) {
            BOOST_TEST(is_url(good));
        }
    }
    for (const std::string bad :
         {"",
          "notaurl",
          "ftp://x.com/a",
          "javascript:alert(1)",
          "http://",
          "http://x",
          "http://x.c",
          "http://x.com:99999/",
          "http://x.com:/",
          "https://user:pw@x.com/",
          "http://x .com/",
          "http://x.com/a b",
          "http://-x.com/",
          "http://x.com/<script>",
          "http://300.1.1.1/"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!is_url(bad));
        }
    }
    BOOST_TEST(!is_url("http://x.com/" + std::string(2048, 'a')));
}

BOOST_AUTO_TEST_CASE(a_valid_product_draft) {
    const auto draft = read_product_draft(valid_product());
    BOOST_TEST_REQUIRE(draft.has_value());
    BOOST_TEST(draft->title == "Blue Mug");
    BOOST_TEST(draft->price == 12.5);
    BOOST_TEST(draft->category_id == 2);
    BOOST_TEST(draft->images.size() == 1u);
}

BOOST_AUTO_TEST_CASE(form_fields_read_as_numbers_and_a_single_image) {
    const input_fields fields{
        {"title", form("Mug")},
        {"price", form("3")},
        {"description", form("d")},
        {"categoryId", form("1")},
        {"images", form("https://x.com/a.png")}};
    const auto draft = read_product_draft(fields);
    BOOST_TEST_REQUIRE(draft.has_value());
    BOOST_TEST(draft->price == 3.0);
    BOOST_TEST(draft->images == std::vector<std::string>{"https://x.com/a.png"});
}

BOOST_AUTO_TEST_CASE(an_empty_product_body_reports_every_field) {
    const auto draft = read_product_draft({});
    BOOST_TEST_REQUIRE(!draft.has_value());
    const std::vector<std::string> expected{
        "title should not be empty",
        "title must be a string",
        "price should not be empty",
        "price must be a positive number",
        "description should not be empty",
        "description must be a string",
        "categoryId should not be empty",
        "categoryId must be a number conforming to the specified constraints",
        "images must be an array",
    };
    BOOST_TEST(messages_of(draft.error()) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(product_field_rules) {
    struct row {
        std::string field;
        input_value value;
        std::string message;
    };
    const std::vector<row> rows{
        {"title", num("5"), "title must be a string"},
        {"title", str(""), "title should not be empty"},
        {"title", str(std::string(201, 'a')), "title must be shorter than or equal to 200 characters"},
        {"title", form("\xC3"), "title must be a valid UTF-8 string"},
        {"price", str("10"), "price must be a number conforming to the specified constraints"},
        {"price", num("0"), "price must be a positive number"},
        {"price", num("-1"), "price must be a positive number"},
        {"price", num("1000000000.01"), "price must not be greater than 1000000000"},
        {"price", num("1.005"), "price must have at most 2 decimal places"},
        {"categoryId", str("2"), "categoryId must be a number conforming to the specified constraints"},
        {"categoryId", num("1.5"), "categoryId must be a number conforming to the specified constraints"},
        {"images", str("https://x.com/a.png"), "images must be an array"},
        {"images", array({}), "images must contain at least 1 elements"},
        {"images", array({str("notaurl")}), "each value in images must be a URL address"},
        {"images", array({num("1")}), "each value in images must be a URL address"},
        {"images",
         array(std::vector<input_value>(11, str("https://x.com/a.png"))),
         "images must contain no more than 10 elements"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.field << " = " << r.value.text) {
            auto fields = valid_product();
            fields[r.field] = r.value;
            const auto draft = read_product_draft(fields);
            BOOST_TEST_REQUIRE(!draft.has_value());
            BOOST_TEST(
                messages_of(draft.error()) == std::vector<std::string>{r.message},
                boost::test_tools::per_element()
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(a_product_patch_takes_any_subset) {
    const auto none = read_product_patch({});
    BOOST_TEST_REQUIRE(none.has_value());
    BOOST_TEST(!none->title);
    BOOST_TEST(!none->images);
    const auto some = read_product_patch({{"price", num("20")}, {"title", {kind::null, "", {}}}});
    BOOST_TEST_REQUIRE(some.has_value());
    BOOST_TEST(some->price.value() == 20.0);
    BOOST_TEST(!some->title);  // null is absent, as class-validator's @IsOptional
    const auto bad = read_product_patch({{"price", num("-2")}, {"categoryId", str("x")}});
    BOOST_TEST_REQUIRE(!bad.has_value());
    BOOST_TEST(bad.error().messages.size() == 2u);
}

BOOST_AUTO_TEST_CASE(category_bodies) {
    const auto ok = read_category_draft({{"name", str("Toys")}, {"image", str("https://x.com/t.png")}});
    BOOST_TEST_REQUIRE(ok.has_value());
    BOOST_TEST(ok->name == "Toys");
    const auto bad = read_category_draft({{"name", num("1")}, {"image", str("notaurl")}});
    BOOST_TEST_REQUIRE(!bad.has_value());
    BOOST_TEST(
        messages_of(bad.error()) ==
            (std::vector<std::string>{"name must be a string", "image must be a URL address"}),
        boost::test_tools::per_element()
    );
    const auto missing = read_category_draft({});
    BOOST_TEST_REQUIRE(!missing.has_value());
    BOOST_TEST(missing.error().messages.front() == "name should not be empty");
    const auto patch = read_category_patch({{"name", str("New")}});
    BOOST_TEST_REQUIRE(patch.has_value());
    BOOST_TEST(patch->name.value() == "New");
    BOOST_TEST(!patch->image);
}

BOOST_AUTO_TEST_CASE(user_registration_rules) {
    const input_fields good{
        {"email", str("New.User@Example.com")},
        {"name", str("New")},
        {"password", str("abc123")},
        {"avatar", str("https://x.com/a.png")}};
    const auto ok = read_user_registration(good);
    BOOST_TEST_REQUIRE(ok.has_value());
    BOOST_TEST(ok->email == "new.user@example.com");
    BOOST_TEST(ok->role == "customer");

    struct row {
        std::string field;
        input_value value;
        std::string message;
    };
    const std::vector<row> rows{
        {"email", str("nope"), "email must be an email"},
        {"password", str("ab-12"), "password must contain only letters and numbers"},
        {"password", str("ab1"), "password must be longer than or equal to 4 characters"},
        {"password", str(std::string(129, 'a')), "password must be shorter than or equal to 128 characters"},
        {"avatar", str("notaurl"), "avatar must be a URL address"},
        {"role", str("root"), "role must be one of the following values: admin, customer"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.field << " = " << r.value.text) {
            auto fields = good;
            fields[r.field] = r.value;
            const auto reg = read_user_registration(fields);
            BOOST_TEST_REQUIRE(!reg.has_value());
            BOOST_TEST(
                messages_of(reg.error()) == std::vector<std::string>{r.message},
                boost::test_tools::per_element()
            );
        }
    }
    auto admin = good;
    admin["role"] = str("admin");
    BOOST_TEST(read_user_registration(admin)->role == "admin");
}

BOOST_AUTO_TEST_CASE(user_updates_are_partial) {
    const auto update = read_user_update({{"name", str("Renamed")}});
    BOOST_TEST_REQUIRE(update.has_value());
    BOOST_TEST(update->name.value() == "Renamed");
    BOOST_TEST(!update->email);
    BOOST_TEST(!update->password);
    BOOST_TEST(!read_user_update({{"email", str("x")}}).has_value());
}

BOOST_AUTO_TEST_CASE(product_filters) {
    const auto all = parse_product_filter(params({{"offset", "0"}, {"other", "x"}}));
    BOOST_TEST_REQUIRE(all.has_value());
    BOOST_TEST(all->empty());

    const auto f = parse_product_filter(params(
        {{"title", "Hoodie"},
         {"price_min", "10"},
         {"price_max", "50"},
         {"categoryId", "1"},
         {"categorySlug", "clothes"}}
    ));
    BOOST_TEST_REQUIRE(f.has_value());
    BOOST_TEST(f->title.value() == "Hoodie");
    BOOST_TEST(f->price_min.value() == 10.0);
    BOOST_TEST(f->category_id.value() == 1);

    struct row {
        std::vector<std::pair<std::string, std::string>> query;
        std::string message;
    };
    const std::vector<row> rows{
        {{{"price", "abc"}}, "price must be a number conforming to the specified constraints"},
        {{{"price_min", "-1"}}, "price_min must not be less than 0"},
        {{{"price_max", ""}}, "price_max must be a number conforming to the specified constraints"},
        {{{"price_min", "9"}, {"price_max", "3"}}, "price_min must not be greater than price_max"},
        {{{"categoryId", "x"}}, "categoryId must be a number conforming to the specified constraints"},
        {{{"title", "a"}, {"title", "b"}}, "title must be given at most once"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.message) {
            const auto bad = parse_product_filter(params(r.query));
            BOOST_TEST_REQUIRE(!bad.has_value());
            BOOST_TEST(
                messages_of(bad.error()) == std::vector<std::string>{r.message},
                boost::test_tools::per_element()
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(filter_matching) {
    product p;
    p.title = "Classic Red Pullover [Hoodie] | café";
    p.price = 44;
    p.product_category.id = 1;
    p.product_category.slug = "clothes";
    const auto with = [](auto set) {
        product_filter f;
        set(f);
        return f;
    };
    BOOST_TEST(matches(product_filter{}, p));
    BOOST_TEST(matches(with([](auto& f) { f.title = "HOODIE"; }), p));
    BOOST_TEST(matches(with([](auto& f) { f.title = "[hoodie] |"; }), p));
    BOOST_TEST(matches(with([](auto& f) { f.title = "café"; }), p));
    BOOST_TEST(!matches(with([](auto& f) { f.title = "hood%"; }), p));  // literal, no wildcards
    BOOST_TEST(matches(with([](auto& f) { f.price = 44; }), p));
    BOOST_TEST(!matches(with([](auto& f) { f.price = 44.01; }), p));
    BOOST_TEST(matches(with([](auto& f) { f.price_min = 44; }), p));
    BOOST_TEST(!matches(with([](auto& f) { f.price_max = 43.99; }), p));
    BOOST_TEST(!matches(with([](auto& f) { f.category_id = 2; }), p));
    BOOST_TEST(!matches(
        with([](auto& f) {
            f.category_id = 1;
            f.category_slug = "shoes";
        }),
        p
    ));
}

// Stock (issue 42): optional on create (none to sell without it) and update, an integer from 0 to 1,000,000.
BOOST_AUTO_TEST_CASE(product_stock) {
    BOOST_TEST(read_product_draft(valid_product())->stock == 0);
    auto fields = valid_product();
    fields["stock"] = num("25");
    BOOST_TEST(read_product_draft(fields)->stock == 25);
    for (const auto& bad : {num("-1"), num("1.5"), num("1000001"), str("5")}) {
        BOOST_TEST_CONTEXT(bad.text) {
            fields["stock"] = bad;
            const auto r = read_product_draft(fields);
            BOOST_TEST_REQUIRE(!r);
            BOOST_TEST(
                messages_of(r.error()) ==
                std::vector<std::string>{"stock must be an integer from 0 to 1000000"}
            );
        }
    }
    BOOST_TEST(!read_product_patch({})->stock.has_value());
    BOOST_TEST((read_product_patch({{"stock", num("0")}})->stock == std::optional<std::int64_t>(0)));
    BOOST_TEST(!read_product_patch({{"stock", num("-3")}}));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace catalogue_rules_file
