// The search box over a project's text values uses the GIN index projeto.valores_busca_idx
// on (campo_id, projeto.chave_busca(texto)) (migration 0015): the candidate where is
// exactly `v.campo_id = k.id and projeto.chave_busca(v.texto) like '%' || <term> || '%'`,
// one bitmap index scan per text field of the project. At most kCandidates candidates
// are ranked (exact, prefix, contains; then pg_trgm similarity), so a two-letter term
// over a large project stays bounded.
#include "platform/search/store.hpp"

#include <soci/soci.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <regex>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "cadastre/query.hpp"
#include "platform/common/stored_values.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::search {
namespace {

constexpr int kCandidates = 5000;

std::string id_text(std::int64_t id) { return std::to_string(id); }

// The SQL type a projeto.valores column's values are compared as.
std::string cast_of(std::string_view column) {
  if (column == "numero") return "numeric";
  if (column == "data") return "date";
  if (column == "booleano") return "boolean";
  if (column == "lista") return "jsonb";
  return "text";
}

struct FieldInfo {
  std::string tipo, column;
};

// 400 unless the value kinds fit the field's column and operator.
void check_condition(const Condition& c, const FieldInfo& f) {
  auto refuse = [&](const std::string& why) {
    throw Error(errc::invalid_argument, "campo " + id_text(c.campo) + " (" + f.tipo + "): " + why, "valor");
  };
  const std::string& op = c.operador;
  if (op == "vazio") return;
  if (op == "contem" && f.column != "texto" && f.column != "lista") refuse("contem só vale para textos e listas");
  if (f.column == "lista" && op != "contem") refuse("campos de múltipla escolha aceitam contem e vazio");
  if (f.column == "booleano" && op != "=" && op != "<>") refuse("booleanos aceitam =, <> e vazio");
  static const std::regex kDate(R"(^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$)");
  for (std::size_t i = 0; i < c.valores.size(); ++i) {
    const std::string& kind = c.kinds[i];
    if (f.column == "numero" && kind != "number") refuse("o valor deve ser um número");
    if (f.column == "booleano" && kind != "boolean") refuse("o valor deve ser true ou false");
    if ((f.column == "texto" || f.column == "lista") && kind != "string") refuse("o valor deve ser um texto");
    if (f.column == "data" && (kind != "string" || !std::regex_match(c.valores[i], kDate)))
      refuse("o valor deve ser uma data AAAA-MM-DD");
  }
}

// The predicate of one condition on geometry g (values bound).
void append_condition(store::Sql& q, const Condition& c, const FieldInfo& f) {
  const std::string col = "v." + f.column, cast = cast_of(f.column);
  auto head = [&](bool negate) {
    q << (negate ? "not exists" : "exists") << " (select 1 from projeto.valores v where v.geometria_id = g.id and v.campo_id = ";
    q.bind(id_text(c.campo), "bigint");
    q << " and ";
  };
  const std::string& op = c.operador;
  if (op == "vazio") {
    head(true);
    q << col << " is not null)";
    return;
  }
  head(false);
  if (op == "contem" && f.column == "lista") {
    q << col << " ? ";
    q.bind(c.valores[0], "text");
  } else if (op == "contem") {
    q << "projeto.chave_busca(" << col << ") like '%' || projeto.chave_busca(";
    q.bind(query::escape_like(c.valores[0]), "text");
    q << ") || '%'";
  } else if (op == "entre") {
    q << col << " between ";
    q.bind(c.valores[0], cast);
    q << " and ";
    q.bind(c.valores[1], cast);
  } else if (f.column == "texto" && (op == "=" || op == "<>")) {
    q << "projeto.chave_busca(" << col << ") " << op << " projeto.chave_busca(";
    q.bind(c.valores[0], "text");
    q << ")";
  } else {
    q << col << " " << op << " ";  // op is one of the parsed operators, never request text
    q.bind(c.valores[0], cast);
  }
  q << ")";
}

// Whether `termo` has three letters or digits in a row: the least pg_trgm looks up.
bool has_trigram(const std::string& termo) {
  int run = 0;
  for (unsigned char c : termo) {
    run = (std::isalnum(c) || c >= 0x80) ? run + 1 : 0;
    if (run >= 3) return true;
  }
  return false;
}

store::Sql search_sql(std::string prefix, const service::Caller& scope, std::int64_t projeto, const std::string& termo,
                      Fields fields, const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas) {
  store::Sql q(std::move(prefix));
  // SOCI numbers every occurrence of a placeholder: each use binds the term again.
  auto raw = [&] { return q.placeholder(termo, "text"); };
  auto like = [&] { return q.placeholder(query::escape_like(termo), "text"); };
  q << "with k as (select k.id, k.chave, k.nome, c.id as camada_id, c.nome as camada from projeto.campos k "
       "join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id "
       "where c.projeto_id = ";
  q.bind(id_text(projeto), "bigint");
  q << " and k.ativo and f.ativo and c.ativo and k.tipo in ('texto', 'texto_longo', 'lista', 'lista_dominio') and "
    << guard::layer_role_sql(scope, "c.id") << " is not null";
  if (!campos.empty()) q << " and k.id = any(", q.bind(store::id_array(campos), "bigint[]"), q << ")";
  if (!camadas.empty()) q << " and c.id = any(", q.bind(store::id_array(camadas), "bigint[]"), q << ")";
  if (fields == Fields::inscricao)
    q << " and (k.chave like '%inscricao%' or k.chave like '%icad%')";
  else if (fields == Fields::logradouro)
    q << " and (k.chave like '%logradouro%' or k.chave in ('rua', 'endereco'))";
  // Contains (the trigram index) when the term has a trigram; else starts with (the B-tree).
  const char* where = has_trigram(termo) ? "'%' || projeto.chave_busca(" : "projeto.chave_busca(";
  q << "), h as (select v.id, v.geometria_id, v.campo_id, v.texto, projeto.chave_busca(v.texto) as busca "
       "from k join projeto.valores v on v.campo_id = k.id "
       "where v.texto is not null and projeto.chave_busca(v.texto) like " << where
    << like() << ") || '%' limit " << std::to_string(kCandidates) << "), "
    << "r as (select h.*, case when h.busca = projeto.chave_busca(" << raw() << ") then 3 when h.busca like "
    << "projeto.chave_busca(" << like() << ") || '%' then 2 else 1 end as nivel, "
    << "similarity(h.busca, projeto.chave_busca(" << raw() << ")) as sim from h "
    << "order by nivel desc, sim desc, h.id limit " << std::to_string(kMaxHits) << ") "
    << "select coalesce(jsonb_agg(jsonb_build_object('idGeometria', r.geometria_id, 'idCamada', k.camada_id, "
       "'camada', k.camada, 'idCampo', k.id, 'campo', k.nome, 'chave', k.chave, 'valor', r.texto, "
       "'achado', case r.nivel when 3 then 'exato' when 2 then 'prefixo' else 'contem' end, "
       "'similaridade', round(r.sim::numeric, 4)) order by r.nivel desc, r.sim desc, r.id), '[]')::text "
       "from r join k on k.id = r.campo_id";
  return q;
}

// The filter of a FeatureQuery over geometry g: its fields checked against the layer
// (400 otherwise), then written into a statement as often as it needs, values bound each time.
class Filter {
 public:
  Filter(soci::session& s, const FeatureQuery& fq) : fq_(fq) {
    std::vector<std::int64_t> ids;
    for (const auto& c : fq.condicoes) ids.push_back(c.campo);
    if (ids.empty()) return;
    store::Sql f("select k.id::text, k.tipo from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
                 "where f.camada_id = ");
    f.bind(id_text(fq.camada), "bigint") << " and k.id = any(";
    f.bind(store::id_array(ids), "bigint[]") << ")";
    for (const auto& r : store::fetch(s, f))
      info_[std::stoll(*r[0])] = FieldInfo{*r[1], std::string(field_values::column_of(*r[1]))};
    for (const auto& c : fq.condicoes) {
      auto it = info_.find(c.campo);
      if (it == info_.end())
        throw Error(errc::invalid_argument, "idCampo: o campo " + id_text(c.campo) + " não é da camada " + id_text(fq.camada),
                    "idCampo");
      check_condition(c, it->second);
    }
  }

