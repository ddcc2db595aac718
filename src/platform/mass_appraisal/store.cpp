#include "platform/mass_appraisal/store.hpp"

#include <fmt/format.h>
#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::mass_appraisal {
namespace {

std::string n(std::int64_t v) { return std::to_string(v); }

// PostgreSQL array literals of numbers we hold (never request text).
std::string ints(const std::vector<std::int64_t>& v) {
  std::string out = "{";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "}";
}
std::string doubles(const std::vector<double>& v, const char* format = "{:.17g}") {
  std::string out = "{";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + fmt::format(fmt::runtime(format), v[i]);
  return out + "}";
}
template <typename Pairs>
std::pair<std::vector<std::int64_t>, std::vector<double>> split(const Pairs& pairs) {
  std::pair<std::vector<std::int64_t>, std::vector<double>> out;
  for (const auto& [id, v] : pairs) out.first.push_back(id), out.second.push_back(v);
  return out;
}

double number(const std::string& t) { return std::stod(t); }

const std::string kModelJson =
    "jsonb_build_object('id', m.id, 'idProjeto', m.projeto_id, 'idCamada', m.camada_id, 'nome', m.nome, "
    "'especificacao', m.especificacao - 'preditor', 'coeficientes', m.coeficientes, 'resultado', m.resultado, "
    "'criadoPor', m.criado_por, 'criadoEm', m.criado_em)";

}  // namespace

std::int64_t insert_model(const service::Caller& s, const NewModel& m) {
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    store::Sql q("insert into projeto.modelos_avaliacao (projeto_id, camada_id, nome, especificacao, coeficientes, "
                 "resultado, criado_por) values (");
    q.bind(n(m.projeto), "bigint") << ", ";
    q.bind(n(m.camada), "bigint") << ", ";
    q.bind(m.nome) << ", ";
    q.bind(m.especificacao, "jsonb") << ", ";
    q.bind(m.coeficientes, "jsonb") << ", ";
    q.bind(m.resultado, "jsonb") << ", ";
    q.bind(n(s.user.user_id), "bigint") << ") returning id::text";
    std::int64_t id = std::stoll(*store::fetch_value(db, q));
    store::Sql samples("insert into projeto.modelo_amostras (modelo_id, geometria_id, observado, ajustado, residuo) "
                       "select ");
    samples.bind(n(id), "bigint") << ", u.* from unnest(";
    samples.bind(ints(m.geometrias), "bigint[]") << ", ";
    samples.bind(doubles(m.observado), "float8[]") << ", ";
    samples.bind(doubles(m.ajustado), "float8[]") << ", ";
    samples.bind(doubles(m.residuo), "float8[]") << ") u";
    store::execute(db, samples);
    tx.commit();
    return id;
  });
}

std::string model_json(const service::Caller& s, std::int64_t id) {
  store::Sql q("select " + kModelJson + "::text from projeto.modelos_avaliacao m where m.id = ");
  q.bind(n(id), "bigint");
  auto v = s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
  if (!v) throw Error(errc::not_found, "modelo não encontrado", "idModelo");
  return *v;
}

