// POST /importar/add/ouv: the requests as a layer of a project, for the staff. One
// transaction, in three steps:
//   1. a status value staff changed in the layer since the last sync moves the request
//      (a history row by that user) — the layer is where staff work the requests;
//   2. a request whose status moved elsewhere (another layer) updates this layer's value;
//   3. the requests of the chosen statuses not yet in the layer become point geometries
//      with their values (protocolo, categoria, status, data, descricao; and the citizen's
//      nome, email, telefone only when the layer is private), audited like any write.
// The form "Ouvidoria" and its fields are created on the layer when missing.
#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/ombudsman/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::ombudsman {
namespace {

struct Wanted {
  const char* chave;
  const char* nome;
  const char* tipo;
  bool personal;
};
// The fields an import writes, with the type each must have.
const Wanted kFields[] = {
    {"protocolo", "Protocolo", "texto", false},   {"categoria", "Categoria", "texto", false},
    {"status", "Status", "lista", false},         {"data", "Data", "data", false},
    {"descricao", "Descrição", "texto_longo", false}, {"nome", "Nome do cidadão", "texto", true},
    {"email", "E-mail do cidadão", "texto", true}, {"telefone", "Telefone do cidadão", "texto", true},
};

void check_type(const std::string& tipo, const std::string& geometria) {
  if (tipo != "vetor" || (geometria != "ponto" && geometria != "qualquer"))
    throw Error(errc::invalid_argument, "idCamada: a camada de destino deve ser vetorial de pontos", "idCamada");
}

bool text_family(const std::string& tipo) { return tipo == "texto" || tipo == "texto_longo" || tipo == "lista"; }

// chave → field id on the layer, creating the missing ones in the form "Ouvidoria".
std::map<std::string, long long> ensure_fields(soci::session& s, long long layer, bool personal) {
  std::map<std::string, long long> ids;
  std::map<std::string, std::string> types;
  {
    store::Sql q("select f.chave, f.id::text, f.tipo from projeto.campos f join projeto.formularios fo "
                 "on fo.id = f.formulario_id where f.ativo and fo.ativo and fo.camada_id = ");
    q.bind(std::to_string(layer), "bigint");
    for (const auto& row : store::fetch(s, q)) {
      ids.emplace(*row[0], std::stoll(*row[1]));
      types.emplace(*row[0], *row[2]);
    }
  }
  long long form = 0;
  int ordem = 0;
  for (const auto& w : kFields) {
    if (w.personal && !personal) continue;
    ++ordem;
    if (auto t = types.find(w.chave); t != types.end()) {
      bool ok = std::string(w.tipo) == "data" ? t->second == "data" : text_family(t->second);
      if (!ok)
        throw Error(errc::conflict, std::string("o campo '") + w.chave + "' da camada tem o tipo " + t->second +
                                        ", incompatível com a ouvidoria", "idCamada");
      continue;
    }
    if (!form) {
      s << "select id from projeto.formularios where camada_id = :c and ativo and nome = 'Ouvidoria' order by id limit 1",
          soci::use(layer), soci::into(form);
      if (!s.got_data())
        s << "insert into projeto.formularios (camada_id, nome, descricao) values (:c, 'Ouvidoria', "
             "'Pedidos da ouvidoria (importados)') returning id",
            soci::use(layer), soci::into(form);
    }
    long long id = 0;
    std::string chave = w.chave, nome = w.nome, tipo = w.tipo;
    s << "insert into projeto.campos (formulario_id, nome, chave, tipo, opcoes, ordem) values (:f, :n, :k, :t, "
         "case when :t2 = 'lista' then '[\"aberto\",\"em_analise\",\"em_atendimento\",\"concluido\",\"recusado\"]'::jsonb end, "
         ":o) returning id",
        soci::use(form), soci::use(nome), soci::use(chave), soci::use(tipo), soci::use(tipo), soci::use(ordem),
        soci::into(id);
    ids[chave] = id;
  }
  return ids;
}

}  // namespace