  void write(store::Sql& q) const {
    q << "g.camada_id = ";
    q.bind(id_text(fq_.camada), "bigint");
    if (fq_.condicoes.empty()) return;
    q << " and (";
    for (std::size_t i = 0; i < fq_.condicoes.size(); ++i) {
      if (i) q << (fq_.todas ? " and " : " or ");
      append_condition(q, fq_.condicoes[i], info_.at(fq_.condicoes[i].campo));
    }
    q << ")";
  }

 private:
  const FeatureQuery& fq_;
  std::map<std::int64_t, FieldInfo> info_;
};

}  // namespace

std::string text_search(const service::Caller& scope, std::int64_t projeto, const std::string& termo, Fields fields,
                        const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas) {
  store::Sql q = search_sql("", scope, projeto, termo, fields, campos, camadas);
  return scope.db->with([&](soci::session& s) {
    soci::transaction tx(s);
    s << "set local statement_timeout = " + std::to_string(kSearchMillis);
    std::string out = store::fetch_value(s, q).value_or("[]");
    tx.commit();
    return out;
  });
}

std::string text_search_plan(const service::Caller& scope, std::int64_t projeto, const std::string& termo, Fields fields,
                             const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas) {
  store::Sql q = search_sql("explain ", scope, projeto, termo, fields, campos, camadas);
  return scope.db->with([&](soci::session& s) {
    std::string out;
    for (const auto& row : store::fetch(s, q)) out += row[0].value_or("") + "\n";
    return out;
  });
}

