-- Contracting (issue #18, docs/platform-contracting.md): the plans and prices the platform
-- sells, the taxes it adds, the quotes (orçamentos) prepared for a tenant and the contracts
-- they turn into. Money is always an integer number of centavos. The catalog (planos,
-- precos, adicionais, impostos) is edited by SQL or the admin tool only.

-- Plans: a price per period (mensal: 1 month, anual: 12 months) and the license's quotas.
create table plataforma.planos (
  id                    bigserial primary key,
  codigo                text not null unique check (codigo ~ '^[a-z][a-z0-9_]{1,40}$'),
  nome                  text not null check (btrim(nome) <> ''),
  descricao             text,
  periodo               text not null check (periodo in ('mensal', 'anual')),
  preco_centavos        bigint not null check (preco_centavos between 0 and 10000000000),
  max_usuarios          integer not null check (max_usuarios > 0),
  max_armazenamento_mb  integer not null check (max_armazenamento_mb > 0),
  ativo                 boolean not null default true,
  ordem                 integer not null default 0
);

-- Unit prices of what is sold on top of a plan, per unit and per calendar month.
create table plataforma.precos (
  item                  text primary key check (item in ('armazenamento_gb_mes', 'usuario_mes')),
  preco_centavos        bigint not null check (preco_centavos between 0 and 1000000000)
);

-- Add-ons (modules, support levels), per unit and per calendar month.
create table plataforma.adicionais (
  codigo                text primary key check (codigo ~ '^[a-z][a-z0-9_]{1,40}$'),
  nome                  text not null check (btrim(nome) <> ''),
  preco_mes_centavos    bigint not null check (preco_mes_centavos between 0 and 1000000000),
  ativo                 boolean not null default true
);

-- Taxes added to every quote: `aliquota_bp` in basis points (500 = 5%), applied to the
-- quote's subtotal and rounded half up to the centavo, one line per tax. None by default.
create table plataforma.impostos (
  codigo                text primary key check (codigo ~ '^[a-z][a-z0-9_]{1,40}$'),
  nome                  text not null check (btrim(nome) <> ''),
  aliquota_bp           integer not null check (aliquota_bp between 0 and 10000),
  ativo                 boolean not null default true
);

-- The add-ons a license holds (codigo → quantity), bought through /contratar/adicionais.
alter table plataforma.licencas
  add column adicionais jsonb not null default '{}'::jsonb check (jsonb_typeof(adicionais) = 'object');

-- A quote: `conteudo` is everything priced (lines, taxes, totals, the license change and
-- the license it was priced against); `hash` is the SHA-256 (hex) of conteudo's text, sent
-- back by the client to contract it. A quote gives at most one contract (`contrato_id`).
create table plataforma.orcamentos (
  id           bigserial primary key,
  tenant_id    bigint not null references plataforma.tenants(id) on delete cascade,
  usuario_id   bigint not null references plataforma.usuarios(id) on delete cascade,
  tipo         text not null check (tipo in ('plano', 'armazenamento', 'usuario', 'adicionais')),
  conteudo     jsonb not null,
  hash         text not null check (hash ~ '^[0-9a-f]{64}$'),
  criado_em    timestamptz not null default now(),
  expira_em    timestamptz not null,
  contrato_id  bigint
);
create index orcamentos_tenant_idx on plataforma.orcamentos(tenant_id, id desc);

-- A contract: the quote it came from (unique: the same quote twice is one contract), the
-- license it created or changed, and its payment, confirmed later by a platform
-- administrator (PUT /adm/licencas/:id {"pagamentoConfirmado": idContrato}).
create table plataforma.contratos (
  id               bigserial primary key,
  tenant_id        bigint not null references plataforma.tenants(id) on delete cascade,
  orcamento_id     bigint not null unique references plataforma.orcamentos(id) on delete cascade,
  usuario_id       bigint not null references plataforma.usuarios(id) on delete cascade,
  tipo             text not null,
  total_centavos   bigint not null check (total_centavos >= 0),
  licenca_id       bigint not null references plataforma.licencas(id) on delete cascade,
  pagamento        text not null default 'pendente' check (pagamento in ('pendente', 'confirmado')),
  confirmado_em    timestamptz,
  confirmado_por   bigint references plataforma.usuarios(id) on delete set null,
  criado_em        timestamptz not null default now()
);
create index contratos_tenant_idx on plataforma.contratos(tenant_id, id desc);
create index contratos_licenca_idx on plataforma.contratos(licenca_id);
alter table plataforma.orcamentos
  add constraint orcamentos_contrato_fk foreign key (contrato_id) references plataforma.contratos(id);

-- The catalog a new installation starts with (prices in centavos).
insert into plataforma.planos (codigo, nome, descricao, periodo, preco_centavos, max_usuarios, max_armazenamento_mb, ordem)
values ('basico_mensal', 'Básico', 'Para municípios pequenos: 5 usuários, 10 GB', 'mensal', 29900, 5, 10240, 1),
       ('profissional_mensal', 'Profissional', '20 usuários, 50 GB', 'mensal', 89900, 20, 51200, 2),
       ('profissional_anual', 'Profissional anual', '20 usuários, 50 GB, doze meses pelo preço de dez', 'anual',
        899000, 20, 51200, 3);
insert into plataforma.precos (item, preco_centavos)
values ('armazenamento_gb_mes', 1500), ('usuario_mes', 4900);
insert into plataforma.adicionais (codigo, nome, preco_mes_centavos)
values ('suporte_prioritario', 'Suporte prioritário', 19900),
       ('avaliacao_em_massa', 'Avaliação em massa (PVG)', 49900);
