#include "platform/layer_reports/render.hpp"

#include <algorithm>
#include <map>

#include "cadastre/decimal.hpp"

namespace cadastre::platform::layer_reports {
namespace {

// A value as a cell (field_values::display), empty when unset.
std::optional<std::string> display(const std::optional<field_values::Typed>& v) {
  if (!v) return std::nullopt;
  return field_values::display(*v);
}

std::string count_text(std::int64_t shown, std::int64_t total) {
  if (shown == total) return std::to_string(total) + (total == 1 ? " registro" : " registros");
  return "os primeiros " + std::to_string(shown) + " de " + std::to_string(total) + " registros";
}

}  // namespace

std::vector<std::int64_t> fields(const std::vector<Column>& columns, const std::optional<Column>& group) {
  std::vector<std::int64_t> out;
  for (const auto& c : columns) out.push_back(c.id);
  if (group) out.push_back(group->id);
  return out;
}

Rendered render(const Stored& report, const std::vector<Column>& columns, const std::optional<Column>& group,
                const search::Rows& rows) {
  Rendered out;
  report::Table& t = out.rows;
  t.title = report.nome;
  t.columns.push_back("Geometria");
  t.numeric.push_back(true);
  for (const auto& c : columns) t.columns.push_back(c.nome), t.numeric.push_back(c.numeric);
  std::vector<std::optional<std::string>> keys;  // the grouping value of each row
  for (const auto& record : rows.rows) {
    std::vector<std::optional<std::string>> row{std::to_string(record.id)};
    for (std::size_t c = 0; c < columns.size(); ++c) row.push_back(display(record.values[c]));
    if (group) keys.push_back(display(record.values[columns.size()]));
    t.rows.push_back(std::move(row));
  }
  t.subtitle = "Camada " + report.camada_nome + " — " + count_text(static_cast<std::int64_t>(t.rows.size()), rows.total);
  if (!group) return out;

  // The summary: per value of the grouping field (rows without one last), the count and
  // the sums of the numeric fields.
  report::Table g;
  g.title = report.nome + " — resumo por " + group->nome;
  g.subtitle = t.subtitle;
  g.columns = {group->nome, "Quantidade"};
  g.numeric = {group->numeric, true};
  for (const auto& c : columns)
    if (c.numeric) g.columns.push_back("Soma de " + c.nome), g.numeric.push_back(true);
  // Sums of decimal text, exact (a report of 0.1 + 0.1 + 0.1 reads 0.3); a sum past 38
  // digits is shown as "—" rather than rounded.
  struct Total {
    std::int64_t count = 0;
    std::vector<decimal::Sum> sums;
    std::vector<bool> lost;
  };
  std::map<std::optional<std::string>, Total> totals;
  for (std::size_t r = 0; r < keys.size(); ++r) {
    Total& total = totals[keys[r]];
    ++total.count;
    total.sums.resize(g.columns.size() - 2);
    total.lost.resize(g.columns.size() - 2);
    std::size_t k = 0;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (!columns[c].numeric) continue;
      if (const auto& v = t.rows[r][c + 1])
        if (!total.sums[k].add(*v)) total.lost[k] = true;
      ++k;
    }
  }
  auto add_group = [&](const std::optional<std::string>& key, const Total& total) {
    std::vector<std::optional<std::string>> row{key ? *key : std::string("(sem valor)"), std::to_string(total.count)};
    for (std::size_t k = 0; k < total.sums.size(); ++k)
      row.push_back(total.lost[k] ? std::string("—") : total.sums[k].text());
    g.rows.push_back(std::move(row));
  };
  for (const auto& [key, total] : totals)
    if (key) add_group(key, total);
  if (auto none = totals.find(std::nullopt); none != totals.end()) add_group(none->first, none->second);

  // The rows in the same order: by the group's value, then by geometry.
  std::vector<std::size_t> order(t.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (keys[a].has_value() != keys[b].has_value()) return keys[a].has_value();
    return keys[a] < keys[b];
  });
  std::vector<std::vector<std::optional<std::string>>> sorted;
  for (std::size_t i : order) sorted.push_back(std::move(t.rows[i]));
  t.rows = std::move(sorted);
  out.groups = std::move(g);
  return out;
}

std::string pdf(const Stored& report, const Rendered& r) {
  report::Document d;
  d.title = report.nome;
  d.subtitle = r.rows.subtitle;
  if (!report.descricao.empty()) d.blocks.emplace_back(report::Paragraph{report.descricao});
  auto grid = [](const report::Table& t) {
    report::Grid g{t.columns, t.numeric, {}};
    for (const auto& row : t.rows) {
      std::vector<std::string> cells;
      for (const auto& c : row) cells.push_back(c.value_or(""));
      g.rows.push_back(std::move(cells));
    }
    return g;
  };
  d.blocks.emplace_back(report::Heading{"Registros", 1});
  d.blocks.emplace_back(grid(r.rows));
  if (r.groups) {
    d.blocks.emplace_back(report::Heading{"Resumo por " + r.groups->columns[0], 1});
    d.blocks.emplace_back(grid(*r.groups));
  }
  return report::pdf_document(d);
}

std::string xlsx(const Rendered& r) {
  std::vector<report::Sheet> sheets{{"Registros", r.rows}};
  if (r.groups) sheets.push_back({"Resumo", *r.groups});
  return report::xlsx_document(sheets);
}

}  // namespace cadastre::platform::layer_reports