Numbers numbers(store::Pool& pool, std::int64_t camada, std::int64_t campo) {
  return pool.with([&](soci::session& s) {
    store::Sql f("select k.tipo, k.chave from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
                 "where k.id = ");
    f.bind(id_text(campo), "bigint") << " and f.camada_id = ";
    f.bind(id_text(camada), "bigint");
    auto rows = store::fetch(s, f);
    if (rows.empty())
      throw Error(errc::invalid_argument, "idCampo: o campo " + id_text(campo) + " não é da camada " + id_text(camada),
                  "idCampo");
    if (field_values::column_of(*rows[0][0]) != "numero")
      throw Error(errc::invalid_argument, "idCampo: o mapa temático precisa de um campo numérico", "idCampo");
    Numbers out;
    out.chave = *rows[0][1];
    store::Sql v("select v.numero::float8::text from projeto.valores v join projeto.geometrias g on g.id = v.geometria_id "
                 "where v.campo_id = ");
    v.bind(id_text(campo), "bigint") << " and g.camada_id = ";
    v.bind(id_text(camada), "bigint") << " and v.numero is not null order by v.numero";
    for (const auto& r : store::fetch(s, v)) out.sorted.push_back(std::strtod(r[0]->c_str(), nullptr));
    store::Sql none("select count(*)::text from projeto.geometrias g where g.camada_id = ");
    none.bind(id_text(camada), "bigint")
        << " and not exists (select 1 from projeto.valores v where v.geometria_id = g.id and v.campo_id = ";
    none.bind(id_text(campo), "bigint") << " and v.numero is not null)";
    out.sem_valor = std::stoll(store::fetch_value(s, none).value_or("0"));
    return out;
  });
}

store::PageRows features(store::Pool& pool, const FeatureQuery& fq, const Page& page) {
  return pool.with([&](soci::session& s) {
    Filter filter(s, fq);
    store::Sql q("select (select count(*) from projeto.geometrias g where ");
    filter.write(q);
    q << ")::text, coalesce(jsonb_agg(jsonb_build_object('idGeometria', p.id, 'geometria', "
         "st_asgeojson(p.geom)::jsonb, 'valores', (select coalesce(jsonb_object_agg(k.chave, "
         "projeto.valor_json(v.texto, v.numero, v.data, v.booleano, v.lista)), '{}') from projeto.valores v "
         "join projeto.campos k on k.id = v.campo_id where v.geometria_id = p.id)) order by p.id"
      << (page.descending ? " desc" : "") << "), '[]')::text from (select g.id, g.geom from projeto.geometrias g where ";
    filter.write(q);
    q << " order by g.id" << (page.descending ? " desc" : "");
    store::append_page(q, page.paging);
    q << ") p";
    return store::fetch_page(s, q);
  });
}

Rows rows(store::Pool& pool, const FeatureQuery& fq, const std::vector<std::int64_t>& campos, std::int64_t limit) {
  return pool.with([&](soci::session& s) {
    Filter filter(s, fq);
    Rows out;
    store::Sql count("select count(*)::text from projeto.geometrias g where ");
    filter.write(count);
    out.total = std::stoll(*store::fetch_value(s, count));
    // One line per (geometry, field); a geometry without the fields still has its line.
    store::Sql q("with p as (select g.id from projeto.geometrias g where ");
    filter.write(q);
    q << " order by g.id limit ";
    q.bind(id_text(limit), "bigint");
    q << ") select p.id::text, v.campo_id::text, " << common::kValueColumns
      << " from p left join projeto.valores v on v.geometria_id = p.id and v.campo_id = any(";
    q.bind(store::id_array(campos), "bigint[]");
    q << ") order by p.id";
    for (const auto& r : store::fetch(s, q)) {
      std::int64_t id = std::stoll(*r[0]);
      if (out.rows.empty() || out.rows.back().id != id)
        out.rows.push_back(Row{id, std::vector<std::optional<field_values::Typed>>(campos.size())});
      if (!r[1]) continue;
      std::int64_t campo = std::stoll(*r[1]);
      for (std::size_t i = 0; i < campos.size(); ++i)  // a field may be asked twice (a column and the group)
        if (campos[i] == campo) out.rows.back().values[i] = common::stored_value(r, 2);
    }
    return out;
  });
}

std::string base_maps(store::Pool& pool) {
  store::Sql q(
      "select coalesce(jsonb_agg(jsonb_build_object('id', id, 'nome', nome, 'tipo', tipo, 'url', url, "
      "'atribuicao', atribuicao, 'zoomMaximo', zoom_maximo, 'padrao', padrao, 'ordem', ordem) order by ordem, id), "
      "'[]')::text from geografia.mapas_base");
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

}  // namespace cadastre::platform::search
