// cadastre-admin: migrations, tenants, users, tokens and demo data.
//
//   cadastre-admin [--platform-dsn DSN] migrate
//   cadastre-admin tenant add SLUG --nome NOME [--uf UF] [--ibge CODIGO] [--dsn DSN] [--fuso TZ]
//   cadastre-admin tenant list
//   cadastre-admin user add --tenant SLUG --email E --nome N [--password P] [--admin] [--perm camada:rw]...
//   cadastre-admin token issue --email E
//   cadastre-admin tenant integracao --tenant SLUG --url URL   (token de /integracao-rest, mostrado uma vez)
//   cadastre-admin tenant leitura --tenant SLUG    (login só de leitura das camadas, para o QGIS; senha mostrada uma vez)
//   cadastre-admin client add --tenant S --scope avaliacao|provas_digitais --nome N [--usuario U --password P]
//   cadastre-admin demo load --tenant SLUG [--lots N] [--seed S] [--replace]
//   cadastre-admin demo setup [--lots N] [--lots2 N] [--seed S] [--media-root DIR] [--project-geometries N]
//                             [--second-server DSN]              (everything ./scripts/demo needs)
//   cadastre-admin demo project --tenant SLUG --email OWNER [--geometries N]   (the platform's demo project)
//   cadastre-admin geografia load [--municipios FILE.csv] [--setores FILE.csv]   (IBGE tables, platform database)
//
// The platform DSN comes from --platform-dsn or CADASTRE_PLATFORM_DSN; its database is
// created when missing. Tenant databases default to cad_<slug> on the same server.
#include <libpq-fe.h>

#include <iostream>
#include <memory>

#include "cadastre/error.hpp"
#include "cli/flags.hpp"
#include "store/api_clients.hpp"
#include "store/crypto.hpp"
#include "demo/demo.hpp"
#include "demo/agenda.hpp"
#include "demo/forms.hpp"
#include "demo/geografia.hpp"
#include "demo/mapoteca.hpp"
#include "demo/platform_project.hpp"
#include "demo/service_desk.hpp"
#include "demo/explorer.hpp"
#include "demo/provas.hpp"
#include "demo/valuation.hpp"
#include "store/dsn.hpp"
#include "store/identity.hpp"
#include "store/layer_readers.hpp"
#include "store/migrate.hpp"
#include "store/tenants.hpp"

using namespace cadastre;

namespace {

const char* kUsage =
    "uso: cadastre-admin [--platform-dsn DSN] <comando>\n"
    "  migrate                                    aplica as migrações (plataforma e todos os municípios)\n"
    "  tenant add SLUG --nome N [--uf UF] [--ibge C] [--dsn DSN] [--fuso TZ]\n"
    "  tenant list\n"
    "  user add --tenant SLUG --email E --nome N [--password P] [--admin] [--perm camada:rw]...\n"
    "  token issue --email E                      emite um novo token (mostrado uma única vez)\n"
    "  tenant integracao --tenant S --url U       serviço REST externo de /integracao-rest e seu token (mostrado uma vez)\n"
    "  tenant leitura --tenant S                  login só de leitura das camadas da plataforma (QGIS): nova senha,\n"
    "                                             mostrada uma vez\n"
    "  client add --tenant S --scope avaliacao --nome N              cliente de API: token bearer (mostrado uma vez)\n"
    "  client add --tenant S --scope provas_digitais --nome N --usuario U [--password P]\n"
    "                                             credencial Basic (senha gerada quando omitida; mostrada uma vez)\n"
    "  demo load --tenant SLUG [--lots N] [--seed S] [--replace]\n"
    "  demo setup [--lots N] [--lots2 N] [--seed S] [--media-root DIR (padrão var/midia)]\n"
    "             [--project-geometries N (padrão 100000)] [--second-server DSN]\n"
    "                                             municípios, usuários, tokens e dados de demonstração\n"
    "  demo project --tenant SLUG --email DONO [--geometries N (padrão 100000)]\n"
    "                                             o projeto de demonstração da plataforma (camada de lotes)\n"
    "  geografia load [--municipios ARQ.csv] [--setores ARQ.csv]\n"
    "                                             tabelas do IBGE (municípios, setores censitários) em CSV\n";

using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;

struct Platform {
  std::string dsn;
  std::unique_ptr<store::Pool> pool;
  std::unique_ptr<store::Identity> identity;

