// sqlite_sandbox_store: the registry of sandboxes is the directory `<path>.sandboxes/` next to the database
// file, one `<id>.sqlite` per sandbox with data; the file's metadata is the record (no table to keep in step
// with the files, and a purge is an unlink).

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/container_hash/hash.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlite/stores.hpp"
#include "storage/storage_error.hpp"

namespace storefront::storage {

namespace {

using clock = std::chrono::system_clock;

constexpr std::string_view file_suffix = ".sqlite";

[[noreturn]] void fail(const std::string& what, int error) {
    throw storage_unavailable("sandbox registry: " + what + ": " + std::strerror(error));
}

clock::time_point time_of(const struct statx_timestamp& t) {
    return clock::time_point(std::chrono::duration_cast<clock::duration>(
        std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec)
    ));
}

timespec timespec_of(clock::time_point t) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
    constexpr std::int64_t billion = 1'000'000'000;
    std::int64_t sec = ns / billion;
    std::int64_t nsec = ns % billion;
    if (nsec < 0) {  // a time before 1970: timespec wants 0 <= tv_nsec < 1e9
        --sec;
        nsec += billion;
    }
    return {static_cast<time_t>(sec), static_cast<long>(nsec)};
}

// The metadata of `file`; nullopt when there is none.
std::optional<struct statx> stat_of(const std::string& file) {
    struct statx st {};
    if (::statx(AT_FDCWD, file.c_str(), 0, STATX_INO | STATX_MTIME | STATX_BTIME, &st) != 0) {
        if (errno == ENOENT) {
            return std::nullopt;
        }
        fail("stat " + file, errno);
    }
    return st;
}

