// write_batch: the thread's open batch (a thread_local pointer) and the commit or roll-back of the one
// database that joined it.

#include "storage/write_batch.hpp"

#include <stdexcept>
#include <utility>

namespace storefront::storage {

namespace {
thread_local write_batch* open_batch = nullptr;
}  // namespace

write_batch::write_batch() {
    if (open_batch != nullptr) {
        throw std::logic_error("write_batch: a batch is open on this thread already");
    }
    open_batch = this;
}

write_batch::~write_batch() {
    if (!finished_ && member_ != nullptr) {
        member_->roll_back();
    }
    open_batch = nullptr;
}

void write_batch::commit() {
    if (finished_) {
        throw std::logic_error("write_batch: committed twice");
    }
    finished_ = true;
    if (member_ != nullptr) {
        try {
            member_->commit();
        } catch (...) {
            member_->roll_back();
            throw;
        }
    }
}

write_batch* write_batch::open_on_this_thread() noexcept {
    return open_batch;
}

bool write_batch::join(member& m) noexcept {
    if (member_ != nullptr || finished_) {
        return member_ == &m;
    }
    member_ = &m;
    return true;
}

bool write_batch::adopt(std::unique_ptr<member> m) noexcept {
    if (!join(*m)) {
        return false;
    }
    owned_ = std::move(m);
    return true;
}

}  // namespace storefront::storage
