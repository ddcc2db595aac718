#include "platform/wikimap/store.hpp"

#include <soci/soci.h>

#include <functional>
#include <map>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::wikimap {
namespace {

// An entry as every route shows it (`m` the entry, `t` its tenant), with the caller's list
// and rating. `user` is a number we write, never request text.
std::string entry_json(std::int64_t user) {
  const std::string u = std::to_string(user);
  return "jsonb_build_object('id', m.id, 'idProjeto', m.projeto_id, 'cidade', t.slug, 'municipio', t.nome, "
         "'titulo', m.titulo, 'descricao', m.descricao, 'temaGeral', m.tema_geral, 'temaEspecifico', m.tema_especifico, "
         "'organizacao', m.organizacao, 'media', m.media, 'totalAvaliacoes', m.total_avaliacoes, "
         "'naMinhaLista', exists (select 1 from plataforma.wikimap_minha_lista l where l.mapa_id = m.id "
         "and l.usuario_id = " + u + "), "
         "'minhaNota', (select a.nota from plataforma.wikimap_avaliacoes a where a.mapa_id = m.id and a.usuario_id = " +
         u + "), 'criadoEm', m.criado_em, 'atualizadoEm', m.atualizado_em)";
}

// A comment (`c`) with its author (`u`): a platform user's name, never their e-mail or phone;
// public users (citizens with an account) appear as "Cidadão".
const std::string kCommentJson =
    "jsonb_build_object('id', c.id, 'idMapa', c.mapa_id, 'texto', c.texto, 'autor', jsonb_build_object('id', u.id, "
    "'nome', case when u.publico then 'Cidadão' else u.nome end), 'criadoEm', c.criado_em)";

const std::string kFrom = " from plataforma.wikimap_mapas m join plataforma.tenants t on t.id = m.tenant_id";

const std::map<std::string, std::string> kColumns = {
    {"id", "m.id"}, {"titulo", "m.titulo"}, {"media", "m.media"}, {"atualizadoEm", "m.atualizado_em"}};

// A page of entries: `where` appends the conditions (called twice: the count and the page,
// each binding its own values).
store::PageRows page_of(store::Pool& pool, const std::string& from, const std::function<void(store::Sql&)>& where,
                        const std::string& record, const std::string& order, const Page& page) {
  store::Sql sql("select (select count(*)");
  sql << from;
  where(sql);
  sql << ")::text, coalesce(json_agg(r), '[]')::text from (select " << record << " as r" << from;
  where(sql);
  sql << " order by " << order << (page.descending ? " desc" : " asc") << ", m.id";
  store::append_page(sql, page.paging);
  sql << ") x";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, sql); });
}

void require_published(soci::session& s, long long id, bool lock = false) {
  int found = 0;
  s << std::string("select 1 from plataforma.wikimap_mapas where id = :i and publicado") + (lock ? " for update" : ""),
      soci::use(id), soci::into(found);
  if (!s.got_data()) throw Error(errc::not_found, "mapa não encontrado no catálogo", "id");
}

}  // namespace

bool project_published(store::Pool& tenant_db, std::int64_t id) {
  return tenant_db.with([&](soci::session& s) {
    long long pid = id;
    int n = 0;
    s << "select count(*) from projeto.projetos where id = :i and publicado and ativo", soci::use(pid), soci::into(n);
    return n > 0;
  });
}

EntryRef entry_ref(store::Pool& platform, std::int64_t id) {
  return platform.with([&](soci::session& s) {
    long long i = id, tenant = 0, project = 0;
    int publicado = 0;
    s << "select tenant_id, projeto_id, publicado::int from plataforma.wikimap_mapas where id = :i", soci::use(i),
        soci::into(tenant), soci::into(project), soci::into(publicado);
    if (!s.got_data()) throw Error(errc::not_found, "mapa não encontrado no catálogo", "id");
    return EntryRef{tenant, project, publicado != 0};
  });
}

void set_published(store::Pool& platform, std::int64_t id, bool publicado) {
  platform.with([&](soci::session& s) {
    long long i = id;
    int p = publicado ? 1 : 0;
    s << "update plataforma.wikimap_mapas set publicado = :p::boolean, atualizado_em = now() where id = :i",
        soci::use(p), soci::use(i);
  });
}

