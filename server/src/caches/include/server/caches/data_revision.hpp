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
// - replay_cache (per I/O thread, shared view only; scoped_replay_cache.hpp): the exact bytes of a GET's
//   header section, labelled with each store's revision (store_revisions below); kept only when the data
//   revision did not move while the answer was made. When it moves, the thread asks the stores which rows
//   changed since its label (data_revision::changes_since) and drops only the entries one of those rows may
//   touch: the tables the answer reads, and for a single item by id that row, as its route's row states them
//   (replay_scope.hpp; api/store/routes.cpp: users read users; categories read categories; products read
//   products and categories, which they embed). The rest
//   are relabelled with the revisions the stores reported with those changes, read after the current
//   revision, so they stand for data at least as new as any write already answered; the rule above still
//   holds: a write that changes an answer has named its row before it is answered, so the next lookup drops
//   it. A race can only drop more: a write between the question and the label comes with its row or moves
//   the revision past the label (a miss, then the question is asked again). A store that cannot tell (a
//   reset, a PostgreSQL notification without rows, a label older than its journal) drops every entry.
//   A list page's answer carries X-Total-Count and Link (its last page), which a create or delete anywhere
//   in the list changes, so a page goes with any write of the tables it reads; a write of another table
//   (a registration for a product page, a product for the users list) keeps it.
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
#include <optional>
#include <utility>
#include <vector>

#include "core/row_changes.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// Each store's revision: what the replay cache and answer_cache label their entries with.
struct store_revisions {
    std::uint64_t catalogue = 0;
    std::uint64_t users = 0;
    friend bool operator==(const store_revisions&, const store_revisions&) = default;

    // The data revision these make (data_revision::current()).
    [[nodiscard]] std::uint64_t sum() const { return catalogue + users; }
};

// The rows both stores changed after some store_revisions, up to `at`, each store's revision when it was
// asked (so at least what current() gave before the question).
struct data_changes {
    store_revisions at;
    std::vector<core::row_change> rows;
};

// A data set's revision, as the replay cache and dispatch read it.
class data_revision {
  public:
    [[nodiscard]] virtual std::uint64_t current() const = 0;
    // Each store's revision; their sum is current().
    [[nodiscard]] virtual store_revisions stores() const = 0;
    // The rows changed after `since`; nullopt when a store cannot tell (then anything may have changed).
    [[nodiscard]] virtual std::optional<data_changes> changes_since(const store_revisions& since) const = 0;

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
    [[nodiscard]] store_revisions stores() const override {
        return {.catalogue = catalogue_.revision(), .users = users_.revision()};
    }
    [[nodiscard]] std::optional<data_changes> changes_since(const store_revisions& since) const override {
        auto catalogue = catalogue_.changes_since(since.catalogue);
        if (!catalogue) {
            return std::nullopt;
        }
        auto users = users_.changes_since(since.users);
        if (!users) {
            return std::nullopt;
        }
        data_changes out{.at = {.catalogue = catalogue->revision, .users = users->revision}, .rows = {}};
        out.rows = std::move(catalogue->rows);
        out.rows.insert(out.rows.end(), users->rows.begin(), users->rows.end());
        return out;
    }

  private:
    const storage::catalogue_store& catalogue_;
    const storage::user_store& users_;
};

}  // namespace storefront::server
