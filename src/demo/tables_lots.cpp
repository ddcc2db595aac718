// COPY of the lot-level tables: lote, edificacao, pessoa, imobiliario, imobiliario_pessoa.
// Each is one pass of walk_lots; ids follow the walk, so every pass numbers the same rows
// the same way.
#include <fmt/format.h>

#include <iterator>

#include "demo/copy.hpp"
#include "demo/people.hpp"
#include "demo/tables.hpp"
#include "demo/walk.hpp"

namespace cadastre::store::demo {
namespace {

// Registration date of the whole roll: fixed, so that equal seeds give equal rows.
constexpr const char* kRegistered = "2025-01-02 09:00:00-03";

// numero_cadastro: 1,000,000 + unit id and a modulo-11 check digit.
std::string numero_cadastro(std::int64_t unit_id) {
  std::string n = fmt::format("{}", 1000000 + unit_id);
  n.push_back(static_cast<char>('0' + mod11_digit(n)));
  return n;
}

}  // namespace

std::int64_t copy_lotes(PGconn* conn, const City& city) {
  CopyWriter w(conn,
               "cadastro.lote (id, inscricao, quadra_id, face_quadra_id, logradouro_id, numero, area_terreno, testada,"
               " profundidade, topografia, pedologia, situacao, criado_em, atualizado_em, geom)");
  const Ewkb ewkb(city.frame());
  walk_lots(city, kNeedRing, [&](const LotRow& l) {
    w.integer(l.id).text(l.inscricao).integer(l.quadra_id).integer(l.face_id).integer(l.logradouro_id).integer(l.numero);
    w.fixed2(l.area).fixed2(l.testada).fixed2(l.profundidade);
    w.text(l.topografia).text(l.pedologia).text(code(l.plan->situacao)).text(kRegistered).text(kRegistered);
    ewkb.multipolygon(w.raw(), l.ring);
    w.end_row();
  });
  return w.finish();
}

std::int64_t copy_edificacoes(PGconn* conn, const City& city) {
  CopyWriter w(conn,
               "cadastro.edificacao (id, lote_id, area_construida, pavimentos, padrao, ano_construcao, conservacao, uso,"
               " geom)");
  const Ewkb ewkb(city.frame());
  std::int64_t id = 0;
  walk_lots(city, kNeedParcel, [&](const LotRow& l) {
    for (const BuildingPlan& b : l.parcel.buildings) {
      const Vec2 ring[4] = {l.map->at(b.s0, b.t0), l.map->at(b.s1, b.t0), l.map->at(b.s1, b.t1), l.map->at(b.s0, b.t1)};
      w.integer(++id).integer(l.id).fixed2(b.area_construida()).integer(b.pavimentos).text(b.padrao).integer(b.ano);
      w.text(std::string_view(&b.conservacao, 1)).text(b.uso);
      ewkb.multipolygon(w.raw(), ring);
      w.end_row();
    }
  });
  return w.finish();
}

std::int64_t copy_pessoas(PGconn* conn, const City& city) {
  CopyWriter w(conn, "cadastro.pessoa (id, nome, tipo, cpf_cnpj, email, telefone)");
  const DocumentSource docs(city.seed());
  OwnerPlanner owners(city.seed());
  Ownership o;
  PersonRow p;
  std::int64_t unit_id = 0;
  walk_lots(city, kNeedParcel, [&](const LotRow& l) {
    for (const UnitPlan& u : l.parcel.units) {
      owners.plan(++unit_id, u.owner, o);
      for (int k = 0; k < o.n_created; ++k) {
        person_row(city.seed(), docs, o.created[static_cast<std::size_t>(k)], p);
        w.integer(o.created[static_cast<std::size_t>(k)].id).text(p.nome).text(std::string_view(&p.tipo, 1)).text(p.cpf_cnpj);
        p.email.empty() ? w.null() : w.text(p.email);
        p.telefone.empty() ? w.null() : w.text(p.telefone);
        w.end_row();
      }
    }
  });
  return w.finish();
}

std::int64_t copy_imobiliarios(PGconn* conn, const City& city) {
  CopyWriter w(conn,
               "cadastro.imobiliario (id, lote_id, inscricao_cartografica, numero_cadastro, complemento, uso,"
               " fracao_ideal, area_privativa, criado_em, atualizado_em)");
  std::int64_t id = 0;
  walk_lots(city, kNeedParcel, [&](const LotRow& l) {
    int k = 0;
    for (const UnitPlan& u : l.parcel.units) {
      ++id;
      w.integer(id).integer(l.id).text(fmt::format("{}.{:04d}", l.inscricao, ++k)).text(numero_cadastro(id));
      u.complemento.empty() ? w.null() : w.text(u.complemento);
      w.text(u.uso);
      fmt::format_to(std::back_inserter(w.raw()), "{}.{:06d}", u.fracao_micro / 1000000, u.fracao_micro % 1000000);
      u.area_privativa < 0 ? w.null() : w.fixed2(u.area_privativa);
      w.text(kRegistered).text(kRegistered);
      w.end_row();
    }
  });
  return w.finish();
}

std::int64_t copy_proprietarios(PGconn* conn, const City& city) {
  CopyWriter w(conn, "cadastro.imobiliario_pessoa (imobiliario_id, pessoa_id, papel, percentual)");
  OwnerPlanner owners(city.seed());
  Ownership o;
  std::int64_t unit_id = 0;
  walk_lots(city, kNeedParcel, [&](const LotRow& l) {
    for (const UnitPlan& u : l.parcel.units) {
      owners.plan(++unit_id, u.owner, o);
      for (int k = 0; k < o.n_owners; ++k) {
        const Owner& x = o.owners[static_cast<std::size_t>(k)];
        w.integer(unit_id).integer(x.pessoa_id).text("proprietario");
        fmt::format_to(std::back_inserter(w.raw()), "{}.{:02d}", x.percent_x100 / 100, x.percent_x100 % 100);
        w.end_row();
      }
    }
  });
  return w.finish();
}

}  // namespace cadastre::store::demo
