// COPY of the city plan: bairro, logradouro, quadra, face_quadra and panorama.
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "demo/copy.hpp"
#include "demo/tables.hpp"

namespace cadastre::store::demo {

std::string timestamp_2025(int day, std::int64_t seconds) {
  static constexpr int kMonthDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};  // 2025 is not a leap year
  day += static_cast<int>(seconds / 86400);
  seconds %= 86400;
  day %= 365;
  int month = 0;
  while (day >= kMonthDays[month]) day -= kMonthDays[month++];
  return fmt::format("2025-{:02d}-{:02d} {:02d}:{:02d}:{:02d}-03", month + 1, day + 1, seconds / 3600, seconds / 60 % 60,
                     seconds % 60);
}

std::int64_t copy_bairros(PGconn* conn, const City& city) {
  CopyWriter w(conn, "cadastro.bairro (id, codigo, nome, geom)");
  const Ewkb ewkb(city.frame());
  for (const Bairro& b : city.bairros()) {
    w.integer(b.id).text(b.codigo).text(b.nome);
    ewkb.multipolygon(w.raw(), city.bairro_ring(b));
    w.end_row();
  }
  return w.finish();
}

std::int64_t copy_logradouros(PGconn* conn, const City& city) {
  CopyWriter w(conn, "cadastro.logradouro (id, codigo, tipo, nome, cep, geom)");
  const Ewkb ewkb(city.frame());
  for (const Street& s : city.streets()) {
    w.integer(s.id).text(s.codigo).text(s.tipo).text(s.nome).text(s.cep);
    ewkb.multilinestring(w.raw(), city.street_points(s));
    w.end_row();
  }
  return w.finish();
}

std::int64_t copy_quadras(PGconn* conn, const City& city) {
  CopyWriter w(conn, "cadastro.quadra (id, codigo, setor, bairro_id, geom)");
  const Ewkb ewkb(city.frame());
  std::int64_t id = 0;
  for (const Block& b : city.blocks()) {
    const Quad q = city.quad(b);
    w.integer(++id).text(city.quadra_code(b)).text(city.setor(b)).integer(city.bairros()[static_cast<std::size_t>(b.bairro)].id);
    ewkb.multipolygon(w.raw(), q.p);
    w.end_row();
  }
  return w.finish();
}

std::int64_t copy_faces(PGconn* conn, const City& city) {
  CopyWriter w(conn, "cadastro.face_quadra (id, codigo, quadra_id, logradouro_id, lado, valor_m2, melhoramentos, geom)");
  const Ewkb ewkb(city.frame());
  std::int64_t quadra_id = 0;
  for (const Block& b : city.blocks()) {
    ++quadra_id;
    const Quad q = city.quad(b);
    const std::string code = city.quadra_code(b);
    // Each face runs in its street's direction: bottom p0→p1, right p1→p2, top p3→p2, left p0→p3.
    const Vec2 ends[4][2] = {{q.p[0], q.p[1]}, {q.p[1], q.p[2]}, {q.p[3], q.p[2]}, {q.p[0], q.p[3]}};
    for (int s = 0; s < 4; ++s) {
      const Side side = city.side(b, s);
      const std::int64_t id = 4 * (quadra_id - 1) + s + 1;
      const Vec2 mid = (ends[s][0] + ends[s][1]) * 0.5;
      Rng r(city.seed(), Stream::field, static_cast<std::uint64_t>(id));
      w.integer(id)
          .text(fmt::format("{}-{}", code, s + 1))
          .integer(quadra_id)
          .integer(side.street->id)
          .text(side.par ? "par" : "impar")
          .fixed2(city.valor_m2(mid, side.street->avenue))
          .integer(city.melhoramentos(mid, side.street->avenue, r));
      ewkb.linestring(w.raw(), ends[s]);
      w.end_row();
    }
  }
  return w.finish();
}

std::int64_t copy_panoramas(PGconn* conn, const City& city) {
  // A capture vehicle drives every street in its direction, in the right-hand lane (2 m
  // right of the centreline), taking a 360° picture every 25 m, one street per session.
  CopyWriter w(conn, "cadastro.panorama (id, logradouro_id, capturado_em, heading, altura, imagem_url, geom)");
  const Ewkb ewkb(city.frame());
  constexpr double kStep = 25, kLane = 2;
  std::int64_t id = 0;
  for (const Street& s : city.streets()) {
    const std::vector<Vec2> pts = city.street_points(s);
    const int day = 31 + static_cast<int>(s.id * 37 % 300);  // February to November
    const std::int64_t start = 8 * 3600 + s.id % 16 * 900;
    double next = kStep / 2, walked = 0;
    int shot = 0;
    for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
      const Vec2 d = pts[k + 1] - pts[k];
      const double len = length(d);
      const Vec2 u = d * (1 / len);
      // Bearing clockwise from north; local x is east and y north.
      double heading = std::atan2(u.x, u.y) * 180 / std::numbers::pi;
      if (heading < 0) heading += 360;
      heading = std::round(heading * 100) / 100;
      if (heading >= 360) heading -= 360;
      for (; next < walked + len; next += kStep) {
        const Vec2 p = pts[k] + u * (next - walked) + Vec2{u.y, -u.x} * kLane;
        w.integer(++id).integer(s.id).text(timestamp_2025(day, start + 3 * shot++)).fixed2(heading).fixed2(2.5);
        w.text(fmt::format("/midia/get?file_url=panoramas/{}.jpg", id));
        ewkb.point(w.raw(), p);
        w.end_row();
      }
      walked += len;
    }
  }
  return w.finish();
}

}  // namespace cadastre::store::demo