void check_target(store::Pool& pool, std::int64_t layer_id) {
  pool.with([&](soci::session& s) {
    long long c = layer_id;
    std::string tipo, geometria;
    s << "select tipo, geometria from projeto.camadas where id = :c", soci::use(c), soci::into(tipo), soci::into(geometria);
    if (!s.got_data()) throw Error(errc::not_found, "camada não encontrada", "idCamada");
    check_type(tipo, geometria);
  });
}

Imported import_into_layer(soci::session& s, std::int64_t layer_id, std::int64_t user_id, const ImportParams& p,
                           const BeforeCommit& before_commit) {
  {
    soci::transaction tx(s);
    long long c = layer_id, u = user_id;
    std::string tipo, geometria;
    int privada = 0;
    // The layer's row lock: two imports into one layer run one after the other.
    s << "select tipo, geometria, privada::int from projeto.camadas where id = :c for update", soci::use(c),
        soci::into(tipo), soci::into(geometria), soci::into(privada);
    if (!s.got_data()) throw Error(errc::not_found, "camada não encontrada", "idCamada");
    check_type(tipo, geometria);
    Imported out;
    long long id = 0;
    s << "select id, criados, atualizados, status_da_camada from ouvidoria.importacoes where camada_id = :c and codigo = :k",
        soci::use(c), soci::use(p.codigo), soci::into(id), soci::into(out.criados), soci::into(out.atualizados),
        soci::into(out.status_da_camada);
    if (s.got_data()) {
      out.id = id;
      out.repetida = true;
      before_commit(s, out);
      tx.commit();
      return out;
    }
    auto fields = ensure_fields(s, c, privada != 0);
    long long status_field = fields.at("status");
    // The layer's table and its status column (named from ids read above, never request text).
    const std::string table = common::layer_table(c), status = "l." + common::field_column(status_field);

    // 1. Staff moved a status in the layer since the last sync.
    s << "with mudou as (select pc.pedido_id, " + status + " as status, a.por as atualizado_por "
         "  from ouvidoria.pedidos_camada pc join ouvidoria.pedidos p on p.id = pc.pedido_id "
         "  join " + table + " l on l.id = pc.geometria_id "
         "  cross join lateral projeto.valor_atualizacao(pc.geometria_id, :sf) a "
         "  where pc.camada_id = :c and a.em > pc.sincronizado_em and " + status + " is distinct from p.status "
         "    and " + status + " in ('aberto', 'em_analise', 'em_atendimento', 'concluido', 'recusado')), "
         "upd as (update ouvidoria.pedidos p set status = m.status, atualizado_em = now() from mudou m "
         "  where p.id = m.pedido_id returning p.id), "
         "hist as (insert into ouvidoria.historico (pedido_id, tipo, status, usuario_id) "
         "  select pedido_id, 'status', status, coalesce(atualizado_por, :u) from mudou) "
         "select count(*) from upd",
        soci::use(status_field), soci::use(c), soci::use(u), soci::into(out.status_da_camada);

    // 2. The request moved elsewhere: the layer follows (its audit row says who and when).
    s << "with alvo as (select l.id as geometria_id, " + status + " as antes, p.status "
         "  from ouvidoria.pedidos_camada pc join ouvidoria.pedidos p on p.id = pc.pedido_id "
         "  join " + table + " l on l.id = pc.geometria_id "
         "  where pc.camada_id = :c and " + status + " is not null and " + status + " is distinct from p.status), "
         "upd as (update " + table + " l set " + common::field_column(status_field) + " = a.status "
         "  from alvo a where l.id = a.geometria_id returning l.id), "
         "aud as (insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, antes, depois, usuario_id) "
         "  select projeto.valor_id(a.geometria_id, k.posicao), a.geometria_id, k.id, 'alterar', to_jsonb(a.antes), "
         "    to_jsonb(a.status), :u from alvo a join projeto.campos k on k.id = :sf) "
         "select count(*) from upd",
        soci::use(c), soci::use(u), soci::use(status_field), soci::into(out.atualizados);
    s << "update ouvidoria.pedidos_camada set sincronizado_em = clock_timestamp() where camada_id = :c", soci::use(c);

    // 3. New requests: geometry ids drawn first, so each request knows its geometry.
    std::string statuses = "{";
    for (std::size_t i = 0; i < p.statuses.size(); ++i) statuses += (i ? "," : "") + p.statuses[i];  // whitelisted
    statuses += "}";
    s << "create temp table ouv_novos on commit drop as "
         "select p.id as pedido_id, nextval(pg_get_serial_sequence('projeto.geometrias', 'id')) as gid "
         "from ouvidoria.pedidos p where p.status = any(:st::text[]) and not exists (select 1 from "
         "ouvidoria.pedidos_camada pc where pc.pedido_id = p.id and pc.camada_id = :c) order by p.id",
        soci::use(statuses), soci::use(c);
    s << "select count(*) from ouv_novos", soci::into(out.criados);
    s << "insert into projeto.geometrias (id, camada_id, geom, criado_por, atualizado_por) "
         "select n.gid, :c, p.geom, :u, :u2 from ouv_novos n join ouvidoria.pedidos p on p.id = n.pedido_id",
        soci::use(c), soci::use(u), soci::use(u);
    s << "insert into ouvidoria.pedidos_camada (pedido_id, camada_id, geometria_id) select pedido_id, :c, gid from ouv_novos",
        soci::use(c);
    // Each new geometry's values, one row of the layer's table: a column per field the
    // request fills (the layer's fields of those chaves).
    static const std::map<std::string, std::string> kSource = {
        {"protocolo", "p.protocolo"}, {"categoria", "c.nome"}, {"status", "p.status"},
        {"data", "p.criado_em::date"}, {"descricao", "p.descricao"}, {"nome", "p.nome"},
        {"email", "p.email"}, {"telefone", "p.telefone"}};
    std::string columns, values, audited;
    for (const auto& [chave, fid] : fields) {
      auto from = kSource.find(chave);
      if (from == kSource.end()) continue;
      const std::string column = common::field_column(fid);
      columns += ", " + column;
      values += std::string(values.empty() ? "" : ", ") + from->second;
      audited += std::string(audited.empty() ? "" : ", ") + "(" + std::to_string(fid) + "::bigint, to_jsonb(l." +
                 column + "))";
    }
    s << "insert into " + table + " (id" + columns + ") select n.gid, " + values +
             " from ouv_novos n join ouvidoria.pedidos p on p.id = n.pedido_id "
             "join ouvidoria.categorias c on c.id = p.categoria_id where num_nonnulls(" + values + ") > 0";
    s << "insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, depois, usuario_id) "
         "select projeto.valor_id(l.id, k.posicao), l.id, k.id, 'criar', v.valor, :u "
         "from ouv_novos n join " + table + " l on l.id = n.gid cross join lateral (values " + audited +
             ") v(campo, valor) join projeto.campos k on k.id = v.campo where v.valor is not null",
        soci::use(u);
    s << "select count(projeto.geometria_registrar(gid, :c, 'criar', null, :u)) from ouv_novos", soci::use(c),
        soci::use(u);
    s << "insert into ouvidoria.importacoes (camada_id, codigo, status_filtro, criados, atualizados, status_da_camada, "
         "usuario_id) values (:c, :k, :st::text[], :n, :a, :m, :u) returning id",
        soci::use(c), soci::use(p.codigo), soci::use(statuses), soci::use(out.criados), soci::use(out.atualizados),
        soci::use(out.status_da_camada), soci::use(u), soci::into(id);
    out.id = id;
    before_commit(s, out);
    tx.commit();
    return out;
  }
}

}  // namespace cadastre::platform::ombudsman
