// What the guard found for a read, remembered for at most a second, so that a page, a tile
// or a list read again and again by a user pays the guard's statement once a second
// instead of at every request (issue #30: "reads pay once per request"; decision 0029).
//
// - Only reads use and fill it (a GET or HEAD asking for "leitura": not may_write()), and
//   only with answers that hold a role (a refusal is never kept); everything else asks the
//   database.
// - An answer is kept `ttl` (at most 1 s): a permission changed elsewhere (another instance,
//   a job, SQL by hand) takes effect within it.
// - A request that may write (may_write(): any other method; a GET asking for more than
//   "leitura", or for an administrator) forgets its tenant's answers when it starts
//   and again when it ends, and no answer is used or kept while one is in flight: what
//   this process changes takes effect at once.
// - At most kMaxEntries answers; a full memory forgets them all.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

#include "http/http.hpp"
#include "platform/guard/store.hpp"

namespace cadastre::platform::guard {

/// Whether a request may change what the guard answers: every method but GET and HEAD, and
/// a GET that asks for more than reading a record (a few routes of the specification act
/// on a GET: a project's transfer, for one), or for an administrator's. Such a request
/// forgets its tenant's answers (the auth scheme); any other asking for a record's role
/// may use and fill the memory (resolve).
bool may_write(const http::Request& req, const http::Access& access);

class Memory {
 public:
  static constexpr std::size_t kMaxEntries = 16384;
  static constexpr std::chrono::milliseconds kMaxTtl{1000};

  /// `ttl` 0 keeps nothing; more than kMaxTtl is taken as kMaxTtl.
  explicit Memory(std::chrono::milliseconds ttl);

  /// Whom an answer is for: the tenant, the record, the caller and whether an administrator.
  struct Key {
    std::int64_t tenant = 0;
    std::string record;
    std::int64_t id = 0, user = 0;
    bool admin = false;
    bool operator<(const Key& o) const {
      return std::tie(tenant, record, id, user, admin) < std::tie(o.tenant, o.record, o.id, o.user, o.admin);
    }
  };

  /// The answer kept for `key`, when it is younger than the ttl and its tenant has had no
  /// write since (nor has one in flight).
  std::optional<Located> find(const Key& key);
  /// Where a read of the database stands before it asks: give it to keep() with the answer.
  std::uint64_t ticket(std::int64_t tenant);
  /// Keeps `found` for `key`, unless a write of its tenant began since `ticket`.
  void keep(const Key& key, std::uint64_t ticket, const Located& found);

  /// A write of `tenant` begins / has ended (its transaction is over).
  void write_began(std::int64_t tenant);
  void write_ended(std::int64_t tenant);

  bool enabled() const noexcept { return ttl_.count() > 0; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    Located found;
    std::uint64_t generation = 0;
    Clock::time_point until;
  };
  struct Tenant {
    std::uint64_t generation = 0;  ///< moves at every write's start and end
    int writing = 0;               ///< writes in flight
  };
  std::chrono::milliseconds ttl_;
  std::mutex mutex_;
  std::map<std::int64_t, Tenant> tenants_;
  std::map<Key, Entry> entries_;
};

}  // namespace cadastre::platform::guard
