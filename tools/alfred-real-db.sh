#!/usr/bin/env bash
# Alfred's real database, locally: a throwaway Postgres cluster with the
# pieces of Supabase Alfred's migrations rely on (the `auth` schema with
# `auth.users` and `auth.uid()` read from `request.jwt.claims`, the `anon`,
# `authenticated` and `service_role` roles, an `extensions` schema), then
# Alfred's migrations 001-039 applied in order, as they are in its
# repository (github jv92admin/alfredagain, migrations/).
#
#   tools/alfred-real-db.sh MIGRATIONS_DIR [PORT]
#
# Prints the URL of the database (superuser `postgres`, no password, on
# 127.0.0.1) and the role `app_user` (in `authenticated`, no BYPASSRLS) that
# connects as the app does. Stop it with: pg_ctl -D /tmp/alfred-real-db stop
#
# Where the machine lacks pgvector, `vector(N)` columns become `real[]` and
# the vector indexes and similarity functions (001, 017, 033) are left out:
# nothing alfred reads or writes uses them. The script says when it does so.
set -eu
migrations=${1:?give the folder that holds Alfred migrations, 001_core_tables.sql and on}
port=${2:-55439}
dir=${ALFRED_REAL_DB:-/tmp/alfred-real-db}
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
pg_ctl=$(command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl | tail -1)
bin=$(dirname "$pg_ctl")
if [ -d "$dir" ]; then as_pg "$bin/pg_ctl -D $dir stop -m fast" >/dev/null 2>&1 || true; rm -rf "$dir"; fi
mkdir -p "$dir"; [ "$(id -u)" = 0 ] && chown postgres "$dir"
as_pg "$bin/initdb -D $dir -U postgres -A trust" >/dev/null
as_pg "$bin/pg_ctl -D $dir -o '-p $port -k /tmp -c listen_addresses=127.0.0.1' -l $dir/log -w start" >/dev/null
psql() { command psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres "$@"; }
psql -c "CREATE DATABASE alfred" >/dev/null
has_vector=$(psql -d alfred -tAc "SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'")
psql -d alfred <<'SQL'
CREATE SCHEMA extensions;
CREATE ROLE anon NOLOGIN;
CREATE ROLE authenticated NOLOGIN;
CREATE ROLE service_role NOLOGIN BYPASSRLS;
CREATE ROLE app_user LOGIN IN ROLE authenticated;
CREATE SCHEMA auth;
CREATE TABLE auth.users (
    id uuid PRIMARY KEY,
    email text,
    raw_user_meta_data jsonb DEFAULT '{}'::jsonb,
    created_at timestamptz DEFAULT now()
);
-- As Supabase defines it: the `sub` claim of the request's JWT.
CREATE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(coalesce(current_setting('request.jwt.claim.sub', true),
    (current_setting('request.jwt.claims', true)::jsonb ->> 'sub')), '')::uuid
$$;
CREATE FUNCTION auth.role() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT current_setting('request.jwt.claims', true)::jsonb ->> 'role'
$$;
GRANT USAGE ON SCHEMA auth, extensions TO anon, authenticated, service_role;
GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role;
-- Supabase grants the API roles every table and function in public.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON SEQUENCES TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO anon, authenticated, service_role;
SQL
if [ "$has_vector" = 1 ]; then
  psql -d alfred -c "CREATE EXTENSION vector WITH SCHEMA extensions" >/dev/null
  psql -d alfred -c "ALTER DATABASE alfred SET search_path = public, extensions" >/dev/null
else
  echo "no pgvector here: vector(N) columns become real[]; vector indexes and similarity functions left out" >&2
fi
for f in "$migrations"/0*.sql; do
  name=$(basename "$f")
  sql=$(cat "$f")
  if [ "$has_vector" != 1 ]; then
    case "$name" in
      017_*|033_*) echo "  $name: left out (vector similarity functions)" >&2; continue ;;
    esac
    sql=$(printf '%s\n' "$sql" | sed -E 's/VECTOR\(1536\)/real[]/Ig; /USING (ivfflat|hnsw)/I{s/.*/;/}; /^CREATE INDEX[^;]*embedding[^;]*$/I{N;s/.*/;/}')
  fi
  printf '%s\n' "$sql" | psql -d alfred >/dev/null 2>"$dir/$name.err" || {
    echo "migration $name failed:" >&2; cat "$dir/$name.err" >&2; exit 1; }
done
echo "postgres://postgres@127.0.0.1:$port/alfred"
