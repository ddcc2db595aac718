-- Forms per layer (/dbrest): form definitions with typed fields, and the values filled in
-- for the features of the form's layer.
--
-- Kept in their own schema `formulario`, so they never appear as layers of the cadastro
-- catalog. A form belongs to one cadastro layer (`camada`, a catalog layer name) and is
-- addressed by (camada, nome); `geometria_id` of a value is the id of a feature of that
-- layer. There is no foreign key to the feature (the layer is data, not schema): values of
-- a removed feature simply stop being reachable through the layer.
--
-- Types are enforced here, not only by the server: the trigger formulario.valida_valor
-- checks every stored value against its field's type (texto → JSON string, inteiro →
-- integral number, decimal → number, data → 'YYYY-MM-DD' string of a real date, booleano →
-- true/false, lista → one of valores_permitidos), so any writer keeps the data typed.

create schema if not exists formulario;

create table formulario.formulario (
  id         serial primary key,
  camada     text not null check (camada ~ '^[A-Za-z_][A-Za-z0-9_]{0,62}$'),
  nome       text not null check (nome ~ '^[A-Za-z_][A-Za-z0-9_]{0,62}$'),
  titulo     text not null check (btrim(titulo) <> ''),
  criado_em  timestamptz not null default now(),
  unique (camada, nome)
);

create table formulario.campo (
  id                  serial primary key,
  formulario_id       integer not null references formulario.formulario(id) on delete cascade,
  nome                text not null check (nome ~ '^[A-Za-z_][A-Za-z0-9_]{0,62}$'),
  rotulo              text not null check (btrim(rotulo) <> ''),
  tipo                text not null check (tipo in ('texto', 'inteiro', 'decimal', 'data', 'booleano', 'lista')),
  obrigatorio         boolean not null default false,
  ordem               smallint not null default 0,
  -- the allowed values of a 'lista' field (a non-empty JSON array), null for other types
  valores_permitidos  jsonb,
  check ((tipo = 'lista') = (valores_permitidos is not null)),
  check (valores_permitidos is null or
         (jsonb_typeof(valores_permitidos) = 'array' and jsonb_array_length(valores_permitidos) > 0)),
  unique (formulario_id, nome),
  unique (id, formulario_id)
);

create table formulario.valor (
  id              bigserial primary key,
  formulario_id   integer not null,
  campo_id        integer not null,
  geometria_id    bigint not null,
  valor           jsonb not null,
  atualizado_em   timestamptz not null default now(),
  atualizado_por  text,
  -- the field belongs to the value's form
  foreign key (campo_id, formulario_id) references formulario.campo(id, formulario_id) on delete cascade,
  unique (campo_id, geometria_id)
);
create index valor_formulario_geometria_idx on formulario.valor (formulario_id, geometria_id);
create index valor_geometria_idx on formulario.valor (geometria_id);

create function formulario.valida_valor() returns trigger language plpgsql as $$
declare
  c formulario.campo;
  ok boolean;
begin
  select * into c from formulario.campo where id = new.campo_id;
  ok := case c.tipo
    when 'texto' then jsonb_typeof(new.valor) = 'string'
    when 'inteiro' then jsonb_typeof(new.valor) = 'number' and new.valor::numeric = trunc(new.valor::numeric)
    when 'decimal' then jsonb_typeof(new.valor) = 'number'
    when 'booleano' then jsonb_typeof(new.valor) = 'boolean'
    -- the cast rejects impossible dates such as 2023-02-30 (22008)
    when 'data' then jsonb_typeof(new.valor) = 'string' and (new.valor #>> '{}') ~ '^\d{4}-\d{2}-\d{2}$'
                     and (new.valor #>> '{}')::date is not null
    when 'lista' then c.valores_permitidos @> jsonb_build_array(new.valor)
    else false
  end;
  if not coalesce(ok, false) then
    raise exception using errcode = '23514',
      message = format('valor %s inválido para o campo %s (%s)', new.valor::text, c.nome, c.tipo);
  end if;
  return new;
end $$;

create trigger valor_tipado before insert or update on formulario.valor
  for each row execute function formulario.valida_valor();
