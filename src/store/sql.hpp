// Building SQL with bound values. Identifiers enter only through query::quote_identifier
// (after a catalog check); every value goes through bind(), which returns a placeholder,
// so no value text ever becomes SQL. Results come back as text (NULL → nullopt): the
// queries cast what they select to text or JSON, which is what the routes send on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::query {
struct Paging;
}

namespace soci {
class session;
}

namespace cadastre::store {

using Value = std::optional<std::string>;
using Row = std::vector<Value>;

class Sql {
 public:
  Sql() = default;
  explicit Sql(std::string text) : text_(std::move(text)) {}

  /// Appends raw SQL text (trusted: literals written in our code or quoted identifiers).
  Sql& operator<<(std::string_view text) {
    text_ += text;
    return *this;
  }
  /// Binds a value and appends its placeholder; `cast` (e.g. "numeric(12,2)", from the
  /// catalog) is appended as ::cast so PostgreSQL parses the text as that type.
  Sql& bind(Value value, std::string_view cast = {});
  /// Binds a value and returns its mark without appending it: ":p" and its number, which
  /// the store sends as libpq's "$" and the number (a mark written twice names one value).
  std::string placeholder(Value value, std::string_view cast = {});

  /// Marks a statement whose best plan does not depend on its values (ids and flags, not a
  /// search's pattern or a range): store::fetch prepares it on each connection at its first
  /// run, so it is parsed once and planned once PostgreSQL finds its generic plan as good as
  /// the custom ones. Unmarked, a statement with values is planned with them at every run.
  Sql& reuse_plan() noexcept {
    reuse_plan_ = true;
    return *this;
  }
  bool reuses_plan() const noexcept { return reuse_plan_; }

  const std::string& text() const noexcept { return text_; }
  const std::vector<Value>& params() const noexcept { return params_; }

 private:
  std::string text_;
  std::vector<Value> params_;
  bool reuse_plan_ = false;
};

/// Runs `q` and returns every row, each column as PostgreSQL's text, except that a boolean
/// reads "1"/"0" and a float or numeric "%.15g" (SOCI's reading, which callers rely on:
/// select ::text for an exact numeric). Runs through libpq. A statement without bound values
/// that this process ran before is prepared on the connection (prepared.hpp), and so is one
/// marked reuse_plan(); the others are planned at every run, with their values.
std::vector<Row> fetch(soci::session& s, const Sql& q);
/// The first column of the first row as PostgreSQL's text (nullopt when no row or NULL).
Value fetch_value(soci::session& s, const Sql& q);

/// What fetch_ahead answers: `first`'s rows, and `second`'s when it ran.
struct Ahead {
  std::vector<Row> first;
  std::optional<std::vector<Row>> second;
};
/// Two reads in one round trip, where the caller built `second` from what it expects
/// `first` to answer (a layer's fields, remembered from an earlier request): both are sent
/// before either answer is read (libpq's pipeline mode, one implicit transaction), so the
/// request waits for the database once where it would wait twice. Each runs as fetch runs
/// it. The caller compares `first`'s rows with what it expected, and runs its statement
/// again from those rows when they differ or `second` is missing: it failed, or was not
/// yet prepared on this connection, or the connection is in a transaction (then the two
/// run one after the other; `first` alone runs here). A failure of `first` throws.
Ahead fetch_ahead(soci::session& s, const Sql& first, const Sql& second);

/// Appends " limit <size> offset <offset>" for `paging` (numbers, never request text).
void append_page(Sql& sql, const query::Paging& paging);

/// One page of records as PostgreSQL returned it: the count of all matching records and
/// the page's records as a JSON array.
struct PageRows {
  std::int64_t total = 0;
  std::string records = "[]";
};
/// Reads the two text columns (total, records array) of the single row that `sql` returns.
PageRows fetch_page(soci::session& s, const Sql& sql);
/// The same of rows fetched already.
PageRows page_rows(const std::vector<Row>& rows);
/// Runs a statement; returns the affected row count.
long long execute(soci::session& s, const Sql& q);

/// PostgreSQL's text of a bigint[] ("{1,2,3}"): bind it as one parameter cast to bigint[].
std::string id_array(const std::vector<std::int64_t>& ids);
/// The ids of a bigint[]'s text (what id_array writes, or PostgreSQL answers).
std::vector<std::int64_t> parse_id_array(std::string_view text);
/// PostgreSQL's text of a text[] ("{"a","b\"c"}"), every element quoted.
std::string text_array(const std::vector<std::string>& items);

}  // namespace cadastre::store
