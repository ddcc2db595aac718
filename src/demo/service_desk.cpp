#include "demo/service_desk.hpp"

#include <libpq-fe.h>

#include <array>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "cadastre/error.hpp"
#include "file_store/file_store.hpp"
#include "file_store/keys.hpp"

namespace cadastre::store {
namespace {

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

Result exec(PGconn* c, const std::string& sql, const std::vector<std::string>& params = {}) {
  std::vector<const char*> values;
  for (const auto& p : params) values.push_back(p.c_str());
  // Scripts of several statements take no parameters (PQexec); single statements bind them.
  Result r(params.empty() ? PQexec(c, sql.c_str())
                          : PQexecParams(c, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                         nullptr, nullptr, 0),
           &PQclear);
  auto st = PQresultStatus(r.get());
  if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
    throw Error(errc::internal, std::string("falha nos dados de demonstração do atendimento: ") + PQerrorMessage(c));
  return r;
}

// Runs `fn` in a transaction of its own unless the caller has one open.
template <class Fn>
void in_transaction(PGconn* c, Fn&& fn) {
  bool own = PQtransactionStatus(c) == PQTRANS_IDLE;
  if (own) exec(c, "begin");
  try {
    fn();
    if (own) exec(c, "commit");
  } catch (...) {
    if (own) PQclear(PQexec(c, "rollback"));
    throw;
  }
}

// ---------------------------------------------------------------- a small real PNG

std::uint32_t crc32(std::string_view data) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

void chunk(std::string& png, const char* type, const std::string& data) {
  put32(png, static_cast<std::uint32_t>(data.size()));
  std::string body = std::string(type, 4) + data;
  png += body;
  put32(png, crc32(body));
}

// A 48×32 RGB picture of a house (wall in `color`, roof, door, sky), as PNG with one
// stored (uncompressed) deflate block, so no zlib is needed.
std::string house_png(unsigned char r, unsigned char g, unsigned char b) {
  const int w = 48, h = 32;
  std::string raw;
  for (int y = 0; y < h; ++y) {
    raw += '\0';  // filter: none
    for (int x = 0; x < w; ++x) {
      std::array<unsigned char, 3> px{135, 190, 235};  // sky
      int dx = x < 24 ? 24 - x : x - 23;
      if (y >= 28) px = {70, 140, 60};                                        // grass
      else if (y >= 14 && x >= 10 && x < 38) px = {r, g, b};                  // wall
      else if (y >= 2 && y < 14 && dx <= (y - 2) * 16 / 12 + 2) px = {150, 40, 30};  // roof
      if (y >= 20 && y < 28 && x >= 21 && x < 27) px = {90, 60, 30};         // door
      raw.append(reinterpret_cast<const char*>(px.data()), 3);
    }
  }
  std::string z = "\x78\x01";
  z += '\x01';  // final stored block
  auto len = static_cast<std::uint16_t>(raw.size());
  z += static_cast<char>(len & 0xFF);
  z += static_cast<char>(len >> 8);
  z += static_cast<char>(~len & 0xFF);
  z += static_cast<char>((~len >> 8) & 0xFF);
  z += raw;
  std::uint32_t a = 1, bsum = 0;
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    bsum = (bsum + a) % 65521;
  }
  put32(z, (bsum << 16) | a);
  std::string ihdr;
  put32(ihdr, w);
  put32(ihdr, h);
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, no filter set, no interlace
  std::string png("\x89PNG\r\n\x1a\n", 8);
  chunk(png, "IHDR", ihdr);
  chunk(png, "IDAT", z);
  chunk(png, "IEND", "");
  return png;
}

std::string random_hex64() {
  std::random_device rd;
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 8; ++i) {
    std::uint32_t v = rd();
    for (int k = 0; k < 8; ++k) out += digits[(v >> (k * 4)) & 15];
  }
  return out;
}

std::string to_hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// The key's path in the store the server reads.
std::string file_of(const std::string& key) {
  auto k = media::parse_key(key);
  if (!k) throw Error(errc::internal, "chave de mídia inválida: " + key);
  return media::key_path(*k, key);
}

