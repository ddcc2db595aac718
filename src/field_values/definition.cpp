#include "cadastre/field_definitions.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/formula.hpp"

namespace cadastre::field_values {
namespace {

const std::regex kKey("[a-z][a-z0-9_]{0,62}");

[[noreturn]] void bad(const std::string& message, const char* field) {
  throw Error(errc::invalid_argument, message, field);
}

template <class T>
void take(T& target, const std::optional<T>& change) {
  if (change) target = *change;
}


void validate_options(const Definition& d) {
  const auto& t = d.def.tipo;
  bool lists = t == "lista" || t == "multipla";
  if (!lists) {
    if (!d.def.opcoes.empty()) bad("opcoes só se aplica aos tipos lista e multipla", "opcoes");
    return;
  }
  if (d.def.opcoes.empty()) bad("o tipo " + t + " pede opcoes (uma lista de textos)", "opcoes");
  if (d.def.opcoes.size() > 500) bad("opcoes: no máximo 500", "opcoes");
  std::set<std::string> seen;
  for (const auto& o : d.def.opcoes) {
    if (o.find_first_not_of(" \t\r\n") == std::string::npos || o.size() > 200)
      bad("opcoes: cada opção tem de 1 a 200 caracteres", "opcoes");
    if (!seen.insert(o).second) bad("opcoes: opção repetida " + o, "opcoes");
  }
}

void validate_bounds(const Definition& d) {
  std::string_view kind = bounds_kind(d.def.tipo);
  auto number = [&](const std::optional<std::string>& v, const char* name) -> std::optional<double> {
    if (!v) return std::nullopt;
    if (kind.empty()) bad(std::string(name) + " não se aplica ao tipo " + d.def.tipo, name);
    double x = std::strtod(v->c_str(), nullptr);
    if (kind == "tamanho" && (x < 0 || x != static_cast<double>(static_cast<long long>(x)) || x > 1e9))
      bad(std::string(name) + " é um tamanho: um inteiro de 0 em diante", name);
    return x;
  };
  auto lo = number(d.def.minimo, "minimo"), hi = number(d.def.maximo, "maximo");
  if (lo && hi && *lo > *hi) bad("minimo deve ser menor ou igual a maximo", "minimo");
}

}  // namespace

bool is_text_type(std::string_view tipo) { return tipo == "texto" || tipo == "texto_longo"; }

std::string_view bounds_kind(std::string_view tipo) noexcept {
  if (tipo == "inteiro" || tipo == "decimal") return "numero";
  if (is_text_type(tipo) || tipo == "multipla") return "tamanho";
  return {};
}

Definition apply(Definition d, const Changes& c) {
  take(d.def.nome, c.nome);
  take(d.def.chave, c.chave);
  take(d.def.tipo, c.tipo);
  take(d.def.obrigatorio, c.obrigatorio);
  take(d.def.unico, c.unico);
  take(d.ativo, c.ativo);
  take(d.def.minimo, c.minimo);
  take(d.def.maximo, c.maximo);
  take(d.def.padrao, c.padrao);
  take(d.def.dominio, c.dominio);
  take(d.def.formula, c.formula);
  take(d.avaliacao, c.avaliacao);
  take(d.ajuda, c.ajuda);
  if (c.opcoes) d.def.opcoes = c.opcoes->value_or(std::vector<std::string>{});
  take(d.ordem, c.ordem);
  return d;
}

void validate(const Definition& d) {
  const FieldDef& f = d.def;
  if (f.nome.find_first_not_of(" \t\r\n") == std::string::npos || f.nome.size() > 200)
    bad("nome deve ter de 1 a 200 caracteres", "nome");
  if (!std::regex_match(f.chave, kKey))
    bad("chave: letras minúsculas, dígitos e _, começando por letra (até 63)", "chave");
  const auto& names = type_names();
  if (std::find(names.begin(), names.end(), f.tipo) == names.end()) {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    bad("tipo deve ser um de: " + all, "tipo");
  }
  validate_bounds(d);
  validate_options(d);
  if (f.padrao) {
    if (!is_text_type(f.tipo)) bad("padrao só se aplica aos tipos texto e texto_longo", "padrao");
    if (auto p = pattern_problem(*f.padrao); !p.empty()) bad("padrao: " + p, "padrao");
  }
  if (f.tipo == "lista_dominio") {
    if (!f.dominio) bad("o tipo lista_dominio pede dominio (uma tabela do esquema dominio)", "dominio");
    if (!std::regex_match(*f.dominio, kKey)) bad("dominio: nome de tabela inválido", "dominio");
  } else if (f.dominio) {
    bad("dominio só se aplica ao tipo lista_dominio", "dominio");
  }
  if (f.tipo == "calculado") {
    if (!f.formula) bad("o tipo calculado pede formula", "formula");
    cadastre::formula::Formula::parse(*f.formula);  // its errors name "formula"
  } else if (f.formula) {
    bad("formula só se aplica ao tipo calculado", "formula");
  }
  if (f.unico && (f.tipo == "booleano" || f.tipo == "multipla" || f.tipo == "calculado"))
    bad("unico não se aplica ao tipo " + f.tipo, "unico");
  if (d.avaliacao && !std::regex_match(*d.avaliacao, kKey))
    bad("avaliacao: o nome da variável tem letras minúsculas, dígitos e _, começando por letra", "avaliacao");
  if (d.ajuda && d.ajuda->size() > 2000) bad("ajuda deve ter até 2000 caracteres", "ajuda");
  if (d.ordem < 0) bad("ordem deve ser de 0 em diante", "ordem");
}

}  // namespace cadastre::field_values
