-- The live socket's audience (src/platform/layers/store_events.cpp, open_sessions): every
-- geometry, value and layer write reads the tenant's valid sessions once, to publish its
-- event only to the sessions whose user may see the layer. Without this index that read
-- scans every session of every tenant (revoked ones included, which accumulate); with it,
-- it reads the tenant's open sessions only. The user's own sessions (import job events)
-- use sessoes_usuario_idx of 0003.
create index sessoes_tenant_idx on plataforma.sessoes (tenant_id) where revogada_em is null;