constexpr const char* kProtocols = R"(
delete from atendimento.protocolo where criado_por = 'demo';
with dados(i, nome, documento, contato, assunto) as (values
  (1,  'Maria Aparecida Silva',  '123.456.789-09', 'maria.silva@example.com', 'Revisão de área construída'),
  (2,  'José Carlos Pereira',    '234.567.890-10', '(19) 99999-0002',         'Atualização cadastral'),
  (3,  'Ana Paula Oliveira',     '345.678.901-21', '(19) 99999-0003',         'Certidão de valor venal'),
  (4,  'Antônio Santos',         '456.789.012-32', 'antonio@example.com',     'Desmembramento de lote'),
  (5,  'Francisca Lima',         '567.890.123-43', '(19) 99999-0005',         'Vistoria de imóvel'),
  (6,  'Paulo Roberto Costa',    '678.901.234-54', '(19) 99999-0006',         'Correção de endereço'),
  (7,  'Juliana Ferreira',       '789.012.345-65', 'juliana@example.com',     'Inclusão de edificação'),
  (8,  'Carlos Eduardo Souza',   '890.123.456-76', '(19) 99999-0008',         'Revisão de área construída'),
  (9,  'Fernanda Rodrigues',     '901.234.567-87', 'fernanda@example.com',    'Vistoria de imóvel'),
  (10, 'Luiz Henrique Alves',    '012.345.678-98', '(19) 99999-0010',         'Atualização cadastral'),
  (11, 'Patrícia Gomes',         '111.222.333-96', '(19) 99999-0011',         'Unificação de lotes'),
  (12, 'Marcos Vinícius Ribeiro','222.333.444-05', 'marcos@example.com',      'Vistoria de imóvel'),
  (13, 'Aline Martins',          '333.444.555-14', '(19) 99999-0013',         'Certidão de valor venal'),
  (14, 'Ricardo Carvalho',       '444.555.666-23', '(19) 99999-0014',         'Revisão de área construída'),
  (15, 'Camila Araújo',          '555.666.777-32', 'camila@example.com',      'Correção de endereço'),
  (16, 'Roberto Barbosa',        '666.777.888-41', '(19) 99999-0016',         'Vistoria de imóvel'),
  (17, 'Sandra Cardoso',         '777.888.999-50', '(19) 99999-0017',         'Inclusão de edificação'),
  (18, 'Eduardo Nascimento',     '888.999.000-69', 'eduardo@example.com',     'Atualização cadastral'),
  (19, 'Vanessa Teixeira',       '999.000.111-78', '(19) 99999-0019',         'Vistoria de imóvel'),
  (20, 'Rafael Moreira',         '000.111.222-87', '(19) 99999-0020',         'Desmembramento de lote')),
base as (
  select d.*, case when d.i <= 8 then extract(year from now())::int - 1 else extract(year from now())::int end as ano,
         (array['aberto', 'em_analise', 'deferido', 'indeferido', 'arquivado'])[1 + d.i % 5] as status,
         case when d.i <= 8
              then make_timestamptz(extract(year from now())::int - 1, 1 + (d.i * 5) % 12, 1 + (d.i * 11) % 27,
                                    9 + d.i % 8, 0, 0, 'America/Sao_Paulo')
              else greatest(date_trunc('year', now()), now() - make_interval(days => (20 - d.i) * 4 + 1)) end as aberto_em
  from dados d)
insert into atendimento.protocolo (ano, numero, solicitante_nome, solicitante_documento, solicitante_contato, assunto,
                                   descricao, status, lote_id, aberto_em, atualizado_em, encerrado_em, criado_por)
select b.ano,
       coalesce((select max(p.numero) from atendimento.protocolo p where p.ano = b.ano), 0)
         + row_number() over (partition by b.ano order by b.i),
       b.nome, b.documento, b.contato, b.assunto, 'Pedido de ' || lower(b.assunto) || ' registrado no balcão.',
       b.status, (select l.id from cadastro.lote l order by l.id offset (b.i % 10) limit 1), b.aberto_em,
       least(now(), b.aberto_em + interval '2 days'),
       case when b.status in ('deferido', 'indeferido', 'arquivado') then least(now(), b.aberto_em + interval '15 days') end,
       'demo'
from base b;
)";

constexpr const char* kInspections = R"(
delete from atendimento.vistoria where criado_por = 'demo';
with reservas as (
  select r.*, row_number() over (order by r.id) as rn from agendamento.reserva r
  where r.criado_por = 'demo' and not exists (select 1 from atendimento.vistoria v where v.agendamento_id = r.id)),
protocolos as (
  select p.id, row_number() over (order by p.ano desc, p.numero) as rn from atendimento.protocolo p
  where p.criado_por = 'demo' and p.assunto = 'Vistoria de imóvel'),
dados as (
  select r.id, p.id as protocolo_id, r.lote_id,
         case r.status when 'concluido' then 'concluida' when 'em_progresso' then 'em_andamento' else 'pendente' end as status
  from reservas r left join protocolos p on p.rn = r.rn)
insert into atendimento.vistoria (agendamento_id, protocolo_id, checklist, constatacoes, fotos, status, token_hash,
                                  contato_cidadao, disponibilidade, criado_por)
