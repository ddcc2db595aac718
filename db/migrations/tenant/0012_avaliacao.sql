-- Valuation profiles of the municipality: the numbers of its valuation law (unit values,
-- factor tables, CUB, depreciation, IPTU rates) in the JSON form of
-- cadastre/valuation_profile.hpp, applied on top of the library's default profile.
-- At most one profile is active; with none, the default profile of
-- shared/design/valuation.md applies. The server caches the parsed active profile until
-- GET /portal/cache-reloader.
create table avaliacao.perfil (
  id             serial primary key,
  nome           text not null unique check (nome <> ''),
  ativo          boolean not null default false,
  configuracao   jsonb not null default '{}'::jsonb check (jsonb_typeof(configuracao) = 'object'),
  atualizado_em  timestamptz not null default now()
);
create unique index perfil_um_ativo_idx on avaliacao.perfil ((true)) where ativo;