// The inode and the birth time tell one life of a file from the next (an inode number alone is often
// reused at once); the mtime would not do, since every write to the database moves it. A file system
// without birth times leaves the inode alone.
std::int64_t generation_of(const struct statx& st) {
    std::size_t seed = 0;
    boost::hash_combine(seed, st.stx_ino);
    if ((st.stx_mask & STATX_BTIME) != 0) {
        boost::hash_combine(seed, st.stx_btime.tv_sec);
        boost::hash_combine(seed, st.stx_btime.tv_nsec);
    }
    return static_cast<std::int64_t>(seed & 0x7FFF'FFFF'FFFF'FFFF);  // positive, like the other backends
}

class sqlite_sandbox_store final : public sandbox_store {
  public:
    sqlite_sandbox_store(std::string path, storage_config base)
        : directory_(std::move(path) + ".sandboxes"), base_(std::move(base)) {
        base_.pool_size = 1;  // one reader per sandbox: many sandboxes may be open at once
    }

    core::result<std::optional<sandbox_record>> find(std::string_view id) override { return record_of(id); }

    core::result<sandbox_record> create(std::string_view id, std::size_t max_live, clock::time_point now)
        override {
        std::lock_guard lock(mutex_);
        if (auto existing = record_of(id)) {
            return *existing;
        }
        make_directory();
        if (live() >= max_live) {
            return core::errc::storage_full;
        }
        const auto file = file_of(id);
        // Empty: the factory's stores create the schema and the seed when they first open it.
        const int fd = ::open(file.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) {  // EEXIST: another process registered it just now
            fail("create " + file, errno);
        }
        if (fd >= 0) {
            ::close(fd);
            ++*live_;
            revision_.fetch_add(1, std::memory_order_acq_rel);
            set_mtime(file, now);
        }
        if (auto created = record_of(id)) {
            return *created;
        }
        fail("create " + file, ENOENT);  // removed by another process in between
    }

    core::result<void> touch(std::string_view id, clock::time_point now) override {
        set_mtime(file_of(id), now);
        return {};
    }

    core::result<bool> remove(std::string_view id) override {
        std::lock_guard lock(mutex_);
        const auto file = file_of(id);
        const bool removed = unlink_if_there(file);
        // SQLite's companions: a crash may leave them without the main file, so they go either way.
        (void)unlink_if_there(file + "-wal");
        (void)unlink_if_there(file + "-shm");
        (void)unlink_if_there(file + "-journal");
        if (removed) {
            if (live_ && *live_ > 0) {
                --*live_;
            }
            revision_.fetch_add(1, std::memory_order_acq_rel);
        }
        return removed;
    }

    core::result<std::vector<std::string>> idle_since(clock::time_point cutoff, std::size_t limit) override {
        std::vector<std::pair<clock::time_point, std::string>> idle;
        for (auto& id : scan()) {
            if (const auto record = record_of(id); record && record->last_used < cutoff) {
                idle.emplace_back(record->last_used, std::move(id));
            }
        }
        std::sort(idle.begin(), idle.end());  // the longest idle first
        std::vector<std::string> ids;
        for (std::size_t i = 0; i < idle.size() && i < limit; ++i) {
            ids.push_back(std::move(idle[i].second));
        }
        return ids;
    }

    core::result<std::size_t> count() override {
        std::lock_guard lock(mutex_);
        return live();
    }

    std::uint64_t revision() const override { return revision_.load(std::memory_order_acquire); }

    storage_config config_for(std::string_view id) const override {
        auto config = base_;
        config.backend = "sqlite:" + file_of(id);
        return config;
    }

    bool durable() const override { return true; }

  private:
    [[nodiscard]] std::string file_of(std::string_view id) const {
        return directory_ + "/" + std::string(id) + std::string(file_suffix);
    }

    [[nodiscard]] std::optional<sandbox_record> record_of(std::string_view id) const {
        const auto st = stat_of(file_of(id));
        if (!st) {
            return std::nullopt;
        }
        // The mtime is the last use: touch sets it, and a write to the database moves it too (also a use).
        return sandbox_record{std::string(id), generation_of(*st), time_of(st->stx_mtime)};
    }

    void make_directory() const {
        if (::mkdir(directory_.c_str(), 0700) != 0 && errno != EEXIST) {
            fail("mkdir " + directory_, errno);
        }
    }

    // The ids of the directory's database files (none before the first create).
    [[nodiscard]] std::vector<std::string> scan() const {
        std::vector<std::string> ids;
        DIR* dir = ::opendir(directory_.c_str());
        if (dir == nullptr) {
            if (errno == ENOENT) {
                return ids;
            }
            fail("open " + directory_, errno);
        }
        while (const dirent* entry = ::readdir(dir)) {
            const std::string_view name = entry->d_name;
            if (name.size() > file_suffix.size() && name.ends_with(file_suffix)) {
                ids.emplace_back(name.substr(0, name.size() - file_suffix.size()));
            }
        }
        ::closedir(dir);
        return ids;
    }

    // Under mutex_: how many are registered, counted from the directory once, then kept by create/remove.
    std::size_t live() {
        if (!live_) {
            live_ = scan().size();
        }
        return *live_;
    }

    static void set_mtime(const std::string& file, clock::time_point when) {
        const timespec times[2] = {{0, UTIME_OMIT}, timespec_of(when)};
        if (::utimensat(AT_FDCWD, file.c_str(), times, 0) != 0 && errno != ENOENT) {  // ENOENT: not ours
            fail("touch " + file, errno);
        }
    }

    static bool unlink_if_there(const std::string& file) {
        if (::unlink(file.c_str()) == 0) {
            return true;
        }
        if (errno != ENOENT) {
            fail("unlink " + file, errno);
        }
        return false;
    }

    const std::string directory_;
    storage_config base_;
    std::mutex mutex_;
    std::optional<std::size_t> live_;
    std::atomic<std::uint64_t> revision_{1};
};

}  // namespace

std::unique_ptr<sandbox_store> make_sqlite_sandbox_store(std::string path, storage_config base) {
    return std::make_unique<sqlite_sandbox_store>(std::move(path), std::move(base));
}

}  // namespace storefront::storage