select d.id, d.protocolo_id,
       case d.status
         when 'concluida' then '[{"item": "Área construída confere com o cadastro", "ok": false, "observacao": "ampliação de 18 m² nos fundos"},
                                 {"item": "Uso do imóvel", "ok": true}, {"item": "Padrão construtivo", "ok": true},
                                 {"item": "Fotos da fachada", "ok": true}]'::jsonb
         when 'em_andamento' then '[{"item": "Área construída confere com o cadastro", "ok": true},
                                    {"item": "Uso do imóvel", "ok": null}, {"item": "Padrão construtivo", "ok": null},
                                    {"item": "Fotos da fachada", "ok": true}]'::jsonb
         else '[{"item": "Área construída confere com o cadastro", "ok": null}, {"item": "Uso do imóvel", "ok": null},
                {"item": "Padrão construtivo", "ok": null}, {"item": "Fotos da fachada", "ok": null}]'::jsonb end,
       case d.status
         when 'concluida' then 'Ampliação de 18 m² nos fundos sem registro; recomenda-se a atualização cadastral.'
         when 'em_andamento' then 'Vistoria em curso: fachada fotografada, medição interna pendente.' end,
       case when d.status = 'pendente' then '{}'::bigint[]
            else array(select a.id from midia.arquivo a where a.criado_por = 'demo' and a.lote_id = d.lote_id order by a.id) end,
       d.status,
       encode(sha256(convert_to(gen_random_uuid()::text || clock_timestamp()::text, 'UTF8')), 'hex'),
       case when d.status = 'pendente' then '(19) 98888-0000' end,
       case when d.status = 'pendente' then 'manhãs, de segunda a quarta' end,
       'demo'
from dados d;
select (select count(*) from atendimento.protocolo where criado_por = 'demo')
     + (select count(*) from atendimento.vistoria where criado_por = 'demo');
)";

}  // namespace

std::int64_t load_demo_media(PGconn* conn, const std::string& media_root, const std::string& tenant_slug) {
  if (!media::valid_area(tenant_slug) || tenant_slug == media::kPublicArea)
    throw Error(errc::invalid_argument, "município inválido para a mídia de demonstração: " + tenant_slug);
  const file_store::Store store(media_root);
  std::vector<std::string> old_keys;
  {
    auto r = exec(conn, "select chave from midia.arquivo where criado_por = 'demo'");
    for (int i = 0; i < PQntuples(r.get()); ++i) old_keys.emplace_back(PQgetvalue(r.get(), i, 0));
  }
  auto lots = exec(conn,
                   "select l.id::text, coalesce((select min(i.id) from cadastro.imobiliario i where i.lote_id = l.id)::text, '') "
                   "from cadastro.lote l order by l.id limit 6");
  static constexpr std::array<std::array<unsigned char, 3>, 6> kColors{
      {{240, 220, 160}, {200, 225, 240}, {245, 190, 170}, {210, 240, 200}, {235, 235, 235}, {250, 200, 120}}};
  struct File {
    std::string key, nome, lote_id, imobiliario_id, bytes;
  };
  std::vector<File> files;
  for (int i = 0; i < PQntuples(lots.get()); ++i) {
    const auto& c = kColors[static_cast<std::size_t>(i) % kColors.size()];
    File f{media::make_key(tenant_slug, random_hex64(), ".png"), "fachada-lote-" + std::string(PQgetvalue(lots.get(), i, 0)) + ".png",
           PQgetvalue(lots.get(), i, 0), PQgetvalue(lots.get(), i, 1), house_png(c[0], c[1], c[2])};
    files.push_back(std::move(f));
  }
  try {
    for (const auto& f : files) store.write(file_of(f.key), f.bytes);
    in_transaction(conn, [&] {
      // Inspections keep only photos that still exist.
      exec(conn, "update atendimento.vistoria v set fotos = array(select x from unnest(v.fotos) x where x not in "
                 "(select a.id from midia.arquivo a where a.criado_por = 'demo')) "
                 "where v.fotos && array(select a.id from midia.arquivo a where a.criado_por = 'demo')");
      exec(conn, "delete from midia.arquivo where criado_por = 'demo'");
      for (const auto& f : files)
        exec(conn,
             "insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256, bucket, descricao, "
             "lote_id, imobiliario_id, criado_por) values ($1, $2, '.png', 'image/png', $3::bigint, "
             "encode(sha256(decode($4, 'hex')), 'hex'), 'fachadas', $7, $5::integer, nullif($6, '')::integer, 'demo')",
             {f.key, f.nome, std::to_string(f.bytes.size()), to_hex(f.bytes), f.lote_id, f.imobiliario_id,
              "Fachada do lote " + f.lote_id});
    });
  } catch (...) {
    for (const auto& f : files) store.remove(file_of(f.key));
    throw;
  }
  for (const auto& key : old_keys)
    if (media::parse_key(key)) store.remove(file_of(key));
  return static_cast<std::int64_t>(files.size());
}

std::int64_t load_demo_service_desk(PGconn* conn) {
  std::int64_t count = 0;
  in_transaction(conn, [&] {
    exec(conn, kProtocols);
    auto r = exec(conn, kInspections);
    count = std::stoll(PQgetvalue(r.get(), 0, 0));
  });
  return count;
}

}  // namespace cadastre::store
