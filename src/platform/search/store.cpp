// The search box over a project's text values reads the layers' tables
// (platform/common/layer_table.hpp): one branch per text field of the project, each
// `projeto.chave_busca(l.c_<campo>) like '%' || <term> || '%'` on its layer's table, which
// the trigram index on projeto.chave_busca(c_<campo>) answers (a term without a trigram:
// `like <term> || '%'`, the text_pattern_ops B-tree). At most kCandidates candidates
// are ranked (exact, prefix, contains; then pg_trgm similarity), so a two-letter term
// over a large project stays bounded.
#include "platform/search/store.hpp"

#include <soci/soci.h>

#include <cctype>
#include <cstdlib>
#include <regex>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "cadastre/query.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::search {
namespace {

constexpr int kCandidates = 5000;

std::string id_text(std::int64_t id) { return std::to_string(id); }

using common::LayerField;

// 400 unless the value kinds fit the field's type family and operator.
void check_condition(const Condition& c, const LayerField& f) {
  auto refuse = [&](const std::string& why) {
    throw Error(errc::invalid_argument, "campo " + id_text(c.campo) + " (" + f.tipo + "): " + why, "valor");
  };
  const std::string& op = c.operador;
  const std::string family = f.family();
  if (op == "vazio") return;
  if (op == "contem" && family != "texto" && family != "lista") refuse("contem só vale para textos e listas");
  if (family == "lista" && op != "contem") refuse("campos de múltipla escolha aceitam contem e vazio");
  if (family == "booleano" && op != "=" && op != "<>") refuse("booleanos aceitam =, <> e vazio");
  static const std::regex kDate(R"(^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$)");
  for (std::size_t i = 0; i < c.valores.size(); ++i) {
    const std::string& kind = c.kinds[i];
    if (family == "numero" && kind != "number") refuse("o valor deve ser um número");
    if (family == "booleano" && kind != "boolean") refuse("o valor deve ser true ou false");
    if ((family == "texto" || family == "lista") && kind != "string") refuse("o valor deve ser um texto");
    if (family == "data" && (kind != "string" || !std::regex_match(c.valores[i], kDate)))
      refuse("o valor deve ser uma data AAAA-MM-DD");
  }
}

// The predicate of one condition on geometry g of layer `camada` (values bound): a probe of
// g's row in the layer's table.
void append_condition(store::Sql& q, std::int64_t camada, const Condition& c, const LayerField& f) {
  const std::string col = "v." + f.column(), cast = common::column_type(f.tipo), family = f.family();
  auto head = [&](bool negate) {
    q << (negate ? "not exists" : "exists") << " (select 1 from " << common::layer_table(camada)
      << " v where v.id = g.id and ";
  };
  const std::string& op = c.operador;
  if (op == "vazio") {
    head(true);
    q << col << " is not null)";
    return;
  }
  head(false);
  if (op == "contem" && family == "lista") {
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
  } else if (family == "texto" && (op == "=" || op == "<>")) {
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

// A text field the search looks in, and the layer whose table holds its values.
struct SearchedField {
  std::int64_t campo = 0, camada = 0;
  int posicao = 0;
};

// The text fields of the project a search looks in: active, of active forms and layers the
// caller may read, narrowed to `campos` / `camadas` / the kind of field.
std::vector<SearchedField> searched_fields(soci::session& s, const service::Caller& scope, std::int64_t projeto,
                                           Fields fields, const std::vector<std::int64_t>& campos,
                                           const std::vector<std::int64_t>& camadas) {
  store::Sql q("select k.id::text, c.id::text, k.posicao::text from projeto.campos k "
               "join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id "
               "where c.projeto_id = ");
  q.bind(id_text(projeto), "bigint");
  q << " and k.ativo and f.ativo and c.ativo and k.tipo in ('texto', 'texto_longo', 'lista', 'lista_dominio') and "
    << guard::layer_role_sql(scope, "c.id") << " is not null";
  if (!campos.empty()) q << " and k.id = any(", q.bind(store::id_array(campos), "bigint[]"), q << ")";
  if (!camadas.empty()) q << " and c.id = any(", q.bind(store::id_array(camadas), "bigint[]"), q << ")";
  if (fields == Fields::inscricao)
    q << " and (k.chave like '%inscricao%' or k.chave like '%icad%')";
  else if (fields == Fields::logradouro)
    q << " and (k.chave like '%logradouro%' or k.chave in ('rua', 'endereco'))";
  q << " order by k.id";
  std::vector<SearchedField> out;
  for (const store::Row& r : store::fetch(s, q)) out.push_back({std::stoll(*r[0]), std::stoll(*r[1]), std::stoi(*r[2])});
  return out;
}

// The search over `searched` (not empty): the candidates of each field, from its layer's
// table, then ranked.
store::Sql search_sql(std::string prefix, const std::string& termo, const std::vector<SearchedField>& searched) {
  store::Sql q(std::move(prefix));
  // Each use binds the term again (store::Sql::placeholder: a placeholder is written once).
  auto raw = [&] { return q.placeholder(termo, "text"); };
  auto like = [&] { return q.placeholder(query::escape_like(termo), "text"); };
  std::vector<std::int64_t> ids;
  for (const SearchedField& f : searched) ids.push_back(f.campo);
  q << "with k as (select k.id, k.chave, k.nome, c.id as camada_id, c.nome as camada from projeto.campos k "
       "join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id "
       "where k.id = any(";
  q.bind(store::id_array(ids), "bigint[]");
  // Contains (the trigram index) when the term has a trigram; else starts with (the B-tree).
  const char* where = has_trigram(termo) ? "'%' || projeto.chave_busca(" : "projeto.chave_busca(";
  q << ")), h as (select * from (";
  for (std::size_t i = 0; i < searched.size(); ++i) {
    const std::string col = "l." + common::field_column(searched[i].campo);
    q << (i ? " union all " : "") << "select " << common::value_id_sql("l.id", std::to_string(searched[i].posicao))
      << " as id, l.id as geometria_id, " << id_text(searched[i].campo) << "::bigint as campo_id, " << col
      << " as texto, projeto.chave_busca(" << col << ") as busca from " << common::layer_table(searched[i].camada)
      << " l where projeto.chave_busca(" << col << ") like " << where << like() << ") || '%'";
  }
  q << ") u limit " << std::to_string(kCandidates) << "), "
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
  Filter(soci::session& s, const FeatureQuery& fq) : fq_(fq), fields_(common::layer_fields(s, fq.camada)) {
    for (const auto& c : fq.condicoes) check_condition(c, field(c.campo));
  }

  void write(store::Sql& q) const {
    q << "g.camada_id = ";
    q.bind(id_text(fq_.camada), "bigint");
    if (fq_.condicoes.empty()) return;
    q << " and (";
    for (std::size_t i = 0; i < fq_.condicoes.size(); ++i) {
      if (i) q << (fq_.todas ? " and " : " or ");
      append_condition(q, fq_.camada, fq_.condicoes[i], field(fq_.condicoes[i].campo));
    }
    q << ")";
  }

  /// Every field of the layer.
  const std::vector<LayerField>& fields() const { return fields_; }

 private:
  const LayerField& field(std::int64_t campo) const {
    for (const LayerField& f : fields_)
      if (f.id == campo) return f;
    throw Error(errc::invalid_argument, "idCampo: o campo " + id_text(campo) + " não é da camada " + id_text(fq_.camada),
                "idCampo");
  }

  const FeatureQuery& fq_;
  std::vector<LayerField> fields_;
};

}  // namespace

std::string text_search(const service::Caller& scope, std::int64_t projeto, const std::string& termo, Fields fields,
                        const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas) {
  return scope.db->with([&](soci::session& s) {
    soci::transaction tx(s);
    s << "set local statement_timeout = " + std::to_string(kSearchMillis);
    std::vector<SearchedField> searched = searched_fields(s, scope, projeto, fields, campos, camadas);
    std::string out = searched.empty() ? "[]" : store::fetch_value(s, search_sql("", termo, searched)).value_or("[]");
    tx.commit();
    return out;
  });
}

std::string text_search_plan(const service::Caller& scope, std::int64_t projeto, const std::string& termo, Fields fields,
                             const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas) {
  return scope.db->with([&](soci::session& s) {
    std::vector<SearchedField> searched = searched_fields(s, scope, projeto, fields, campos, camadas);
    std::string out;
    if (searched.empty()) return out;
    for (const auto& row : store::fetch(s, search_sql("explain ", termo, searched))) out += row[0].value_or("") + "\n";
    return out;
  });
}

Numbers numbers(store::Pool& pool, std::int64_t camada, std::int64_t campo) {
  return pool.with([&](soci::session& s) {
    store::Sql f("select k.tipo, k.chave from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
                 "where k.id = ");
    f.bind(id_text(campo), "bigint") << " and f.camada_id = ";
    f.bind(id_text(camada), "bigint").reuse_plan();
    auto rows = store::fetch(s, f);
    if (rows.empty())
      throw Error(errc::invalid_argument, "idCampo: o campo " + id_text(campo) + " não é da camada " + id_text(camada),
                  "idCampo");
    if (field_values::column_of(*rows[0][0]) != "numero")
      throw Error(errc::invalid_argument, "idCampo: o mapa temático precisa de um campo numérico", "idCampo");
    Numbers out;
    out.chave = *rows[0][1];
    const std::string table = common::layer_table(camada), col = common::field_column(campo);
    // The (column, id) index in order.
    store::Sql v("select l." + col + "::float8::text from " + table + " l where l." + col + " is not null order by l." +
                 col);
    for (const auto& r : store::fetch(s, v)) out.sorted.push_back(std::strtod(r[0]->c_str(), nullptr));
    // The layer's geometries less those with a value.
    store::Sql total("select ");
    common::layer_total(total, camada);
    total << "::text";
    const std::int64_t n = std::stoll(store::fetch_value(s, total).value_or("0"));
    out.sem_valor = std::max<std::int64_t>(0, n - static_cast<std::int64_t>(out.sorted.size()));
    return out;
  });
}

store::PageRows features(store::Pool& pool, const FeatureQuery& fq, const Page& page) {
  return pool.with([&](soci::session& s) {
    Filter filter(s, fq);
    store::Sql q("select (select count(*) from projeto.geometrias g where ");
    filter.write(q);
    q << ")::text, coalesce(jsonb_agg(jsonb_build_object('idGeometria', p.id, 'geometria', "
         "st_asgeojson(p.geom)::jsonb, 'valores', coalesce((select "
      << common::values_object_sql(filter.fields(), "v") << " from " << common::layer_table(fq.camada)
      << " v where v.id = p.id), '{}')) order by p.id" << (page.descending ? " desc" : "")
      << "), '[]')::text from (select g.id, g.geom from projeto.geometrias g where ";
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
    // The asked fields of the layer (a field may be asked twice: a column and the group;
    // one of another layer has no value here), each read as the text of its column.
    std::vector<const LayerField*> asked(campos.size(), nullptr);
    for (std::size_t i = 0; i < campos.size(); ++i)
      for (const LayerField& f : filter.fields())
        if (f.id == campos[i]) asked[i] = &f;
    // One line per geometry, with its row of the layer's table (none: no values).
    store::Sql q("with p as (select g.id from projeto.geometrias g where ");
    filter.write(q);
    q << " order by g.id limit ";
    q.bind(id_text(limit), "bigint");
    q << ") select p.id::text";
    for (const LayerField* f : asked) q << ", " << (f ? "l." + f->column() + "::text" : "null");
    q << " from p left join " << common::layer_table(fq.camada) << " l on l.id = p.id order by p.id";
    for (const auto& r : store::fetch(s, q)) {
      Row row{std::stoll(*r[0]), std::vector<std::optional<field_values::Typed>>(campos.size())};
      for (std::size_t i = 0; i < asked.size(); ++i)
        if (asked[i]) row.values[i] = common::stored_value(asked[i]->tipo, r[i + 1]);
      out.rows.push_back(std::move(row));
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
