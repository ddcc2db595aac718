-- A job's place in its tenant's line (decision 0025's follower, src/platform/jobs/jobs.cpp).
-- Jobs of a tenant are claimed oldest first, by id; a job that follows another (the column
-- indexes after an import) is queued when its predecessor ends, so by id it would wait
-- behind every job the tenant queued meanwhile. It takes its predecessor's place instead:
-- `posicao` is the predecessor's place, and the claim orders a tenant's jobs by
-- coalesce(posicao, id), then id.
alter table plataforma.tarefas add column posicao bigint;
