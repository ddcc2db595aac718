// The official IBGE tables as CSV: the attribute tables of the "Malha Municipal" and of the
// census sectors ("Malha de Setores Censitários", e.g. exported with
// `ogr2ogr -f CSV out.csv BR_Municipios_2022.shp`), loaded into the platform database
// through a temporary table and one upsert, so a file either loads whole or not at all.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <vector>

#include "cadastre/error.hpp"
#include "demo/copy.hpp"
#include "demo/geografia.hpp"

namespace cadastre::store {
namespace {

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool digits(const std::string& s, std::size_t n) {
  return s.size() == n && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// One CSV file: its header (upper-cased names → column) and rows, split on the separator
// the header uses, with "quoted" fields ("" inside a quote is one quote).
class Csv {
 public:
  explicit Csv(const std::string& path) : in_(path) {
    if (!in_) throw Error(errc::not_found, "não foi possível abrir " + path, "arquivo");
    std::string line;
    if (!std::getline(in_, line)) throw Error(errc::invalid_argument, path + ": arquivo vazio", "arquivo");
    if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 BOM
    sep_ = line.find(';') != std::string::npos ? ';' : ',';
    auto names = split(line);
    for (std::size_t i = 0; i < names.size(); ++i) columns_[upper(trim(names[i]))] = i;
  }

  /// The column of the first of `names` present in the header.
  std::optional<std::size_t> column(std::initializer_list<const char*> names) const {
    for (const char* n : names)
      if (auto it = columns_.find(n); it != columns_.end()) return it->second;
    return std::nullopt;
  }
  std::size_t need(std::initializer_list<const char*> names) const {
    auto c = column(names);
    if (!c) throw Error(errc::missing_field, fmt::format("coluna {} ausente no cabeçalho", *names.begin()), *names.begin());
    return *c;
  }

  bool next(std::vector<std::string>& row) {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_;
      if (trim(line).empty()) continue;
      row = split(line);
      return true;
    }
    return false;
  }
  std::size_t line() const { return line_ + 1; }  // the header is line 1

 private:
  std::vector<std::string> split(const std::string& line) const {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = !quoted;
      else if (c == sep_ && !quoted) out.emplace_back();
      else out.back() += c;
    }
    for (auto& f : out) f = trim(f);
    return out;
  }

  std::ifstream in_;
  char sep_ = ',';
  std::map<std::string, std::size_t> columns_;
  std::size_t line_ = 0;
};

std::string field(const std::vector<std::string>& row, std::optional<std::size_t> col) {
  return col && *col < row.size() ? row[*col] : "";
}

// An area: "794,571" or "794.571"; empty → null.
std::optional<std::string> area(const std::string& s, std::size_t line) {
  if (s.empty()) return std::nullopt;
  std::string v = s;
  std::replace(v.begin(), v.end(), ',', '.');
  char* end = nullptr;
  std::strtod(v.c_str(), &end);
  if (!end || *end) throw Error(errc::invalid_argument, fmt::format("linha {}: área inválida: {}", line, s), "AREA_KM2");
  return v;
}

// The UF of an IBGE code's first two digits.
std::string uf_of(const std::string& code) {
  static const std::map<std::string, std::string> kUf = {
      {"11", "RO"}, {"12", "AC"}, {"13", "AM"}, {"14", "RR"}, {"15", "PA"}, {"16", "AP"}, {"17", "TO"},
      {"21", "MA"}, {"22", "PI"}, {"23", "CE"}, {"24", "RN"}, {"25", "PB"}, {"26", "PE"}, {"27", "AL"},
      {"28", "SE"}, {"29", "BA"}, {"31", "MG"}, {"32", "ES"}, {"33", "RJ"}, {"35", "SP"}, {"41", "PR"},
      {"42", "SC"}, {"43", "RS"}, {"50", "MS"}, {"51", "MT"}, {"52", "GO"}, {"53", "DF"}};
  auto it = kUf.find(code.substr(0, 2));
  return it == kUf.end() ? "" : it->second;
}

// Runs `load` (which COPYs into the temporary table) and `upsert` in one transaction.
template <class Load>
std::int64_t in_transaction(PGconn* c, const std::string& temp, const std::string& upsert, Load load) {
  demo::exec(c, "begin");
  try {
    demo::exec(c, temp);
    std::int64_t n = load();
    demo::exec(c, upsert);
    demo::exec(c, "commit");
    return n;
  } catch (...) {
    demo::exec(c, "rollback");
    throw;
  }
}

}  // namespace

