// store_set: a view's stores from the factory and its cached lists; store_world: its tokens and services.

#include "server/sandboxes/store_world.hpp"

#include <limits>
#include <utility>

#include "server/api/docs/graphiql.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/caches/list_changes.hpp"
#include "shop_seed.hpp"
#include "storage/factory.hpp"

namespace storefront::server {

namespace {

// Each item's JSON as the lists and single reads write it, with its id.
template <class T, class Write>
serialised_items serialise_each(const std::vector<T>& items, Write write) {
    serialised_items out;
    out.ids.reserve(items.size());
    out.json.reserve(items.size());
    for (const auto& item : items) {
        out.ids.push_back(item.id);
        out.json.push_back(write(item));
    }
    return out;
}

core::page_request everything() {
    return {0, std::numeric_limits<std::size_t>::max() / 2};
}

// The `password` user bodies carry under --compat public (a fixed placeholder), else none.
std::string_view password_mask_of(core::compat_mode compat) {
    return compat == core::compat_mode::public_service ? core::placeholder_password : std::string_view{};
}

// The cached list of one table: `revision` of its store, every row from `all`, the rows changed since a
// revision from `changes`; each row in the JSON `write` makes, the same in the whole list as in a patch.
template <class Revision, class All, class Changes, class Write>
fragment_list rows_as_json(Revision revision, All all, Changes changes, Write write) {
    return fragment_list(
        std::move(revision),
        [all, write] { return serialise_each(all(), write); },
        [changes, write](std::uint64_t since) { return changes(since, write); }
    );
}

}  // namespace

store_set::store_set(const storage::storage_config& config, const world_commons& commons)
    : catalogue(storage::make_catalogue_store(config)),
      users(storage::make_user_store(config)),
      files(storage::make_file_store(config, commons.upload_budget)),
      sessions(storage::make_session_store(config)),
      pets(storage::make_pet_store(config)),
      orders(storage::make_order_store(config)),
      pet_users(storage::make_pet_user_store(config)),
      pet_images(storage::make_pet_image_store(config, commons.image_budget)),
      shop(storage::make_shop_store(config, *catalogue)),
      logins(*sessions),
      product_json(rows_as_json(
          [this] { return catalogue->revision(); },
          [this] { return catalogue->list_products({}, everything()); },
          [this](std::uint64_t since, const auto& write) {
              return product_changes(*catalogue, since, write);
          },
          [&commons](const core::product& p) { return to_json(p, commons.public_url); }
      )),
      category_json(rows_as_json(
          [this] { return catalogue->revision(); },
          [this] { return catalogue->list_categories(); },
          [this](std::uint64_t since, const auto& write) {
              return category_changes(*catalogue, since, write);
          },
          [&commons](const core::category& c) { return to_json(c, commons.public_url); }
      )),
      user_json(rows_as_json(
          [this] { return users->revision(); },
          [this] { return users->list_users(everything()); },
          [this](std::uint64_t since, const auto& write) { return user_changes(*users, since, write); },
          [&commons](const core::user& u) {
              return to_json(u, commons.public_url, {}, password_mask_of(commons.compat));
          }
      )),
      // 128 answers or 1 MiB per store set (a products page is ~5 KB): at most 64 MiB over the 64 sandboxes
      // an instance keeps open.
      graphql_answers(128, 1024 * 1024),
      // 256 product pages or 2 MiB per store set (a filtered page of 10 is ~5 KB).
      product_answers(256, 2 * 1024 * 1024) {
    seed_past_orders(*shop, *users);
}

void store_set::warm() {
    (void)product_json.current();
    (void)category_json.current();
    (void)user_json.current();
}

void store_set::forget_cached_lists() {
    product_json.reset();
    category_json.reset();
    user_json.reset();
    graphql_answers.clear();
    product_answers.clear();
}

namespace {

// The data set a view's files path names: "" (the shared view) or the sandbox id of "/sandbox/{id}".
std::string_view data_set_of(std::string_view files_path) {
    constexpr std::string_view prefix = "/sandbox/";
    return files_path.starts_with(prefix) ? files_path.substr(prefix.size()) : std::string_view{};
}

}  // namespace

store_world::store_world(
    std::shared_ptr<store_set> stores,
    const world_commons& commons,
    const core::token_settings& tokens,
    const core::pet_token_settings& pet_tokens,
    std::string files_path,
    sandbox_gateway* sandboxes
)
    : stores_(std::move(stores)),
      files_path_(std::move(files_path)),
      events_(commons.events == nullptr ? nullptr : commons.events->of(data_set_of(files_path_))),
      tokens_(tokens),
      pet_tokens_(pet_tokens),
      store_({
          .catalogue = *stores_->catalogue,
          .users = *stores_->users,
          .locations = commons.locations,
          .location_objects = commons.location_objects,
          .files = *stores_->files,
          .sessions = *stores_->sessions,
          .logins = stores_->logins,
          .images = commons.images,
          .tokens = tokens_,
          .passwords = commons.passwords,
          .brake = commons.brake,
          .storage = commons.storage,
          .writes = commons.writes,
          .product_json = stores_->product_json,
          .category_json = stores_->category_json,
          .user_json = stores_->user_json,
          .product_answers = &stores_->product_answers,
          .write_policy = commons.write_policy,
          .public_url = commons.public_url,
          .files_path = files_path_,
          .upload_limit = commons.upload_limit,
          .compat = commons.compat,
          .sandboxes = sandboxes,
          .shop = stores_->shop.get(),
          .order_ttl_ms = commons.order_ttl_ms,
          .events = events_,
          .max_event_streams = commons.max_event_streams,
      }),
      pets_({
          .pets = *stores_->pets,
          .orders = *stores_->orders,
          .pet_users = *stores_->pet_users,
          .pet_images = *stores_->pet_images,
          .pet_tokens = pet_tokens_,
          .pet_keys = commons.pet_keys,
          .passwords = commons.passwords,
          .brake = commons.brake,
          .storage = commons.storage,
      }),
      graphql_{
          .engine = commons.graphql,
          .store = store_,
          .answers = stores_->graphql_answers,
          .html_page = &graphiql_page},
      access_{
          .tokens = tokens_,
          .users = *stores_->users,
          .logins = stores_->logins,
          .storage = commons.storage,
          .write_policy = commons.write_policy,
          .pet_tokens = pet_tokens_,
          .pet_keys = commons.pet_keys,
      } {}

}  // namespace storefront::server