std::optional<StoredModel> find_model(const service::Caller& s, std::int64_t id) {
  store::Sql q("select id::text, projeto_id::text, camada_id::text, (especificacao -> 'preditor')::text "
               "from projeto.modelos_avaliacao where id = ");
  q.bind(n(id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) return std::nullopt;
  // A model /rlm/final did not write has no predictor: "{}" reads as one with nothing in it
  // (a 400 naming the member), never as a null.
  return StoredModel{std::stoll(*rows[0][0]), std::stoll(*rows[0][1]), std::stoll(*rows[0][2]),
                     rows[0][3].value_or("{}")};
}

StoredFit model_fit(const service::Caller& s, std::int64_t modelo) {
  // float8 is printed in its shortest exact form: the numbers read back are the ones stored.
  store::Sql q("select ajustado::text, residuo::text from projeto.modelo_amostras where modelo_id = ");
  q.bind(n(modelo), "bigint") << " order by geometria_id";
  StoredFit out;
  for (const auto& r : s.db->with([&](soci::session& db) { return store::fetch(db, q); })) {
    out.ajustado.push_back(number(*r[0]));
    out.residuo.push_back(number(*r[1]));
  }
  return out;
}

std::map<std::string, std::int64_t> numeric_fields_by_key(const service::Caller& s, std::int64_t layer,
                                                          const std::vector<std::string>& chaves) {
  std::string list = "{";
  for (std::size_t i = 0; i < chaves.size(); ++i) list += (i ? "," : "") + chaves[i];  // chaves match [a-z0-9_]
  list += "}";
  store::Sql q("select distinct on (k.chave) k.chave, k.id::text from projeto.campos k join projeto.formularios f "
               "on f.id = k.formulario_id where k.tipo in ('inteiro', 'decimal', 'calculado') and f.camada_id = ");
  q.bind(n(layer), "bigint") << " and k.chave = any(";
  q.bind(list, "text[]") << ") order by k.chave, k.ativo desc, k.id";
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  std::map<std::string, std::int64_t> out;
  for (const auto& r : rows) out[*r[0]] = std::stoll(*r[1]);
  return out;
}

bool is_decimal_field(const service::Caller& s, std::int64_t layer, std::int64_t campo) {
  store::Sql q("select count(*)::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
               "where k.tipo = 'decimal' and k.id = ");
  q.bind(n(campo), "bigint") << " and f.camada_id = ";
  q.bind(n(layer), "bigint");
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q); }) != "0";
}

std::map<std::int64_t, double> model_residuals(const service::Caller& s, std::int64_t modelo) {
  store::Sql q("select geometria_id::text, residuo::text from projeto.modelo_amostras where modelo_id = ");
  q.bind(n(modelo), "bigint");
  std::map<std::int64_t, double> out;
  for (const auto& r : s.db->with([&](soci::session& db) { return store::fetch(db, q); }))
    out[std::stoll(*r[0])] = number(*r[1]);
  return out;
}

