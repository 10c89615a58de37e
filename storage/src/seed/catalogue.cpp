// Seed categories and products: titles, prices and category ranges as the public service serves them,
// with descriptions and image URLs of our own.

#include "seed/catalogue.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/slug.hpp"

namespace storefront::storage::detail {
namespace {

struct seed_category {
    std::int64_t id;
    std::string_view name;
};

constexpr std::array<seed_category, 5> category_table{{
    {1, "Clothes"},
    {2, "Electronics"},
    {3, "Furniture"},
    {4, "Shoes"},
    {5, "Miscellaneous"},
}};

struct seed_product {
    std::int64_t id;
    std::int64_t category_id;
    std::string_view title;
    int price;
    std::string_view description;
};

// clang-format off
constexpr std::array<seed_product, 51> product_table{{
    {1, 1, "Majestic Mountain Graphic T-Shirt", 44,
     "A soft cotton tee printed with a bold line drawing of a snow-capped mountain range. Cut for an easy, "
     "everyday fit that layers well under a jacket."},
    {2, 1, "Classic Red Pullover Hoodie", 10,
     "A warm pullover hoodie in bright red with a lined hood and a roomy front pocket. Brushed fleece on the "
     "inside keeps chilly evenings comfortable."},
    {3, 1, "Classic Heather Gray Hoodie", 69,
     "A heather gray hoodie made from a cotton blend that stays soft wash after wash. Ribbed cuffs and hem "
     "hold their shape through daily wear."},
    {4, 1, "Classic Grey Hooded Sweatshirt", 90,
     "A midweight grey hooded sweatshirt with a drawstring hood and a kangaroo pocket. It works as well for "
     "a morning run as for a lazy weekend."},
    {5, 1, "Classic Black Hooded Sweatshirt", 79,
     "A black hooded sweatshirt with a clean, logo-free front that pairs with almost anything. The heavier "
     "knit gives it a structured drape."},
    {6, 1, "Classic Comfort Fit Joggers", 25,
     "Relaxed joggers with an elastic waistband and tapered legs that finish in snug cuffs. Made for "
     "lounging, travel and light workouts."},
    {7, 1, "Classic Comfort Drawstring Joggers", 79,
     "Drawstring joggers in a stretchy knit that moves with you. Deep side pockets hold a phone and keys "
     "securely."},
    {8, 1, "Classic Red Jogger Sweatpants", 98,
     "Red sweatpants with a jogger cut, soft fleece lining and an adjustable drawcord. A bright choice for "
     "cold-weather training."},
    {9, 1, "Classic Navy Blue Baseball Cap", 61,
     "A six-panel navy cap with a curved brim and an adjustable strap at the back. Breathable eyelets keep "
     "it cool on sunny days."},
    {10, 1, "Classic Blue Baseball Cap", 86,
     "A mid-blue baseball cap in sturdy cotton twill with a pre-curved peak. One size fits most thanks to "
     "the metal buckle closure."},
    {11, 1, "Classic Red Baseball Cap", 35,
     "A red cotton cap with a structured crown that holds its shape. Simple enough for everyday wear, bright "
     "enough to spot in a crowd."},
    {12, 1, "Classic Black Baseball Cap", 58,
     "A black baseball cap with tonal stitching and a moisture-wicking sweatband. Easy to match with any "
     "outfit."},
    {13, 1, "Classic Olive Chino Shorts", 84,
     "Olive chino shorts in a lightweight twill with a flat front and a comfortable mid-thigh length. Ideal "
     "for warm days in town or at the beach."},
    {14, 1, "Classic High-Waisted Athletic Shorts", 43,
     "High-waisted athletic shorts with a wide, supportive waistband and quick-drying fabric. Built for gym "
     "sessions, yoga and running."},
    {15, 1, "Classic White Crew Neck T-Shirt", 39,
     "A crisp white crew neck tee in breathable combed cotton. A wardrobe staple that looks sharp on its own "
     "or under an open shirt."},
    {16, 1, "Classic White Tee - Timeless Style and Comfort", 73,
     "A relaxed white tee with a slightly longer body and reinforced seams. Soft from the first wear and "
     "made to last for years."},
    {17, 1, "Classic Black T-Shirt", 35,
     "A black cotton t-shirt with a smooth finish that resists fading. Pairs with jeans, chinos or a "
     "blazer."},
    {18, 2, "Sleek White & Orange Wireless Gaming Controller", 69,
     "A wireless controller in white with orange accents, textured grips and responsive triggers. Its "
     "rechargeable battery lasts through long gaming sessions."},
    {19, 2, "Sleek Wireless Headphone & Inked Earbud Set", 44,
     "A bundle of wireless over-ear headphones and matching earbuds with an ink-pattern finish. Switch "
     "between them for listening at home and on the move."},
    {20, 2, "Sleek Comfort-Fit Over-Ear Headphones", 28,
     "Over-ear headphones with memory-foam cushions and a padded headband for hours of comfortable "
     "listening. A folding design makes them easy to pack."},
    {21, 2, "Efficient 2-Slice Toaster", 48,
     "A compact two-slot toaster with seven browning levels plus defrost and reheat buttons. A removable "
     "crumb tray makes cleaning quick."},
    {22, 2, "Sleek Wireless Computer Mouse", 10,
     "A slim wireless mouse with quiet clicks and a smooth optical sensor. It pairs in seconds and runs for "
     "months on a single battery."},
    {23, 2, "Sleek Modern Laptop with Ambient Lighting", 43,
     "A thin laptop whose keyboard and edges glow with adjustable ambient light. A bright display and "
     "all-day battery suit work and play alike."},
    {24, 2, "Sleek Modern Laptop for Professionals", 97,
     "A lightweight aluminium laptop with a fast processor, generous memory and a colour-accurate screen. "
     "Designed for demanding professional workloads away from the desk."},
    {25, 2, "Stylish Red & Silver Over-Ear Headphones", 39,
     "Red and silver over-ear headphones with rich bass and a detachable cable. Soft ear cups seal out "
     "background noise."},
    {26, 2, "Sleek Mirror Finish Phone Case", 27,
     "A slim phone case with a reflective mirror back and shock-absorbing edges. Raised corners protect the "
     "screen and camera from drops."},
    {27, 2, "Sleek Smartwatch with Vibrant Display", 16,
     "A smartwatch with a bright colour touchscreen that tracks steps, heart rate and sleep. Notifications "
     "arrive right on your wrist."},
    {28, 3, "Sleek Modern Leather Sofa", 53,
     "A three-seat sofa upholstered in smooth leather on slim metal legs. Firm cushions and clean lines give "
     "a living room a modern look."},
    {29, 3, "Mid-Century Modern Wooden Dining Table", 24,
     "A solid wood dining table with tapered legs in mid-century style. It seats six comfortably for "
     "everyday meals and dinner parties."},
    {30, 3, "Elegant Golden-Base Stone Top Dining Table", 66,
     "A dining table pairing a polished stone top with a sculpted gold-tone base. A striking centrepiece for "
     "a formal dining room."},
    {31, 3, "Modern Elegance Teal Armchair", 25,
     "A teal velvet armchair with a curved back and slender wooden legs. Compact enough for a reading "
     "corner, bold enough to stand out."},
    {32, 3, "Elegant Solid Wood Dining Table", 67,
     "A sturdy dining table crafted from solid hardwood with a warm, natural finish. Its simple lines fit "
     "both rustic and contemporary homes."},
    {33, 3, "Modern Minimalist Workstation Setup", 49,
     "A minimalist desk setup with a clean surface, hidden cable routing and a matching shelf. It creates a "
     "calm, focused place to work."},
    {34, 3, "Modern Ergonomic Office Chair", 71,
     "An ergonomic office chair with adjustable lumbar support, armrests and seat height. The breathable "
     "mesh back stays cool through long workdays."},
    {35, 4, "Futuristic Holographic Soccer Cleats", 39,
     "Soccer cleats with a holographic upper that shifts colour under stadium lights. Firm-ground studs give "
     "grip for quick turns."},
    {36, 4, "Rainbow Glitter High Heels", 39,
     "High heels covered in rainbow glitter that sparkle with every step. A cushioned insole makes a long "
     "night out easier."},
    {37, 4, "Chic Summer Denim Espadrille Sandals", 33,
     "Denim espadrille sandals with a braided jute sole and ankle ties. Light and breezy for summer "
     "afternoons."},
    {38, 4, "Vibrant Runners: Bold Orange & Blue Sneakers", 27,
     "Running sneakers in bold orange and blue with a springy foam midsole. A breathable knit upper keeps "
     "feet cool mile after mile."},
    {39, 4, "Vibrant Pink Classic Sneakers", 84,
     "Low-top sneakers in vibrant pink with a rubber cupsole and contrast laces. A playful take on a "
     "timeless shape."},
    {40, 4, "Futuristic Silver and Gold High-Top Sneaker", 68,
     "High-top sneakers with metallic silver panels and gold details. A padded collar supports the ankle "
     "while making a statement."},
    {41, 4, "Futuristic Chic High-Heel Boots", 36,
     "Sleek high-heel boots with a glossy finish and an angular heel. A side zip makes them easy to slip on "
     "and off."},
    {42, 4, "Elegant Patent Leather Peep-Toe Pumps with Gold-Tone Heel", 53,
     "Patent leather pumps with a peep-toe front and a slim gold-tone heel. Polished enough for the office, "
     "festive enough for evenings out."},
    {43, 4, "Elegant Purple Leather Loafers", 17,
     "Purple leather loafers with a soft lining and a flexible sole. Slip-on comfort with a dash of "
     "colour."},
    {44, 4, "Classic Blue Suede Casual Shoes", 39,
     "Blue suede lace-ups with a cushioned footbed and a grippy rubber sole. Relaxed shoes for weekends and "
     "casual Fridays."},
    {45, 5, "Sleek Futuristic Electric Bicycle", 22,
     "An electric bicycle with a battery hidden in a streamlined frame and several pedal-assist modes. Glide "
     "up hills and across town without breaking a sweat."},
    {46, 5, "Sleek All-Terrain Go-Kart", 37,
     "A rugged go-kart with a roll cage, wide knobbly tyres and responsive steering. Built for dirt tracks, "
     "gravel and grass."},
    {47, 5, "Radiant Citrus Eau de Parfum", 73,
     "A bright eau de parfum that opens with lemon and bergamot over a warm amber base. A fresh, uplifting "
     "scent for day or night."},
    {48, 5, "Sleek Olive Green Hardshell Carry-On Luggage", 48,
     "An olive green hardshell carry-on with spinner wheels and a telescopic handle. Sized for the overhead "
     "bins of most airlines."},
    {49, 5, "Chic Transparent Fashion Handbag", 61,
     "A clear structured handbag with a top handle and a detachable shoulder strap. It shows off what you "
     "carry in a fun, modern way."},
    {50, 5, "Trendy Pink-Tinted Sunglasses", 38,
     "Sunglasses with pink-tinted, UV-blocking lenses in a lightweight frame. They add a rosy glow to sunny "
     "days."},
    {51, 5, "Elegant Glass Tumbler Set", 50,
     "A set of six heavy-bottomed glass tumblers with a clear, faceted finish. Right for water, juice or "
     "cocktails."},
}};
// clang-format on

// The public service's slug for product 42 is shorter than its title; clients link to it by that slug.
constexpr std::int64_t shortened_slug_id = 42;
constexpr std::string_view shortened_slug = "elegant-patent-leather-peep-toe-pumps";

// storefront draws these pictures itself (GET /api/v1/images/...); stored as paths, so the public URL can
// change without touching the data.
constexpr std::string_view image_base = "/api/v1/images/";

core::category make_category(const seed_category& row) {
    core::category c;
    c.id = row.id;
    c.name = std::string(row.name);
    c.slug = core::make_slug(row.name);
    c.image = std::string(image_base) + "categories/" + std::to_string(row.id) + ".png";
    c.created_at = seed_epoch_ms + (row.id - 1) * 1000;
    c.updated_at = c.created_at;
    c.seed = true;
    return c;
}

}  // namespace

std::vector<core::category> seed_categories() {
    return records_from(category_table, make_category);
}

std::vector<core::product> seed_products() {
    const std::vector<core::category> categories = seed_categories();
    return records_from(product_table, [&](const auto& row) {
        const auto category_index = static_cast<std::size_t>(row.category_id - 1);
        if (category_index >= categories.size()) {
            throw std::logic_error("seed product " + std::to_string(row.id) + " has an unknown category");
        }
        core::product p;
        p.id = row.id;
        p.title = std::string(row.title);
        p.slug = row.id == shortened_slug_id ? std::string(shortened_slug) : core::make_slug(row.title);
        p.price = row.price;
        p.description = std::string(row.description);
        p.product_category = categories[category_index];
        // Two or three pictures per product, varied but fixed, so responses are reproducible.
        const int image_count = row.id % 3 == 0 ? 2 : 3;
        for (int i = 1; i <= image_count; ++i) {
            p.images.push_back(
                std::string(image_base) + "products/" + std::to_string(row.id) + "-" + std::to_string(i) +
                ".png"
            );
        }
        p.created_at = seed_epoch_ms + 60'000 + (row.id - 1) * 1000;
        p.updated_at = p.created_at;
        p.seed = true;
        p.stock = seed_stock(row.id);
        return p;
    });
}

}  // namespace storefront::storage::detail
