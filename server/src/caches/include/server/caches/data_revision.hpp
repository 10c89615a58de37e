#pragma once
// caches/: the data revision and every answer kept per revision. This header states their invalidation
// contract once; each cache's header says only what it keys on.
//
// What a revision is. Each data set (the shared view, each sandbox: one store_set) has a catalogue store
// and a user store, and each counts its writes: catalogue_store::revision() and user_store::revision()
// (storage/) only grow. A store moves its revision after the write's transaction commits and before the
// store call returns, so before the write is answered (on PostgreSQL also when another instance's write is
// notified: that write is seen here once its notification arrives). Hence a client that has its write's
// answer, and every request that starts after it, reads a revision past every revision read before the
// write committed. The shared view's data revision (data_revision below) is the sum of its two stores'
// revisions: it moves whenever either does.
//
// Reading order, the one rule every cache keeps: the revision is read BEFORE the data an answer is made
// of, and the answer is kept labelled with that revision. Data read after the label is as new or newer, so
// an answer is never labelled newer than its data; a write that races the computation moves the revision
// past the label, and the next lookup misses. A lookup is a hit only while the current revision still equals
// the label (the paged lists: is not past it), so an answer read at revision R is never served once a write
// past R has been answered: that write moved the revision past R first.
//
// What each cache keys on (all bounded; each data set has its own, nothing is shared between sandboxes):
// - replay_cache (per I/O thread, shared view only): the exact bytes of a GET's header section, at the
//   shared view's data revision; kept only when that revision did not move while the answer was made.
// - fragment_list (response_cache.hpp, per list per data set): one snapshot of a list's serialised items
//   at the revision read before it was loaded, or the revision changes_since reported when patched
//   (list_changes, snapshot_patch: only the rows that changed are read again); pages of a snapshot by item
//   range. Stale when the store's revision is past the snapshot's; never served stale, patched on the next
//   read.
// - list_answers (per data set): a filtered, searched or sorted product page by its canonical query, at the
//   catalogue revision.
// - answer_cache (per data set): a GraphQL answer by query text, operation name and variables, at the
//   catalogue and user revisions together.
// Not revision-keyed: prepared_body (codec/representation.hpp) is an immutable body whose tags and
// compressed forms are computed once; it lives as long as the answer holding it. Answers are also dropped
// whole when the serialisation itself changes (the public URL in image links): clear() and reset().

#include <cstdint>

#include "storage/catalogue_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// A data set's revision, as the replay cache and dispatch read it.
class data_revision {
  public:
    [[nodiscard]] virtual std::uint64_t current() const = 0;

  protected:
    ~data_revision() = default;
};

// The shared view's data revision for reusable answers: its catalogue's and users' revisions together
// (each only grows, so their sum moves whenever either does).
class shared_data_revision final : public data_revision {
  public:
    shared_data_revision(const storage::catalogue_store& catalogue, const storage::user_store& users)
        : catalogue_(catalogue), users_(users) {}
    [[nodiscard]] std::uint64_t current() const override { return catalogue_.revision() + users_.revision(); }

  private:
    const storage::catalogue_store& catalogue_;
    const storage::user_store& users_;
};

}  // namespace storefront::server