  explicit Platform(std::string d) : dsn(std::move(d)) {
    store::PoolOptions o;
    o.dsn = dsn;
    o.size = 2;
    o.application_name = "cadastre-admin";
    pool = std::make_unique<store::Pool>(o);
    identity = std::make_unique<store::Identity>(*pool, std::chrono::milliseconds(0));
  }
};

void migrate_all(const std::string& platform_dsn) {
  std::string db = store::dsn_get(platform_dsn, "dbname");
  if (db.empty()) throw Error(errc::invalid_argument, "o DSN da plataforma precisa de dbname");
  store::create_database(platform_dsn, db);
  {
    Conn c(store::connect_or_throw(platform_dsn), &PQfinish);
    for (const auto& name : store::migrate(c.get(), "platform")) std::cerr << "plataforma: aplicada " << name << "\n";
  }
  Platform p(platform_dsn);
  for (const auto& t : p.identity->tenants()) {
    Conn c(store::connect_or_throw(t.dsn), &PQfinish);
    for (const auto& name : store::migrate(c.get(), "tenant")) std::cerr << t.slug << ": aplicada " << name << "\n";
  }
  // Progress goes to stderr: `demo setup` keeps stdout for the KEY='value' lines.
  std::cerr << "migrações em dia\n";
}

store::Tenant add_tenant(Platform& p, const std::string& slug, const cli::Flags& f) {
  store::NewTenant t;
  t.slug = slug;
  t.nome = f.get("nome", slug);
  t.uf = f.get("uf", "");
  t.codigo_ibge = f.get("ibge", "");
  t.dsn = f.get("dsn", "");
  t.fuso_horario = f.get("fuso", "America/Sao_Paulo");
  return store::provision_tenant(*p.identity, p.dsn, t);
}

void add_user(Platform& p, const std::string& tenant, const std::string& email, const std::string& nome,
              const std::string& password, bool admin, const std::vector<std::string>& perms) {
  p.identity->add_user({tenant, email, nome, password, admin});
  for (const auto& perm : perms) p.identity->set_permission(email, store::parse_layer_permission(perm));
}

store::DemoReport load_demo(const store::Tenant& t, std::int64_t lots, std::uint64_t seed, bool replace, double lon,
                            double lat) {
  Conn c(store::connect_or_throw(t.dsn), &PQfinish);
  store::DemoOptions o;
  o.lots = lots;
  o.seed = seed;
  o.replace = replace;
  o.center_lon = lon;
  o.center_lat = lat;
  return store::load_demo(c.get(), o);
}

void print_report(const std::string& slug, const store::DemoReport& r) {
  std::cerr << slug << ": " << r.lotes << " lotes, " << r.imobiliarios << " unidades, " << r.edificacoes
            << " edificações, " << r.quadras << " quadras, " << r.faces << " faces, " << r.logradouros
            << " logradouros, " << r.bairros << " bairros, " << r.pessoas << " pessoas, " << r.panoramas
            << " panoramas, " << r.perfis_lidar << " amostras LIDAR em " << r.seconds << " s\n";
}

// The tenant bearer of /integracao-rest: a new random token whose SHA-256 is stored with
// the destination URL in the tenant config (token_destino and timeout_ms, when set, stay).
// Returns the token, which is shown once and never stored.
std::string configure_integracao(const std::string& platform_dsn, const std::string& slug, const std::string& url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    throw Error(errc::invalid_argument, "--url deve começar com http:// ou https://", "url");
  std::string token = store::random_token(), hash = store::sha256_hex(token);
  Conn c(store::connect_or_throw(platform_dsn), &PQfinish);
  const char* params[] = {slug.c_str(), url.c_str(), hash.c_str()};
  PGresult* r = PQexecParams(c.get(),
                             "update plataforma.tenants set config = jsonb_set(config, '{integracao_rest}', "
                             "coalesce(config->'integracao_rest', '{}'::jsonb) || "
                             "jsonb_build_object('url', $2::text, 'token_sha256', $3::text)) where slug = $1",
                             3, nullptr, params, nullptr, nullptr, 0);
  bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  std::string rows = ok ? PQcmdTuples(r) : "", msg = PQerrorMessage(c.get());
  PQclear(r);
  if (!ok) throw Error(errc::unavailable, "não foi possível gravar a configuração: " + msg);
  if (rows != "1") throw Error(errc::not_found, "município não cadastrado: " + slug, "tenant");
  return token;
}

// The platform's demo project in `tenant`, owned by the user `email`.
store::DemoProjectReport load_demo_project(Platform& p, const std::string& tenant, const std::string& email,
                                           std::int64_t geometries) {
  auto t = p.identity->tenant(tenant);
  if (!t) throw Error(errc::not_found, "município não cadastrado: " + tenant, "tenant");
  Conn pc(store::connect_or_throw(p.dsn), &PQfinish);
  std::string tid = std::to_string(t->id);
  const char* params[] = {email.c_str(), tid.c_str()};
  PGresult* found = PQexecParams(pc.get(), "select id from plataforma.usuarios where email = $1 and tenant_id = $2::bigint",
                                 2, nullptr, params, nullptr, nullptr, 0);
  std::string owner = PQresultStatus(found) == PGRES_TUPLES_OK && PQntuples(found) == 1 ? PQgetvalue(found, 0, 0) : "";
  PQclear(found);
  if (owner.empty()) throw Error(errc::not_found, "usuário não cadastrado no município: " + email, "email");
  Conn c(store::connect_or_throw(t->dsn), &PQfinish);
  auto r = store::load_demo_platform_project(c.get(), std::stoll(owner), geometries, -47.0608, -22.9056);
  std::cerr << t->slug << ": projeto de demonstração " << r.project_id << " com " << r.geometries << " geometrias e "
            << r.values << " valores em " << r.seconds << " s\n";
  return r;
}

// Everything the demo needs, idempotently: two municipalities with data, a user each,
// fresh tokens. Prints shell assignments (KEY='value') on stdout for var/demo.env.
void demo_setup(const std::string& platform_dsn, const cli::Flags& f) {
  migrate_all(platform_dsn);
  Platform p(platform_dsn);
  auto lots = f.get_int("lots", 2000);
  auto lots2 = f.get_int("lots2", 300);
  auto seed = static_cast<std::uint64_t>(f.get_int("seed", 1));

  store::NewTenant campinas{"campinas", "Campinas", "SP", "3509502", "", "America/Sao_Paulo"};
  store::NewTenant valinhos{"valinhos", "Valinhos", "SP", "3556206", "", "America/Sao_Paulo"};
  // The second city on a PostgreSQL server of its own (scripts/demo --cluster): the
  // platform reaches each municipality by its DSN, wherever it lives.
  if (auto second = f.get("second-server"); second && !second->empty())
    valinhos.dsn = store::prepare_tenant_database(*second, valinhos.slug);
  auto t1 = store::provision_tenant(*p.identity, p.dsn, campinas);
  auto t2 = store::provision_tenant(*p.identity, p.dsn, valinhos);
  std::cerr << "carregando a cidade de demonstração...\n";
  print_report(t1.slug, load_demo(t1, lots, seed, true, -47.0608, -22.9056));
  {
    Conn c(store::connect_or_throw(t1.dsn), &PQfinish);
    std::cerr << t1.slug << ": agenda de vistorias com " << store::load_demo_agenda(c.get()) << " reservas\n";
    // demo data of the other sections (one line each)
    std::cerr << t1.slug << ": " << store::load_demo_forms(c.get()) << " feições com valores de formulário\n";
    std::cerr << t1.slug << ": mapoteca com " << store::load_demo_mapoteca(c.get()) << " itens\n";
    std::cerr << t1.slug << ": " << store::load_demo_media(c.get(), f.get("media-root", "var/midia", "CADASTRE_MEDIA_ROOT"), t1.slug) << " fotos de lotes na mídia\n";
    std::cerr << t1.slug << ": " << store::load_demo_service_desk(c.get()) << " protocolos e vistorias\n";
    std::cerr << t1.slug << ": " << store::load_demo_explorer(c.get()) << " relatórios do explorador\n";
    std::cerr << t1.slug << ": perfil de avaliação (" << store::load_demo_valuation(c.get()) << ")\n";
    std::cerr << t1.slug << ": " << store::load_demo_provas(c.get()) << " provas digitais\n";
  }
  print_report(t2.slug, load_demo(t2, lots2, seed + 1, true, -46.9958, -22.9706));
  // Geography of the platform's routes: each city's references, zoning and notes; the
  // region's IBGE municipalities and sectors.
  for (const auto* t : {&t1, &t2}) {
    Conn c(store::connect_or_throw(t->dsn), &PQfinish);
    std::cerr << t->slug << ": " << store::load_demo_geography(c.get(), t->nome, t->uf) << " linhas de geografia\n";
  }
  {
    Conn c(store::connect_or_throw(p.dsn), &PQfinish);
    std::cerr << "plataforma: " << store::load_demo_municipalities(c.get()) << " municípios e setores do IBGE\n";
  }

  const std::string email = "demo@campinas.sp.gov.br", password = "demo-campinas";
  add_user(p, "campinas", email, "Equipe de Demonstração", password, true, {"*:rw"});
  add_user(p, "valinhos", "demo@valinhos.sp.gov.br", "Equipe de Valinhos", "demo-valinhos", false, {"*:rw"});
  auto project = load_demo_project(p, t1.slug, email, f.get_int("project-geometries", 100000));
  std::string token = p.identity->issue_token(email);
  std::string token2 = p.identity->issue_token("demo@valinhos.sp.gov.br");
  // No external REST service listens on 8099 in the demo: /integracao-rest answers 502
  // until one is started there.
  std::string integracao = configure_integracao(platform_dsn, t1.slug, "http://127.0.0.1:8099");
  store::ApiClients clients(*p.pool);
  auto valuation = clients.add({t1.slug, "Avaliação (demonstração)", "avaliacao", "", ""});
  auto provas = clients.add({t1.slug, "Provas digitais (demonstração)", "provas_digitais", "provas-demo", ""});

  auto q = [](const std::string& v) { return "'" + v + "'"; };
  std::cout << "DEMO_MUNICIPIO=" << q(t1.slug) << "\n"
            << "DEMO_TENANT_ID=" << q(std::to_string(t1.id)) << "\n"
            << "DEMO_TOKEN=" << q(token) << "\n"
            << "DEMO_TN_TOKEN=" << q(store::base64_encode(std::to_string(t1.id))) << "\n"
            << "DEMO_EMAIL=" << q(email) << "\n"
            << "DEMO_PASSWORD=" << q(password) << "\n"
            << "DEMO2_MUNICIPIO=" << q(t2.slug) << "\n"
            << "DEMO2_TOKEN=" << q(token2) << "\n"
            << "DEMO_VALUATION_TOKEN=" << q(valuation.secret) << "\n"
            << "DEMO_PROVAS_USER=" << q(provas.usuario) << "\n"
            << "DEMO_PROVAS_PASSWORD=" << q(provas.secret) << "\n"
            << "DEMO_INTEGRACAO_TOKEN=" << q(integracao) << "\n"
            << "DEMO_PROJECT_ID=" << q(std::to_string(project.project_id)) << "\n"
            << "DEMO_PROJECT_LAYER_ID=" << q(std::to_string(project.layer_id)) << "\n";
}

int run(int argc, char** argv) {
  cli::Flags f(argc, argv, 1,
               {"platform-dsn", "nome", "uf", "ibge", "dsn", "fuso", "tenant", "email", "password", "perm", "lots",
                "lots2", "seed", "center-lon", "center-lat", "media-root", "scope", "usuario", "url", "project-geometries",
                "geometries", "municipios", "setores", "second-server"},
               {"admin", "replace", "help"});
  const auto& args = f.positional();
  if (f.has("help") || args.empty()) {
    std::cout << kUsage;
    return args.empty() && !f.has("help") ? 2 : 0;
  }
  std::string platform_dsn = f.get("platform-dsn", "", "CADASTRE_PLATFORM_DSN");
  if (platform_dsn.empty()) throw Error(errc::invalid_argument, "informe --platform-dsn ou CADASTRE_PLATFORM_DSN");
  auto need = [&](const std::string& name) {
    auto v = f.get(name);
    if (!v || v->empty()) throw Error(errc::missing_field, "falta --" + name, name);
    return *v;
  };
  const std::string& cmd = args[0];
  std::string sub = args.size() > 1 ? args[1] : "";

  if (cmd == "migrate") {
    migrate_all(platform_dsn);
  } else if (cmd == "tenant" && sub == "add" && args.size() == 3) {
    Platform p(platform_dsn);
    auto t = add_tenant(p, args[2], f);
    std::cout << "município " << t.slug << " (id " << t.id << ") pronto em " << store::dsn_get(t.dsn, "dbname") << "\n";
  } else if (cmd == "tenant" && sub == "list") {
    Platform p(platform_dsn);
    for (const auto& t : p.identity->tenants())
      std::cout << t.id << "\t" << t.slug << "\t" << t.nome << "\t" << (t.ativo ? "ativo" : "inativo") << "\t"
                << store::dsn_get(t.dsn, "dbname") << "\n";
  } else if (cmd == "user" && sub == "add") {
    Platform p(platform_dsn);
    add_user(p, need("tenant"), need("email"), need("nome"), f.get("password", ""), f.has("admin"), f.all("perm"));
    std::cout << "usuário " << need("email") << " pronto\n";
  } else if (cmd == "tenant" && sub == "integracao") {
    std::cout << configure_integracao(platform_dsn, need("tenant"), need("url")) << "\n";
  } else if (cmd == "tenant" && sub == "leitura") {
    Platform p(platform_dsn);
    auto t = p.identity->tenant(need("tenant"));
    if (!t) throw Error(errc::not_found, "município não cadastrado: " + need("tenant"), "tenant");
    store::LayerReader r = store::grant_layer_reader(t->dsn);
    std::cout << "usuário " << r.role << "\nsenha " << r.password << "\nbanco " << store::dsn_get(t->dsn, "dbname")
              << "\n(esquema camadas: camadas.camadas e camadas.campos dizem quais tabelas são cada camada)\n";
  } else if (cmd == "token" && sub == "issue") {
    Platform p(platform_dsn);
    std::cout << p.identity->issue_token(need("email")) << "\n";
  } else if (cmd == "client" && sub == "add") {
    Platform p(platform_dsn);
    store::ApiClients clients(*p.pool);
    auto issued = clients.add({need("tenant"), need("nome"), need("scope"), f.get("usuario", ""), f.get("password", "")});
    if (issued.usuario.empty()) std::cout << issued.secret << "\n";
    else std::cout << issued.usuario << ":" << issued.secret << "\n";
  } else if (cmd == "demo" && sub == "load") {
    Platform p(platform_dsn);
    auto t = p.identity->tenant(need("tenant"));
    if (!t) throw Error(errc::not_found, "município não cadastrado: " + need("tenant"));
    double lon = std::stod(f.get("center-lon", "-47.0608")), lat = std::stod(f.get("center-lat", "-22.9056"));
    print_report(t->slug, load_demo(*t, f.get_int("lots", 2000), static_cast<std::uint64_t>(f.get_int("seed", 1)),
                                    f.has("replace"), lon, lat));
  } else if (cmd == "demo" && sub == "project") {
    Platform p(platform_dsn);
    auto r = load_demo_project(p, need("tenant"), need("email"), f.get_int("geometries", 100000));
    std::cout << "DEMO_PROJECT_ID='" << r.project_id << "'\nDEMO_PROJECT_LAYER_ID='" << r.layer_id << "'\n";
  } else if (cmd == "geografia" && sub == "load") {
    // Municipalities first: the sectors' foreign key needs them.
    auto municipios = f.get("municipios"), setores = f.get("setores");
    if (!municipios && !setores) throw Error(errc::missing_field, "informe --municipios e/ou --setores", "municipios");
    Conn c(store::connect_or_throw(platform_dsn), &PQfinish);
    if (municipios) std::cout << store::load_ibge_municipalities(c.get(), *municipios) << " municípios carregados\n";
    if (setores) std::cout << store::load_ibge_sectors(c.get(), *setores) << " setores censitários carregados\n";
  } else if (cmd == "demo" && sub == "setup") {
    demo_setup(platform_dsn, f);
  } else {
    std::cerr << kUsage;
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Error& e) {
    std::cerr << "cadastre-admin: " << e.what() << " [" << code_string(e.code()) << "]\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "cadastre-admin: " << e.what() << "\n";
    return 2;
  }
}
