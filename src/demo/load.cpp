// load_demo: plans the city, then streams every cadastral table with COPY inside one
// transaction (or one savepoint when the caller already has a transaction open).
#include <fmt/format.h>
#include <libpq-fe.h>

#include <chrono>
#include <cmath>
#include <iterator>
#include <utility>

#include "cadastre/error.hpp"
#include "demo/demo.hpp"
#include "demo/city.hpp"
#include "demo/copy.hpp"
#include "demo/tables.hpp"

namespace cadastre::store {
namespace {

constexpr std::int64_t kMaxLots = 5000000;

// Every table the generator writes, parents first.
constexpr const char* kTables[] = {"bairro", "logradouro", "quadra",      "face_quadra",        "lote",
                                   "edificacao", "pessoa", "imobiliario", "imobiliario_pessoa", "panorama"};

void check_options(const DemoOptions& o) {
  if (o.lots < 1 || o.lots > kMaxLots)
    throw Error(errc::invalid_argument,
                fmt::format("o número de lotes deve estar entre 1 e {}; recebido {}", kMaxLots, o.lots), "lots");
  if (!std::isfinite(o.center_lon) || o.center_lon < -180 || o.center_lon > 180)
    throw Error(errc::invalid_argument, "longitude do centro inválida", "center_lon");
  if (!std::isfinite(o.center_lat) || o.center_lat < -80 || o.center_lat > 80)
    throw Error(errc::invalid_argument, "latitude do centro inválida", "center_lat");
}

// Refuses to mix the demo city with existing data (its explicit ids would collide), or
// empties the tables first when asked to. The lock keeps concurrent writers out until commit.
void prepare_tables(PGconn* conn, bool replace) {
  std::string list;
  for (const char* t : kTables) list += fmt::format("{}cadastro.{}", list.empty() ? "" : ", ", t);
  if (replace) {
    demo::exec(conn, fmt::format("truncate {} restart identity cascade", list));
    return;
  }
  demo::exec(conn, fmt::format("lock table {} in share row exclusive mode", list));
  std::string probe = "select t from (values ";
  for (std::size_t i = 0; i < std::size(kTables); ++i)
    probe += fmt::format("{}({}, '{}', exists (select 1 from cadastro.{}))", i ? ", " : "", i, kTables[i], kTables[i]);
  probe += ") v(o, t, e) where e order by t <> 'lote', o limit 1";  // name lote first when it has rows
  const std::string busy = demo::scalar(conn, probe);
  if (!busy.empty())
    throw Error(errc::conflict,
                fmt::format("a tabela cadastro.{} já contém dados; a carga de demonstração exige o cadastro vazio "
                            "(use --replace para substituí-lo)",
                            busy));
}

// Ids were written explicitly, so each serial sequence continues after the last one.
void reset_sequences(PGconn* conn, const DemoReport& r) {
  const std::pair<const char*, std::int64_t> counts[] = {
      {"bairro", r.bairros}, {"logradouro", r.logradouros}, {"quadra", r.quadras},   {"face_quadra", r.faces},
      {"lote", r.lotes},     {"edificacao", r.edificacoes}, {"pessoa", r.pessoas},   {"imobiliario", r.imobiliarios},
      {"panorama", r.panoramas}};
  std::string sql = "select ";
  for (std::size_t i = 0; i < std::size(counts); ++i) {
    const auto& [table, n] = counts[i];
    sql += fmt::format("{}setval(pg_get_serial_sequence('cadastro.{}', 'id'), {}, {})", i ? ", " : "",
                       table, n > 0 ? n : 1, n > 0 ? "true" : "false");
  }
  demo::exec(conn, sql);
}

}  // namespace

DemoReport load_demo(PGconn* conn, const DemoOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  check_options(options);
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK)
    throw Error(errc::unavailable, "sem conexão com o banco de dados do município");
  const PGTransactionStatusType tx = PQtransactionStatus(conn);
  if (tx != PQTRANS_IDLE && tx != PQTRANS_INTRANS)
    throw Error(errc::invalid_argument, "a conexão está ocupada ou em uma transação com erro");
  const bool own = tx == PQTRANS_IDLE;

  demo::exec(conn, own ? "begin" : "savepoint cadastre_demo");
  try {
    // TRUNCATE ... CASCADE reports every table it reaches as a NOTICE: not worth printing.
    // SET LOCAL ends with the transaction; inside a caller's transaction the old level is
    // put back explicitly below (a rollback to the savepoint restores it by itself).
    const std::string messages = demo::scalar(conn, "show client_min_messages");
    demo::exec(conn, "set local client_min_messages = warning");
    prepare_tables(conn, options.replace);
    const demo::City city(options.lots, options.seed, options.center_lon, options.center_lat);
    DemoReport r;
    r.bairros = demo::copy_bairros(conn, city);
    r.logradouros = demo::copy_logradouros(conn, city);
    r.quadras = demo::copy_quadras(conn, city);
    r.faces = demo::copy_faces(conn, city);
    r.lotes = demo::copy_lotes(conn, city);
    r.edificacoes = demo::copy_edificacoes(conn, city);
    r.pessoas = demo::copy_pessoas(conn, city);
    r.imobiliarios = demo::copy_imobiliarios(conn, city);
    r.proprietarios = demo::copy_proprietarios(conn, city);
    r.panoramas = demo::copy_panoramas(conn, city);
    r.perfis_lidar = demo::insert_lidar_profiles(conn, options.replace);
    reset_sequences(conn, r);
    std::string analyze = "analyze ";
    for (const char* t : kTables) analyze += fmt::format("{}cadastro.{}", analyze.size() > 8 ? ", " : "", t);
    demo::exec(conn, analyze);
    // New data under the same URLs: bump every layer's generation so cached tiles and
    // other ETag-validated reads are refetched.
    std::string layers;
    for (const char* t : kTables) layers += fmt::format("{}('{}')", layers.empty() ? "" : ", ", t);
    demo::exec(conn, "insert into auditoria.geracao_camada (camada) values " + layers + ", ('perfil_lidar') " +
                         "on conflict (camada) do update set geracao = auditoria.geracao_camada.geracao + 1, alterada = now()");
    if (!own) demo::exec(conn, fmt::format("set local client_min_messages = '{}'", messages));
    demo::exec(conn, own ? "commit" : "release savepoint cadastre_demo");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  } catch (...) {
    // Best effort: the original error is what the caller needs to see.
    const char* undo = own ? "rollback" : "rollback to savepoint cadastre_demo; release savepoint cadastre_demo";
    PQclear(PQexec(conn, undo));
    try {
      throw;
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw Error(errc::internal, std::string("falha na carga de demonstração: ") + e.what());
    }
  }
}

}  // namespace cadastre::store
