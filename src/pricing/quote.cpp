#include "cadastre/quote.hpp"

#include <algorithm>
#include <climits>

#include <fmt/format.h>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"

namespace cadastre::pricing {
namespace {

constexpr std::int64_t kMbPerGb = 1024;

// The license a pro rata purchase goes on: 'ativa' and running on `today` (a trial or an
// ended license buys a plan first).
const License& running(const Basis& b, Date today) {
  if (!b.licenca || b.licenca->status != "ativa")
    throw Error(errc::conflict, "o município não tem licença ativa: contrate um plano primeiro", "licenca");
  Date inicio = parse_date(b.licenca->inicio, "inicio"), fim = parse_date(b.licenca->fim, "fim");
  if (std::chrono::sys_days(today) < std::chrono::sys_days(inicio) ||
      std::chrono::sys_days(today) > std::chrono::sys_days(fim))
    throw Error(errc::invalid_argument, "data fora do período da licença (" + b.licenca->inicio + " a " +
                                            b.licenca->fim + ")", "data");
  return *b.licenca;
}

Change unchanged(const License& l) {
  return {false, l.plano, l.inicio, l.fim, l.max_usuarios, l.max_mb, l.adicionais};
}

// A quota column is an integer: a purchase that passes it is refused, not wrapped.
std::int64_t quota(std::int64_t v, const char* field) {
  if (v > INT32_MAX) throw Error(errc::invalid_argument, "a cota resultante passa do limite", field);
  return v;
}

Line prorated(std::string descricao, std::string unidade, double quantidade, std::int64_t units, std::int64_t per,
              std::int64_t monthly, Date from, Date to, const char* field) {
  Prorated p = prorate(units, per, monthly, from, to, field);
  return {std::move(descricao), std::move(unidade), quantidade, monthly, format(from), format(to),
          std::move(p.meses), p.centavos};
}

// Whole months of something kept through a renewal.
Line whole(std::string descricao, std::string unidade, std::int64_t quantidade, std::int64_t monthly, int months,
           Date from, Date to) {
  Wide total = static_cast<Wide>(quantidade) * monthly * months;
  if (total > INT64_MAX) throw Error(errc::invalid_argument, "valor grande demais", "gb");
  return {std::move(descricao), std::move(unidade), double(quantidade), monthly, format(from), format(to), {},
          static_cast<std::int64_t>(total)};
}

Quote start(const Basis& b, std::string tipo, Date today) {
  Quote q;
  q.tipo = std::move(tipo);
  q.data = format(today);
  q.base = b.licenca;
  q.impostos = b.impostos;
  return q;
}

}  // namespace

Quote plan_quote(const Basis& b, const Plan& p, const std::map<std::string, Addon>& catalog, Date today,
                 std::optional<std::int64_t> storage_gb) {
  Quote q = start(b, "plano", today);
  const int months = p.months();
  const License* l = b.licenca ? &*b.licenca : nullptr;
  bool renewal = l && l->plano == p.codigo && l->status == "ativa" &&
                 std::chrono::sys_days(today) <= std::chrono::sys_days(parse_date(l->fim, "fim"));
  Date from = renewal ? add_days(parse_date(l->fim, "fim"), 1) : today;
  Date to = period_end(from, months);
  q.linhas.push_back({"Plano " + p.nome + (renewal ? " (renovação)" : ""), "plano", 1, p.preco, format(from),
                      format(to), {}, p.preco});
  Change c;
  c.nova = !renewal;
  c.plano = p.codigo;
  c.inicio = renewal ? l->inicio : format(from);
  c.fim = format(to);
  c.max_usuarios = renewal ? std::max(l->max_usuarios, p.max_usuarios) : p.max_usuarios;
  c.max_mb = renewal ? std::max(l->max_mb, p.max_mb) : p.max_mb;
  if (storage_gb) {
    c.max_mb = quota(*storage_gb * kMbPerGb, "gb");
    if (c.max_mb < p.max_mb)
      throw Error(errc::invalid_argument, fmt::format("o plano já inclui {} MB: informe ao menos {} GB", p.max_mb,
                                                      (p.max_mb + kMbPerGb - 1) / kMbPerGb), "gb");
  }
  if (renewal) c.adicionais = l->adicionais;
  // What the license holds beyond the plan goes on for the whole new period, in whole GB.
  if (std::int64_t extra_gb = (c.max_mb - p.max_mb + kMbPerGb - 1) / kMbPerGb; extra_gb > 0)
    q.linhas.push_back(whole("Armazenamento além do plano", "GB", extra_gb, b.gb_mes, months, from, to));
  if (std::int64_t extra = c.max_usuarios - p.max_usuarios; extra > 0)
    q.linhas.push_back(whole("Usuários além do plano", "usuário", extra, b.usuario_mes, months, from, to));
  for (const auto& [codigo, n] : c.adicionais) {
    auto it = catalog.find(codigo);
    if (it == catalog.end() || n <= 0) continue;  // no longer sold: not renewed
    q.linhas.push_back(whole("Adicional " + it->second.nome, codigo, n, it->second.preco_mes, months, from, to));
  }
  std::erase_if(c.adicionais, [&](const auto& kv) { return !catalog.contains(kv.first) || kv.second <= 0; });
  q.alteracao = std::move(c);
  return q;
}

Quote storage_quote(const Basis& b, std::int64_t gb, bool upgrade, Date today) {
  Quote q = start(b, "armazenamento", today);
  const License& l = running(b, today);
  Date fim = parse_date(l.fim, "fim");
  q.alteracao = unchanged(l);
  std::int64_t added_mb = upgrade ? gb * kMbPerGb - l.max_mb : gb * kMbPerGb;
  if (upgrade && added_mb <= 0)
    throw Error(errc::conflict, fmt::format("a licença já tem {} MB: o novo total deve ser maior", l.max_mb), "gb");
  q.alteracao.max_mb = quota(l.max_mb + added_mb, "gb");
  double added_gb = double(added_mb) / kMbPerGb;
  q.linhas.push_back(prorated(fmt::format("Armazenamento {}: {} GB até {}", upgrade ? "(upgrade)" : "adicional",
                                          added_gb, l.fim),
                              "GB", added_gb, added_mb, kMbPerGb, b.gb_mes, today, fim, "gb"));
  return q;
}

Quote users_quote(const Basis& b, std::int64_t count, Date today) {
  Quote q = start(b, "usuario", today);
  const License& l = running(b, today);
  q.alteracao = unchanged(l);
  q.alteracao.max_usuarios = quota(l.max_usuarios + count, "quantidade");
  q.linhas.push_back(prorated(fmt::format("Usuários adicionais: {} até {}", count, l.fim), "usuário", double(count),
                              count, 1, b.usuario_mes, today, parse_date(l.fim, "fim"), "quantidade"));
  return q;
}

Quote addons_quote(const Basis& b, const std::vector<std::pair<Addon, std::int64_t>>& items, Date today) {
  Quote q = start(b, "adicionais", today);
  const License& l = running(b, today);
  q.alteracao = unchanged(l);
  for (const auto& [a, n] : items) {
    q.alteracao.adicionais[a.codigo] = quota(q.alteracao.adicionais[a.codigo] + n, "itens");
    q.linhas.push_back(prorated(fmt::format("Adicional {}: {} até {}", a.nome, n, l.fim), a.codigo, double(n), n, 1,
                                a.preco_mes, today, parse_date(l.fim, "fim"), "itens"));
  }
  return q;
}

std::vector<std::pair<Addon, std::int64_t>> addon_items(
    const std::map<std::string, Addon>& catalog, const std::vector<std::pair<std::string, std::int64_t>>& wanted) {
  std::vector<std::pair<Addon, std::int64_t>> items;
  for (const auto& [codigo, n] : wanted) {
    auto it = catalog.find(codigo);
    if (it == catalog.end()) throw Error(errc::invalid_argument, "adicional desconhecido: " + codigo, "itens");
    items.emplace_back(it->second, n);
  }
  return items;
}

Totals totals(const Quote& q) {
  Totals t;
  for (const Line& l : q.linhas) t.subtotal += l.total;
  t.total = t.subtotal;
  for (const Tax& x : q.impostos) {
    t.impostos.push_back(tax(t.subtotal, x.bp));
    t.total += t.impostos.back();
  }
  return t;
}

std::string to_json(const Quote& q) {
  const Totals sums = totals(q);
  JsonWriter w;
  w.begin_object().key("tipo").value(q.tipo).key("data").value(q.data).key("linhas").begin_array();
  for (const Line& l : q.linhas) {
    w.begin_object().key("descricao").value(l.descricao).key("quantidade").value(l.quantidade);
    w.key("unidade").value(l.unidade).key("precoUnitarioCentavos").value(l.preco_unitario);
    w.key("inicio").value(l.inicio).key("fim").value(l.fim).key("meses").begin_array();
    for (const MonthShare& m : l.meses)
      w.begin_object().key("mes").value(m.mes).key("dias").value(m.dias).key("diasDoMes").value(m.dias_do_mes).end_object();
    w.end_array().key("totalCentavos").value(l.total).end_object();
  }
  w.end_array().key("subtotalCentavos").value(sums.subtotal).key("impostos").begin_array();
  for (std::size_t i = 0; i < q.impostos.size(); ++i) {
    const Tax& t = q.impostos[i];
    const std::int64_t v = sums.impostos[i];
    w.begin_object().key("codigo").value(t.codigo).key("nome").value(t.nome).key("aliquotaBp").value(t.bp);
    w.key("valorCentavos").value(v).end_object();
  }
  w.end_array().key("totalCentavos").value(sums.total);
  const Change& c = q.alteracao;
  w.key("alteracao").begin_object().key("novaLicenca").value(c.nova).key("plano").value(c.plano);
  w.key("inicio").value(c.inicio).key("fim").value(c.fim).key("maxUsuarios").value(c.max_usuarios);
  w.key("maxArmazenamentoMb").value(c.max_mb).key("adicionais").begin_object();
  for (const auto& [k, v] : c.adicionais) w.key(k).value(v);
  w.end_object().end_object().key("licencaBase");
  if (q.base)
    w.begin_object().key("id").value(q.base->id).key("atualizadaEm").value(q.base->atualizada_em).end_object();
  else
    w.null();
  w.end_object();
  return std::move(w).str();
}

}  // namespace cadastre::pricing