std::int64_t load_ibge_municipalities(PGconn* c, const std::string& path) {
  Csv csv(path);
  std::size_t code = csv.need({"CD_MUN", "CD_GEOCODM", "CODIGO"}), name = csv.need({"NM_MUN", "NM_MUNICIP", "NOME"});
  auto uf = csv.column({"SIGLA_UF", "SIGLA", "UF"});
  auto km2 = csv.column({"AREA_KM2"});
  return in_transaction(
      c, "create temp table carga_municipios (codigo text, nome text, uf text, area_km2 numeric) on commit drop",
      "insert into geografia.municipios (codigo, nome, uf, area_km2) select codigo, nome, uf, area_km2 "
      "from carga_municipios on conflict (codigo) do update set nome = excluded.nome, uf = excluded.uf, "
      "area_km2 = excluded.area_km2",
      [&] {
        demo::CopyWriter w(c, "carga_municipios (codigo, nome, uf, area_km2)");
        std::vector<std::string> row;
        while (csv.next(row)) {
          std::string k = field(row, code), n = field(row, name), u = upper(field(row, uf));
          if (!digits(k, 7)) throw Error(errc::invalid_argument, fmt::format("linha {}: código IBGE de 7 dígitos: {}", csv.line(), k), "CD_MUN");
          if (n.empty()) throw Error(errc::invalid_argument, fmt::format("linha {}: município sem nome", csv.line()), "NM_MUN");
          if (u.empty()) u = uf_of(k);
          if (u.size() != 2) throw Error(errc::invalid_argument, fmt::format("linha {}: UF inválida", csv.line()), "SIGLA_UF");
          w.text(k).text(n).text(u);
          if (auto a = area(field(row, km2), csv.line())) w.text(*a);
          else w.null();
          w.end_row();
        }
        return w.finish();
      });
}

std::int64_t load_ibge_sectors(PGconn* c, const std::string& path) {
  Csv csv(path);
  std::size_t code = csv.need({"CD_SETOR", "CD_GEOCODI", "CODIGO"});
  auto mun = csv.column({"CD_MUN", "CD_GEOCODM"});
  auto situacao = csv.column({"SITUACAO", "NM_SITUACAO", "CD_SIT"});
  auto tipo = csv.column({"CD_TIPO", "TIPO"});
  auto km2 = csv.column({"AREA_KM2"});
  return in_transaction(
      c,
      "create temp table carga_setores (codigo text, municipio text, situacao text, tipo text, area_km2 numeric) "
      "on commit drop",
      // A sector of a municipality not loaded yet is an error of the file order: the
      // foreign key refuses the whole file.
      "insert into geografia.setores (codigo, municipio_codigo, situacao, tipo, area_km2) select codigo, municipio, "
      "situacao, tipo, area_km2 from carga_setores on conflict (codigo) do update set municipio_codigo = "
      "excluded.municipio_codigo, situacao = excluded.situacao, tipo = excluded.tipo, area_km2 = excluded.area_km2",
      [&] {
        demo::CopyWriter w(c, "carga_setores (codigo, municipio, situacao, tipo, area_km2)");
        std::vector<std::string> row;
        while (csv.next(row)) {
          std::string k = field(row, code), m = field(row, mun);
          if (!digits(k, 15)) throw Error(errc::invalid_argument, fmt::format("linha {}: código de setor de 15 dígitos: {}", csv.line(), k), "CD_SETOR");
          if (m.empty()) m = k.substr(0, 7);
          if (m != k.substr(0, 7)) throw Error(errc::invalid_argument, fmt::format("linha {}: o setor {} não é do município {}", csv.line(), k, m), "CD_MUN");
          w.text(k).text(m);
          for (auto col : {situacao, tipo}) {
            std::string v = field(row, col);
            if (v.empty()) w.null();
            else w.text(v.substr(0, 50));
          }
          if (auto a = area(field(row, km2), csv.line())) w.text(*a);
          else w.null();
          w.end_row();
        }
        return w.finish();
      });
}

}  // namespace cadastre::store
