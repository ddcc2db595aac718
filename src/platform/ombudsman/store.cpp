#include "platform/ombudsman/store.hpp"

#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "store/crypto.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::ombudsman {
namespace {

// A request as every public route shows it: no nome, email, telefone or foto, and the
// description masked (ouvidoria.mascarar). `p` is ouvidoria.pedidos, `c` its category.
const std::string kPublicJson =
    "jsonb_build_object('id', p.id, 'protocolo', p.protocolo, 'categoria', c.chave, 'nomeCategoria', c.nome, "
    "'cor', c.cor, 'status', p.status, 'descricao', ouvidoria.mascarar(p.descricao), "
    "'longitude', st_x(p.geom), 'latitude', st_y(p.geom), 'temFoto', p.foto is not null, "
    "'criadoEm', p.criado_em, 'atualizadoEm', p.atualizado_em)";

const std::map<std::string, std::string> kColumns = {
    {"criadoEm", "p.criado_em"}, {"protocolo", "p.protocolo"}, {"status", "p.status"}, {"categoria", "c.chave"}};

}  // namespace

std::string legend(store::Pool& pool) {
  return pool.with([&](soci::session& s) {
    std::string out;
    s << "select coalesce(jsonb_agg(jsonb_build_object('chave', chave, 'nome', nome, 'cor', cor, 'ordem', ordem) "
         "order by ordem, id), '[]')::text from ouvidoria.categorias where ativa",
        soci::into(out);
    return out;
  });
}

Filed file_request(store::Pool& pool, const Report& r) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long category = 0;
    s << "select id from ouvidoria.categorias where chave = :k and ativa", soci::use(r.categoria), soci::into(category);
    if (!s.got_data())
      throw Error(errc::invalid_argument, "categoria desconhecida (veja /ouv/legenda): " + r.categoria.substr(0, 40),
                  "categoria");
    // The municipality: its neighbourhoods' extent (plus about 2 km) when the cadastre has
    // any; a tenant without a mapped cadastre takes Brazil's bounding box.
    int inside = 0;
    double lon = r.longitude, lat = r.latitude;
    s << "select (case when exists (select 1 from cadastro.bairro) "
         "then st_intersects(st_expand(st_setsrid((select st_extent(geom) from cadastro.bairro)::geometry, 4674), 0.02), pt) "
         "else st_intersects(st_makeenvelope(-74.1, -33.8, -28.8, 5.3, 4674), pt) end)::int "
         "from (select st_setsrid(st_makepoint(:lon, :lat), 4674) as pt) x",
        soci::use(lon), soci::use(lat), soci::into(inside);
    if (!inside)
      throw Error(errc::invalid_argument, "longitude/latitude fora do município", "longitude");
    Filed f;
    f.token = store::random_token();
    std::string hash = store::sha256_hex(f.token);
    soci::indicator ni = r.nome ? soci::i_ok : soci::i_null, ei = r.email ? soci::i_ok : soci::i_null,
                    ti = r.telefone ? soci::i_ok : soci::i_null;
    std::string nome = r.nome.value_or(""), email = r.email.value_or(""), telefone = r.telefone.value_or("");
    long long id = 0;
    s << "insert into ouvidoria.pedidos (protocolo, categoria_id, descricao, geom, nome, email, telefone, token_hash) "
         "values ('OUV-' || to_char(now(), 'YYYY') || '-' || lpad(nextval('ouvidoria.protocolo_seq')::text, 6, '0'), "
         ":c, :d, st_setsrid(st_makepoint(:lon, :lat), 4674), :n, :e, :t, :h) returning id, protocolo",
        soci::use(category), soci::use(r.descricao), soci::use(lon), soci::use(lat), soci::use(nome, ni),
        soci::use(email, ei), soci::use(telefone, ti), soci::use(hash), soci::into(id), soci::into(f.protocolo);
    if (r.foto) {
      // bytea through its hex text: SOCI binds no binary parameters.
      std::string hex = "\\x";
      static const char* digits = "0123456789abcdef";
      hex.reserve(2 + r.foto->size() * 2);
      for (unsigned char b : *r.foto) {
        hex += digits[b >> 4];
        hex += digits[b & 15];
      }
      s << "update ouvidoria.pedidos set foto = :f::bytea, foto_tipo = :t where id = :i", soci::use(hex),
          soci::use(r.foto_tipo), soci::use(id);
    }
    s << "insert into ouvidoria.historico (pedido_id, tipo, status) values (:i, 'abertura', 'aberto')", soci::use(id);
    tx.commit();
    f.id = id;
    return f;
  });
}