std::vector<std::int64_t> write_residuals(const service::Caller& s, const ResidualWrite& w) {
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    auto previous = [&](const std::string& head, const std::string& tail) {
      store::Sql q(head);
      q << " projeto.modelo_residuos r where r.modelo_id = ";
      q.bind(n(w.modelo), "bigint") << " and r.tipo = ";
      q.bind(w.tipo) << tail;
      return q;
    };
    // The previous features of this model and kind: audited, their layers' tiles renewed, deleted.
    // Their layers first, as a constant: the statements are planned on those partitions.
    const std::string layers =
        store::fetch_value(db, previous("select coalesce(array_agg(distinct projeto.camada_da_geometria("
                                        "r.geometria_id)), '{}')::text from",
                                        ""))
            .value_or("{}");
    const std::string on = " and g.camada_id = any('" + layers + "'::bigint[])";
    store::execute(db, previous("insert into projeto.geometrias_auditoria (geometria_id, camada_id, operacao, versao, "
                                "antes, depois, usuario_id) select g.id, g.camada_id, 'excluir', g.versao, "
                                "projeto.geometria_estado(g.id), null, " +
                                    n(s.user.user_id) + " from projeto.geometrias g,",
                                " and r.geometria_id = g.id" + on));
    store::execute(db, previous("update projeto.camadas c set geracao = geracao + 1 from projeto.geometrias g,",
                                " and r.geometria_id = g.id and g.camada_id = c.id" + on));
    store::execute(db, previous("delete from projeto.geometrias g using", " and r.geometria_id = g.id" + on));

    std::vector<std::int64_t> created;
    for (std::size_t i = 0; i < w.amostras.size(); ++i) {
      std::string field = "feicoes[" + std::to_string(i) + "].geometria";
      store::Sql check("select r.erro, projeto.geometria_do_tipo(r.geom, ");
      check.bind(w.tipo) << ")::text from projeto.geometria_ler(null, ";
      check.bind(w.geojson[i]) << ", null) r";
      auto row = store::fetch(db, check).at(0);
      if (row[0]) throw Error(errc::invalid_argument, field + ": " + *row[0], field);
      if (row[1] != "true") throw Error(errc::invalid_argument, field + ": a geometria deve ser do tipo " + w.tipo, field);
      store::Sql ins("insert into projeto.geometrias (camada_id, geom, criado_por) select ");
      ins.bind(n(w.camada), "bigint") << ", r.geom, ";
      ins.bind(n(s.user.user_id), "bigint") << " from projeto.geometria_ler(null, ";
      ins.bind(w.geojson[i]) << ", null) r returning id::text";
      std::int64_t id = std::stoll(*store::fetch_value(db, ins));
      // The residual in the field's column of the layer's table (a new geometry: a new row), audited.
      const std::string column = common::field_column(w.campo);
      store::Sql val("with v as (insert into " + common::layer_table(w.camada) + " (id, " + column + ") values (");
      val.bind(n(id), "bigint") << ", ";
      val.bind(fmt::format("{:.17g}", w.residuos[i]), "numeric")
          << ") returning id, " << column
          << ") insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, antes, depois, "
             "usuario_id) select "
          << common::value_id_sql("v.id", "k.posicao") << ", v.id, k.id, 'criar', null, to_jsonb(v." << column
          << "), ";
      val.bind(n(s.user.user_id), "bigint") << " from v join projeto.campos k on k.id = ";
      val.bind(n(w.campo), "bigint");
      store::execute(db, val);
      store::Sql audit("select 1 from projeto.geometria_registrar(");
      audit.bind(n(id), "bigint") << ", ";
      audit.bind(n(w.camada), "bigint") << ", 'criar', null, ";
      audit.bind(n(s.user.user_id), "bigint") << ")";
      store::fetch(db, audit);
      store::Sql link("insert into projeto.modelo_residuos (modelo_id, tipo, amostra_id, geometria_id) values (");
      link.bind(n(w.modelo), "bigint") << ", ";
      link.bind(w.tipo) << ", ";
      link.bind(n(w.amostras[i]), "bigint") << ", ";
      link.bind(n(id), "bigint") << ")";
      store::execute(db, link);
      created.push_back(id);
    }
    tx.commit();
    return created;
  });
}

LayerFile layer_file(const service::Caller& s, std::int64_t layer) {
  store::Sql q("select tipo, arquivo, projeto_id::text, geometria from projeto.camadas where id = ");
  q.bind(n(layer), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) throw Error(errc::not_found, "camada não encontrada", "idCamada");
  return {*rows[0][0], rows[0][1], std::stoll(*rows[0][2]), *rows[0][3]};
}

std::vector<FacePoint> face_points(const service::Caller& s) {
  store::Sql q("select f.id::text, st_x(x.p)::text, st_y(x.p)::text from cadastro.face_quadra f "
               "cross join lateral (select st_lineinterpolatepoint(f.geom, 0.5) as p) x order by f.id");
  std::vector<FacePoint> out;
  for (const auto& r : s.db->with([&](soci::session& db) { return store::fetch(db, q); }))
    out.push_back({std::stoll(*r[0]), number(*r[1]), number(*r[2])});
  return out;
}

std::vector<std::pair<std::int64_t, double>> face_medians(const service::Caller& s,
                                                          const std::vector<std::pair<std::int64_t, double>>& values,
                                                          double raio) {
  auto [ids, nums] = split(values);
  store::Sql q("with e(id, v) as (select * from unnest(");
  q.bind(ints(ids), "bigint[]") << ", ";
  q.bind(doubles(nums), "float8[]")
      << ")) select f.id::text, (percentile_cont(0.5) within group (order by e.v))::text from e "
         "join projeto.geometrias g on g.id = e.id and g.camada_id = any(projeto.camadas_das_geometrias(";
  q.bind(ints(ids), "bigint[]") << ")) join cadastro.face_quadra f "
         "on st_dwithin(f.geom::geography, g.geom::geography, ";
  q.bind(fmt::format("{:.17g}", raio), "float8") << ") group by f.id order by f.id";
  std::vector<std::pair<std::int64_t, double>> out;
  for (const auto& r : s.db->with([&](soci::session& db) { return store::fetch(db, q); }))
    out.emplace_back(std::stoll(*r[0]), number(*r[1]));
  return out;
}

