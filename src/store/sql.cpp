#include "store/sql.hpp"

#include "cadastre/query.hpp"


namespace cadastre::store {
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

void append_page(Sql& sql, const query::Paging& paging) {
  sql << " limit " << std::to_string(paging.size) << " offset " << std::to_string(paging.offset);
}

PageRows fetch_page(soci::session& s, const Sql& sql) { return page_rows(fetch(s, sql)); }

PageRows page_rows(const std::vector<Row>& rows) {
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