store::PageRows public_page(store::Pool& pool, const std::string& q, const Page& page) {
  // Searched in what the public sees: the masked description, never the contact columns,
  // so a search cannot tell whether an e-mail or a phone is in some request. Written twice
  // (the count and the page), each with its own bound value.
  store::Sql sql;
  auto where = [&] {
    sql << " from ouvidoria.pedidos p join ouvidoria.categorias c on c.id = p.categoria_id where true";
    if (q.empty()) return;
    sql << " and strpos(projeto.chave_busca(p.protocolo || ' ' || c.nome || ' ' || ouvidoria.mascarar(p.descricao)), "
           "projeto.chave_busca(";
    sql.bind(q) << ")) > 0";
  };
  sql << "select (select count(*)";
  where();
  sql << ")::text, coalesce(json_agg(r), '[]')::text from (select " << kPublicJson << " as r";
  where();
  sql << " order by " << kColumns.at(page.order_by) << (page.descending ? " desc" : " asc") << ", p.id";
  store::append_page(sql, page.paging);
  sql << ") x";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, sql); });
}

std::string layer_features(store::Pool& pool, std::int64_t layer_id) {
  return pool.with([&](soci::session& s) {
    long long c = layer_id;
    int imported = 0;
    s << "select count(*) from ouvidoria.importacoes where camada_id = :c", soci::use(c), soci::into(imported);
    if (!imported) throw Error(errc::not_found, "camada sem pedidos da ouvidoria", "id");
    std::string out;
    s << "select jsonb_build_object('type', 'FeatureCollection', 'features', coalesce(jsonb_agg("
         "jsonb_build_object('type', 'Feature', 'id', g.id, 'geometry', st_asgeojson(g.geom, 9, 0)::jsonb, "
         "'properties', " + kPublicJson + " || jsonb_build_object('idGeometria', g.id)) order by p.id), '[]'))::text "
         "from ouvidoria.pedidos_camada pc join projeto.geometrias g on g.id = pc.geometria_id and g.camada_id = :c "
         "join ouvidoria.pedidos p on p.id = pc.pedido_id join ouvidoria.categorias c on c.id = p.categoria_id "
         "where pc.camada_id = :c2",
        soci::use(c), soci::use(c), soci::into(out);
    return out;
  });
}

std::string follow_up(store::Pool& pool, const RequestKey& key, const std::string& token,
                      const std::optional<std::string>& mensagem) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long id = key.id.value_or(0);
    std::string protocolo = key.protocolo.value_or(""), hash;
    s << "select id, token_hash from ouvidoria.pedidos where (:i > 0 and id = :i2) or protocolo = :p",
        soci::use(id), soci::use(id), soci::use(protocolo), soci::into(id), soci::into(hash);
    if (!s.got_data()) throw Error(errc::not_found, "pedido não encontrado", "id");
    if (!store::equal_constant_time(hash, store::sha256_hex(token)))
      throw Error(errc::forbidden, "token de acompanhamento não confere com o protocolo", "token");
    if (mensagem) {
      s << "insert into ouvidoria.historico (pedido_id, tipo, mensagem) values (:i, 'pedido_informacao', :m)",
          soci::use(id), soci::use(*mensagem);
    }
    // The history shows events and statuses, never a citizen's message.
    std::string out;
    s << "select jsonb_build_object('id', p.id, 'protocolo', p.protocolo, 'categoria', c.chave, "
         "'nomeCategoria', c.nome, 'status', p.status, 'criadoEm', p.criado_em, 'atualizadoEm', p.atualizado_em, "
         "'historico', (select jsonb_agg(jsonb_build_object('tipo', h.tipo, 'status', h.status, 'em', h.em) "
         "order by h.id) from ouvidoria.historico h where h.pedido_id = p.id))::text "
         "from ouvidoria.pedidos p join ouvidoria.categorias c on c.id = p.categoria_id where p.id = :i",
        soci::use(id), soci::into(out);
    tx.commit();
    return out;
  });
}

}  // namespace cadastre::platform::ombudsman