std::string write_pvg_version(const service::Caller& s, const PvgVersion& v) {
  auto [ids, nums] = split(v.valores);
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    // One generation at a time: version numbers in order, each map complete.
    store::execute(db, store::Sql("lock table avaliacao.pvg_versoes in exclusive mode"));
    std::int64_t last =
        std::stoll(*store::fetch_value(db, store::Sql("select coalesce(max(numero), 0)::text from avaliacao.pvg_versoes")));
    if (last == 0) {  // the map as it was before the first generation
      store::Sql first("with v as (insert into avaliacao.pvg_versoes (numero, origem, descricao, criado_por) values "
                       "(1, 'inicial', 'valores anteriores à primeira geração', ");
      first.bind(n(s.user.user_id), "bigint") << ") returning id) insert into avaliacao.pvg_valores (versao_id, "
                                                 "face_quadra_id, valor_m2) select v.id, f.id, f.valor_m2 from v, "
                                                 "cadastro.face_quadra f";
      store::execute(db, first);
      last = 1;
    }
    auto opt = [](const std::optional<std::int64_t>& x) { return x ? store::Value(n(*x)) : std::nullopt; };
    store::Sql version("insert into avaliacao.pvg_versoes (numero, origem, projeto_id, camada_id, modelo_id, descricao, "
                       "criado_por) values (");
    version.bind(n(last + 1), "integer") << ", ";
    version.bind(v.origem) << ", ";
    version.bind(opt(v.projeto), "bigint") << ", ";
    version.bind(opt(v.camada), "bigint") << ", ";
    version.bind(opt(v.modelo), "bigint") << ", ";
    version.bind(v.descricao) << ", ";
    version.bind(n(s.user.user_id), "bigint") << ") returning id::text";
    std::string id = *store::fetch_value(db, version);
    auto values = [&](store::Sql& q) {
      q << "unnest(";
      q.bind(ints(ids), "integer[]") << ", ";
      q.bind(doubles(nums, "{:.2f}"), "numeric[]") << ") n(id, v)";
    };
    store::Sql map("insert into avaliacao.pvg_valores (versao_id, face_quadra_id, valor_m2) select ");
    map.bind(id, "bigint") << ", f.id, coalesce(n.v, f.valor_m2) from cadastro.face_quadra f left join ";
    values(map);
    map << " on n.id = f.id";
    store::execute(db, map);
    store::Sql faces("with u as (update cadastro.face_quadra f set valor_m2 = n.v from ");
    values(faces);
    faces << " where n.id = f.id and f.valor_m2 <> n.v returning 1) update avaliacao.pvg_versoes set faces_alteradas = "
             "(select count(*) from u) where id = ";
    faces.bind(id, "bigint");
    store::execute(db, faces);
    store::Sql out("select jsonb_build_object('id', v.id, 'numero', v.numero, 'origem', v.origem, 'idProjeto', "
                   "v.projeto_id, 'idCamada', v.camada_id, 'idModelo', v.modelo_id, 'descricao', v.descricao, "
                   "'facesAlteradas', v.faces_alteradas, 'criadoPor', v.criado_por, 'criadoEm', v.criado_em, "
                   "'versaoAnterior', v.numero - 1)::text from avaliacao.pvg_versoes v where v.id = ");
    out.bind(id, "bigint");
    std::string json = *store::fetch_value(db, out);
    tx.commit();
    return json;
  });
}

}  // namespace cadastre::platform::mass_appraisal
