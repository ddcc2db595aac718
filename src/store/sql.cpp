#include "store/sql.hpp"

#include "cadastre/query.hpp"

#include <soci/soci.h>

namespace cadastre::store {
namespace {
// A statement run once: SOCI's PostgreSQL backend then sends it with PQexecParams, one
// round trip. Its default, a "repeatable" statement, costs three on every call (PQprepare,
// PQexecPrepared, and DEALLOCATE when the statement object goes), for statements that are
// built per request and never run twice. The hot reads that do repeat are prepared once
// per connection instead (prepared.hpp).
constexpr auto kOnce = soci::details::st_one_time_query;
}  // namespace

std::string Sql::placeholder(Value value, std::string_view cast) {
  params_.push_back(std::move(value));
  std::string p = ":p" + std::to_string(params_.size());
  if (!cast.empty()) p += "::" + std::string(cast);
  return p;
}

Sql& Sql::bind(Value value, std::string_view cast) {
  text_ += placeholder(std::move(value), cast);
  return *this;
}

namespace {
// SOCI needs stable storage for bound values and their indicators during execution.
struct Bound {
  std::vector<std::string> values;
  std::vector<soci::indicator> inds;
  explicit Bound(const std::vector<Value>& params) {
    values.reserve(params.size());
    inds.reserve(params.size());
    for (const auto& p : params) {
      values.push_back(p.value_or(std::string()));
      inds.push_back(p ? soci::i_ok : soci::i_null);
    }
  }
  void use(soci::statement& st) {
    for (std::size_t i = 0; i < values.size(); ++i) st.exchange(soci::use(values[i], inds[i]));
  }
};

std::string column_text(const soci::row& r, std::size_t i) {
  const auto& props = r.get_properties(i);
  switch (props.get_data_type()) {
    case soci::dt_string: return r.get<std::string>(i);
    case soci::dt_integer: return std::to_string(r.get<int>(i));
    case soci::dt_long_long: return std::to_string(r.get<long long>(i));
    case soci::dt_unsigned_long_long: return std::to_string(r.get<unsigned long long>(i));
    case soci::dt_double: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.15g", r.get<double>(i));  // select ::text for exact numerics
      return buf;
    }
    default: return r.get<std::string>(i);
  }
}
}  // namespace

std::vector<Row> fetch(soci::session& s, const Sql& q) {
  Bound b(q.params());
  soci::row r;
  soci::statement st(s);
  st.exchange(soci::into(r));
  b.use(st);
  st.alloc();
  st.prepare(q.text(), kOnce);
  st.define_and_bind();
  std::vector<Row> out;
  if (!st.execute(true)) return out;
  do {
    Row row;
    row.reserve(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (r.get_indicator(i) == soci::i_null) row.emplace_back(std::nullopt);
      else row.emplace_back(column_text(r, i));
    }
    out.push_back(std::move(row));
  } while (st.fetch());
  return out;
}

Value fetch_value(soci::session& s, const Sql& q) {
  Bound b(q.params());
  std::string v;
  soci::indicator ind = soci::i_null;
  soci::statement st(s);
  st.exchange(soci::into(v, ind));
  b.use(st);
  st.alloc();
  st.prepare(q.text(), kOnce);
  st.define_and_bind();
  if (!st.execute(true) || ind == soci::i_null) return std::nullopt;
  return v;
}

long long execute(soci::session& s, const Sql& q) {
  Bound b(q.params());
  soci::statement st(s);
  b.use(st);
  st.alloc();
  st.prepare(q.text(), kOnce);
  st.define_and_bind();
  st.execute(true);
  return st.get_affected_rows();
}

void append_page(Sql& sql, const query::Paging& paging) {
  sql << " limit " << std::to_string(paging.size) << " offset " << std::to_string(paging.offset);
}

PageRows fetch_page(soci::session& s, const Sql& sql) {
  auto rows = fetch(s, sql);
  PageRows page;
  if (rows.empty()) return page;
  page.total = std::stoll(rows[0].at(0).value_or("0"));
  page.records = rows[0].at(1).value_or("[]");
  return page;
}

std::string id_array(const std::vector<std::int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "}";
}

std::vector<std::int64_t> parse_id_array(std::string_view text) {
  std::vector<std::int64_t> out;
  std::int64_t v = 0;
  bool in = false, negative = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      in = true;
    } else if (c == '-') {
      negative = true;
    } else {
      if (in) out.push_back(negative ? -v : v);
      v = 0, in = false, negative = false;
    }
  }
  if (in) out.push_back(negative ? -v : v);
  return out;
}

std::string text_array(const std::vector<std::string>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\"" : "\"";
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace cadastre::store
