-- Media records and the service desk (protocols, inspections, approvals).
--
-- midia.arquivo: one row per stored file. `chave` is the opaque key the storage backend
-- issued (the only thing /midia/get serves); the record links the file to the cadastre
-- (a lot, a property unit, an inspection) so the field app and the characterization
-- package can list a lot's media.
create table midia.arquivo (
  id              bigserial primary key,
  chave           text not null unique check (chave ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$'),
  nome            text not null check (btrim(nome) <> ''),
  extensao        text not null check (extensao ~ '^\.[a-z0-9]{1,10}$'),
  content_type    text not null,
  tamanho         bigint not null check (tamanho >= 0),
  sha256          text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  bucket          text,
  descricao       text,
  lote_id         integer references cadastro.lote(id) on delete set null,
  imobiliario_id  integer references cadastro.imobiliario(id) on delete set null,
  criado_em       timestamptz not null default now(),
  criado_por      text
);
create index arquivo_lote_idx on midia.arquivo (lote_id);
create index arquivo_imobiliario_idx on midia.arquivo (imobiliario_id);

-- Service protocols: numbered per year (numero restarts at 1 every January).
create table atendimento.protocolo (
  id                    bigserial primary key,
  ano                   integer not null check (ano between 2000 and 2200),
  numero                integer not null check (numero >= 1),
  solicitante_nome      text not null check (btrim(solicitante_nome) <> ''),
  solicitante_documento text,
  solicitante_contato   text,
  assunto               text not null check (btrim(assunto) <> ''),
  descricao             text,
  status                text not null default 'aberto'
                        check (status in ('aberto', 'em_analise', 'deferido', 'indeferido', 'arquivado')),
  lote_id               integer references cadastro.lote(id) on delete set null,
  imobiliario_id        integer references cadastro.imobiliario(id) on delete set null,
  aberto_em             timestamptz not null default now(),
  atualizado_em         timestamptz not null default now(),
  encerrado_em          timestamptz,
  criado_por            text,
  unique (ano, numero)
);
create index protocolo_status_idx on atendimento.protocolo (status, aberto_em desc);

-- An inspection belongs to one reservation. `token_hash` is the SHA-256 (hex) of the
-- random public access token shown once to the citizen (the token itself is never
-- stored); the citizen may change only the contato_cidadao, disponibilidade,
-- observacoes_cidadao and fotos_cidadao columns. `fotos` are ids of midia.arquivo rows
-- (the staff's photos); `fotos_cidadao` are keys of files the citizen sent through the
-- credential-less POST /midia/storage (area _publico), since a citizen creates no records.
create table atendimento.vistoria (
  agendamento_id       bigint primary key references agendamento.reserva(id) on delete cascade,
  protocolo_id         bigint references atendimento.protocolo(id) on delete set null,
  checklist            jsonb not null default '[]' check (jsonb_typeof(checklist) = 'array'),
  constatacoes         text,
  fotos                bigint[] not null default '{}',
  status               text not null default 'pendente'
                       check (status in ('pendente', 'em_andamento', 'concluida', 'cancelada')),
  token_hash           text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  contato_cidadao      text,
  disponibilidade      text,
  observacoes_cidadao  text,
  fotos_cidadao        text[] not null default '{}',
  criado_em            timestamptz not null default now(),
  atualizado_em        timestamptz not null default now(),
  criado_por           text
);
create index vistoria_protocolo_idx on atendimento.vistoria (protocolo_id);

-- Approvals of changes (who approved which change, when, decision, comment).
create table atendimento.auditoria (
  id            bigserial primary key,
  tabela        text not null,
  registro_id   text not null,
  alteracao     jsonb not null default '{}' check (jsonb_typeof(alteracao) = 'object'),
  decisao       text not null check (decisao in ('aprovado', 'reprovado')),
  comentario    text,
  usuario_id    bigint,
  usuario_email text,
  em            timestamptz not null default now()
);
create index auditoria_registro_idx on atendimento.auditoria (tabela, registro_id, em desc);
