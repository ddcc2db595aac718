-- Failed checks of secrets (passwords, directory binds, Basic credentials, reset tokens,
-- current passwords), counted in the platform database so that every instance of
-- cadastre-platform and cadastre-server counts the same (src/store/secret_checks.hpp).
-- One row per key: an (account, address) pair, an address, an account, or an address an
-- account succeeded from ('ok' rows, which lift the account's delay for its owner).
create table plataforma.tentativas (
  chave text primary key,
  falhas integer not null default 0,
  inicio timestamptz not null default now(),     -- start of the counting window
  bloqueado_ate timestamptz,                     -- refused until then
  expira timestamptz not null                    -- the row may be deleted after this
);
create index tentativas_expira_idx on plataforma.tentativas (expira);
