-- Digital proofs (provas digitais): evidence about a property unit kept by integration
-- partners (photos, documents, field records), with the SHA-256 of the evidence file so
-- its integrity can be checked later.
--
-- numero_cadastro is a soft link to cadastro.imobiliario.numero_cadastro (checked by the
-- API when a proof is written): evidence is a record of its own that must outlive edits of
-- the cadastre, so neither a cascade nor a restricting foreign key fits.
create schema if not exists provas;

create table provas.prova_digital (
  id               bigserial primary key,
  numero_cadastro  text not null check (numero_cadastro <> ''),
  tipo             text not null check (tipo <> ''),
  descricao        text,
  arquivo_url      text not null check (arquivo_url ~ '^https?://'),
  sha256           text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  data             date not null,
  criado_em        timestamptz not null default now(),
  atualizado_em    timestamptz not null default now()
);
create index prova_digital_numero_cadastro_idx on provas.prova_digital(numero_cadastro);
