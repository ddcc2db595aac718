#include "platform/city_reports/documents.hpp"

#include "report/table.hpp"

namespace cadastre::platform::city_reports {
namespace {

using report::number_br;

std::string money(double v) { return "R$ " + number_br(v, 2); }
std::string opt(const std::optional<double>& v, int decimals, const std::string& unit) {
  return v ? number_br(*v, decimals) + unit : "-";
}

report::KeyValues property_items(const Property& p) {
  std::string address = p.logradouro.empty() ? "-" : p.logradouro;
  if (p.numero) address += ", " + std::to_string(*p.numero);
  if (!p.complemento.empty()) address += " " + p.complemento;
  if (!p.bairro.empty()) address += " — " + p.bairro;
  return report::KeyValues{{
      {"Inscrição cartográfica", p.inscricao_cartografica},
      {"Número de cadastro", p.numero_cadastro},
      {"Endereço", address},
      {"Uso", p.uso},
      {"Fração ideal", number_br(p.fracao_ideal, 6)},
      {"Área privativa", opt(p.area_privativa, 2, " m²")},
      {"Lote", p.lote_inscricao + (p.quadra.empty() ? "" : " (quadra " + p.quadra + ")")},
      {"Área do terreno", number_br(p.area_terreno, 2) + " m²"},
      {"Testada", number_br(p.testada, 2) + " m"},
      {"Profundidade", opt(p.profundidade, 2, " m")},
      {"Topografia", p.topografia},
      {"Pedologia", p.pedologia},
      {"Situação", p.situacao},
      {"Face de quadra", p.face_quadra.value_or("-")},
      {"Valor do m² (face de quadra)", p.valor_m2 ? money(*p.valor_m2) : "-"},
      {"Melhoramentos", p.melhoramentos ? std::to_string(*p.melhoramentos) : "-"},
  }};
}

report::Grid buildings_grid(const Property& p) {
  report::Grid g{{"Edificação", "Área construída (m²)", "Padrão", "Ano", "Conservação", "Uso"},
                 {true, true, false, true, false, false},
                 {}};
  for (const auto& b : p.buildings)
    g.rows.push_back({std::to_string(b.id), number_br(b.area_construida, 2), b.padrao,
                      b.ano_construcao ? std::to_string(*b.ano_construcao) : "-", b.conservacao, b.uso});
  return g;
}

const char* kind_title(const std::string& kind) {
  if (kind == "terreno") return "Valor venal do terreno (VVT)";
  if (kind == "construcao") return "Valor venal da construção (VVE)";
  return "IPTU";
}

// One result's breakdown: formula, factors, intermediate values, bands.
void memory(report::Document& d, const valuation::Result& r, const std::string& title) {
  d.blocks.emplace_back(report::Heading{title, 2});
  d.blocks.emplace_back(report::Paragraph{"Fórmula: " + r.formula});
  if (!r.factors.empty()) {
    report::Grid f{{"Fator", "Valor", "Entrada", "Regra"}, {false, true, false, false}, {}};
    for (const auto& x : r.factors) f.rows.push_back({x.name, number_br(x.value, 4), x.input, x.rule});
    d.blocks.emplace_back(std::move(f));
  }
  report::Grid v{{"Valor intermediário", "Valor"}, {false, true}, {}};
  for (const auto& [name, value] : r.values) v.rows.push_back({name, number_br(value, 4)});
  d.blocks.emplace_back(std::move(v));
  if (!r.bands.empty()) {
    report::Grid b{{"De (R$)", "Até (R$)", "Alíquota", "Base (R$)", "Imposto (R$)"}, {true, true, true, true, true}, {}};
    for (const auto& x : r.bands)
      b.rows.push_back({number_br(x.from, 2), x.to ? number_br(*x.to, 2) : "-", number_br(x.rate, 4),
                        number_br(x.base, 2), number_br(x.tax, 2)});
    d.blocks.emplace_back(std::move(b));
  }
}

}  // namespace

report::Document valuation_report(const std::string& municipio, const Property& p, const Profile& profile,
                                  std::optional<int> year, const valuation::Result& r) {
  report::Document d;
  d.title = "Laudo de avaliação do imóvel " + p.inscricao_cartografica;
  d.subtitle = municipio + " — perfil de avaliação " + profile.nome +
               (year ? " — idades contadas até " + std::to_string(*year) : "");
  d.blocks.emplace_back(report::Heading{"Imóvel", 1});
  d.blocks.emplace_back(property_items(p));
  if (!p.buildings.empty()) {
    d.blocks.emplace_back(report::Heading{"Edificações do lote", 1});
    d.blocks.emplace_back(buildings_grid(p));
  }
  double vvt = r.value_of("VVT").value_or(0), vve = r.value_of("VVE").value_or(0), vvi = r.value_of("VVI").value_or(0);
  d.blocks.emplace_back(report::Heading{"Resultado", 1});
  d.blocks.emplace_back(report::KeyValues{{{"Valor venal do terreno (VVT)", money(vvt)},
                                           {"Valor venal das construções (VVE)", money(vve)},
                                           {"Valor venal do imóvel (VVI)", money(vvi)},
                                           {"IPTU", money(r.value)}}});
  d.blocks.emplace_back(report::Heading{"Memória de cálculo", 1});
  std::size_t building = 0;
  for (const auto& c : r.components) {
    std::string title = kind_title(c.kind);
    if (c.kind == "construcao") title += " — construção " + std::to_string(++building);
    memory(d, c, title);
  }
  memory(d, r, kind_title(r.kind));
  return d;
}

report::Document preview_sheet(const std::string& municipio, const Property& p, const std::string& map,
                               std::int64_t geometria, const GeometryValues& values, const std::vector<PhotoFile>& photos) {
  report::Document d;
  d.title = "Ficha prévia do imóvel " + p.inscricao_cartografica;
  d.subtitle = municipio + " — geometria " + std::to_string(geometria) +
               (values.camada.empty() ? "" : " da camada " + values.camada);
  d.blocks.emplace_back(report::Heading{"Imóvel", 1});
  d.blocks.emplace_back(property_items(p));
  if (!map.empty()) {
    d.blocks.emplace_back(report::Heading{"Localização", 1});
    d.blocks.emplace_back(report::Image{map, report::Image::Format::png,
                                        "Lote em azul, lotes vizinhos em cinza, edificações em cinza escuro, "
                                        "geometria do projeto em vermelho",
                                        300});
  }
  d.blocks.emplace_back(report::Heading{"Valores da geometria", 1});
  report::KeyValues kv;
  for (const auto& [campo, valor] : values.values) kv.items.emplace_back(campo, valor ? field_values::display(*valor).value_or("-") : "-");
  if (kv.items.empty()) kv.items.emplace_back("(nenhum valor)", "-");
  d.blocks.emplace_back(std::move(kv));
  if (!p.buildings.empty()) {
    d.blocks.emplace_back(report::Heading{"Edificações do lote", 1});
    d.blocks.emplace_back(buildings_grid(p));
  }
  if (!photos.empty()) {
    d.blocks.emplace_back(report::Heading{"Fotos", 1});
    for (const auto& f : photos) {
      if (f.bytes.empty())
        d.blocks.emplace_back(report::Paragraph{f.nome});
      else
        d.blocks.emplace_back(report::Image{f.bytes, f.png ? report::Image::Format::png : report::Image::Format::jpeg,
                                            f.nome, 260});
    }
  }
  return d;
}

}  // namespace cadastre::platform::city_reports
