#pragma once
// The shared view's data revision: a number that grows with every write to the data that answers marked
// answer_reuse::until_data_changes are made of (route.hpp), so an answer computed at revision R is still
// the answer while the revision is R.

#include <cstdint>

namespace storefront::server {

class data_revision {
  public:
    [[nodiscard]] virtual std::uint64_t current() const = 0;

  protected:
    ~data_revision() = default;
};

}  // namespace storefront::server