std::string entry(store::Pool& platform, std::int64_t id, std::int64_t user_id) {
  return platform.with([&](soci::session& s) {
    long long i = id;
    std::string out;
    s << "select (" + entry_json(user_id) +
             " || jsonb_build_object('comentarios', (select coalesce(jsonb_agg(x.j order by x.id desc), '[]') from "
             "(select c.id, " + kCommentJson + " as j from plataforma.wikimap_comentarios c join plataforma.usuarios u "
             "on u.id = c.usuario_id where c.mapa_id = m.id order by c.id desc limit 100) x)))::text" +
             kFrom + " where m.id = :i and m.publicado",
        soci::use(i), soci::into(out);
    if (!s.got_data()) throw Error(errc::not_found, "mapa não encontrado no catálogo", "id");
    return out;
  });
}

store::PageRows page(store::Pool& platform, const Search& f, std::int64_t user_id, const Page& pg) {
  auto where = [&](store::Sql& sql) {
    sql << " where m.publicado";
    if (f.id) sql << " and m.id = " << std::to_string(*f.id);  // a parsed number
    if (!f.q.empty()) {
      sql << " and strpos(geografia.chave_busca(m.titulo || ' ' || coalesce(m.descricao, '') || ' ' || m.organizacao "
             "|| ' ' || t.nome || ' ' || coalesce(m.tema_geral, '') || ' ' || coalesce(m.tema_especifico, '')), "
             "geografia.chave_busca(";
      sql.bind(f.q) << ")) > 0";
    }
    auto same = [&](const char* column, const std::string& value) {
      if (value.empty()) return;
      sql << " and geografia.chave_busca(" << column << ") = geografia.chave_busca(";
      sql.bind(value) << ")";
    };
    same("m.tema_geral", f.tema_geral);
    same("m.tema_especifico", f.tema_especifico);
    same("m.organizacao", f.organizacao);
  };
  return page_of(platform, kFrom, where, entry_json(user_id), kColumns.at(pg.order_by), pg);
}

std::string update(store::Pool& platform, std::int64_t id, const EntryFields& f, std::int64_t user_id) {
  platform.with([&](soci::session& s) {
    soci::transaction tx(s);
    if (f.tema_geral && f.tema_geral->has_value()) {
      int known = 0;
      s << "select count(*) from plataforma.wikimap_temas where tema_geral = :g and tema_especifico = :e",
          soci::use(**f.tema_geral), soci::use(**f.tema_especifico), soci::into(known);
      if (!known) throw Error(errc::invalid_argument, "temaEspecifico: tema desconhecido (veja /wikimap/cfgs)", "temaEspecifico");
    }
    store::Sql q("update plataforma.wikimap_mapas set editado = true, atualizado_em = now()");
    if (f.titulo) (q << ", titulo = ").bind(*f.titulo);
    if (f.organizacao) (q << ", organizacao = ").bind(*f.organizacao);
    if (f.descricao) (q << ", descricao = ").bind(*f.descricao);
    if (f.tema_geral) {
      (q << ", tema_geral = ").bind(*f.tema_geral);
      (q << ", tema_especifico = ").bind(*f.tema_especifico);
    }
    q << " where id = " << std::to_string(id);
    store::execute(s, q);
    tx.commit();
  });
  return entry(platform, id, user_id);
}

std::string configs(store::Pool& platform) {
  return platform.with([&](soci::session& s) {
    std::string out;
    s << "select jsonb_build_object("
         "'temas', (select coalesce(jsonb_agg(jsonb_build_object('temaGeral', g, 'temasEspecificos', e) order by g), '[]') "
         "  from (select tema_geral as g, jsonb_agg(tema_especifico order by ordem, tema_especifico) as e "
         "  from plataforma.wikimap_temas group by tema_geral) x), "
         "'organizacoes', (select coalesce(jsonb_agg(o order by o), '[]') from (select distinct organizacao as o "
         "  from plataforma.wikimap_mapas where publicado) y), "
         "'notas', jsonb_build_object('minima', 1, 'maxima', 5), "
         "'ordenacao', jsonb_build_array('id', 'titulo', 'media', 'atualizadoEm'), "
         "'tamanhoMaximoPagina', 1000)::text",
        soci::into(out);
    return out;
  });
}

store::PageRows my_list(store::Pool& platform, std::int64_t user_id, const Page& pg) {
  auto where = [&](store::Sql& sql) {
    sql << " join plataforma.wikimap_minha_lista l on l.mapa_id = m.id and l.usuario_id = " << std::to_string(user_id)
        << " where m.publicado";
  };
  return page_of(platform, kFrom, where, entry_json(user_id), kColumns.at(pg.order_by), pg);
}

