#pragma once
// A temporary directory for one test (or, held in a function-local static, for the whole test binary).

#include <filesystem>

namespace storefront::test {

// A fresh directory under the system temp directory, removed with everything in it when this goes out of
// scope.
class temp_dir {
  public:
    temp_dir();
    ~temp_dir();
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace storefront::test