bool add_to_list(store::Pool& platform, std::int64_t user_id, std::int64_t id) {
  return platform.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long i = id, u = user_id;
    require_published(s, i);
    soci::statement st = (s.prepare << "insert into plataforma.wikimap_minha_lista (usuario_id, mapa_id) "
                                       "values (:u, :i) on conflict do nothing",
                          soci::use(u), soci::use(i));
    st.execute(true);
    bool added = st.get_affected_rows() > 0;
    tx.commit();
    return added;
  });
}

std::string rate(store::Pool& platform, std::int64_t id, std::int64_t user_id, int nota) {
  return platform.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long i = id, u = user_id;
    // The entry's row lock orders concurrent raters: each recount sees the ratings
    // committed before it, so media and total always match the rating rows.
    require_published(s, i, true);
    s << "insert into plataforma.wikimap_avaliacoes (mapa_id, usuario_id, nota) values (:i, :u, :n) "
         "on conflict (mapa_id, usuario_id) do update set nota = excluded.nota, em = now()",
        soci::use(i), soci::use(u), soci::use(nota);
    s << "update plataforma.wikimap_mapas m set media = coalesce((select round(avg(nota), 2) from "
         "plataforma.wikimap_avaliacoes a where a.mapa_id = m.id), 0), total_avaliacoes = (select count(*) from "
         "plataforma.wikimap_avaliacoes a where a.mapa_id = m.id) where m.id = :i",
        soci::use(i);
    std::string out;
    s << "select jsonb_build_object('idMapa', id, 'nota', :n::int, 'media', media, 'totalAvaliacoes', total_avaliacoes)::text "
         "from plataforma.wikimap_mapas where id = :i",
        soci::use(nota), soci::use(i), soci::into(out);
    tx.commit();
    return out;
  });
}

std::string ratings_of(store::Pool& platform, std::int64_t id, std::int64_t user_id) {
  return platform.with([&](soci::session& s) {
    long long i = id, u = user_id;
    require_published(s, i);
    std::string out;
    s << "select jsonb_build_object('idMapa', m.id, 'media', m.media, 'totalAvaliacoes', m.total_avaliacoes, "
         "'distribuicao', (select jsonb_object_agg(n::text, (select count(*) from plataforma.wikimap_avaliacoes a "
         "  where a.mapa_id = m.id and a.nota = n)) from generate_series(1, 5) n), "
         "'minhaNota', (select a.nota from plataforma.wikimap_avaliacoes a where a.mapa_id = m.id and a.usuario_id = :u)"
         ")::text from plataforma.wikimap_mapas m where m.id = :i",
        soci::use(u), soci::use(i), soci::into(out);
    return out;
  });
}

store::PageRows my_ratings(store::Pool& platform, std::int64_t user_id, const Page& pg) {
  auto where = [&](store::Sql& sql) {
    sql << " join plataforma.wikimap_avaliacoes a on a.mapa_id = m.id and a.usuario_id = " << std::to_string(user_id)
        << " where m.publicado";
  };
  return page_of(platform, kFrom, where,
                 "jsonb_build_object('idMapa', m.id, 'titulo', m.titulo, 'cidade', t.slug, 'nota', a.nota, 'em', a.em)",
                 "a.em", pg);
}

std::string add_comment(store::Pool& platform, std::int64_t id, std::int64_t user_id, const std::string& texto) {
  return platform.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long i = id, u = user_id, cid = 0;
    require_published(s, i);
    s << "insert into plataforma.wikimap_comentarios (mapa_id, usuario_id, texto) values (:i, :u, :t) returning id",
        soci::use(i), soci::use(u), soci::use(texto), soci::into(cid);
    std::string out;
    s << "select " + kCommentJson + "::text from plataforma.wikimap_comentarios c join plataforma.usuarios u "
         "on u.id = c.usuario_id where c.id = :c",
        soci::use(cid), soci::into(out);
    tx.commit();
    return out;
  });
}

void delete_comment(store::Pool& platform, std::int64_t id) {
  platform.with([&](soci::session& s) {
    long long i = id;
    s << "delete from plataforma.wikimap_comentarios where id = :i", soci::use(i);
  });
}

}  // namespace cadastre::platform::wikimap
