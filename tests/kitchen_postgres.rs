//! What only the Postgres kitchen does: one database, several users' rows
//! kept apart; Alfred's schema created only where there is none; a database
//! that is not a kitchen, a partial schema, TLS asked of a server without
//! it — each a clear error that never shows the password.

#[path = "support/kitchen_calls.rs"]
mod kitchen_calls;

use alfred::context::Table;
use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::Kitchen;
use kitchen_calls::{USER, pg_cluster, refuse, run, seeded_postgres, today};
use serde_json::json;

const OTHER: &str = "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a";

/// The URL with a password, as a user would write it.
fn with_password(url: &str) -> String {
    url.replacen("postgres://postgres@", "postgres://postgres:hunter2@", 1)
}

#[test]
fn two_users_in_one_database_see_only_their_own_rows() {
    let Some((url, mut mine)) = seeded_postgres() else {
        return;
    };
    let mut theirs = Kitchen::open_postgres(&url, OTHER).expect("open");
    let name = theirs.postgres().expect("postgres").short_name();
    let db = url.rsplit('/').next().expect("a database name");
    assert_eq!(name, format!("pg {db} · user 9e8d7c6b"));
    assert_eq!(theirs.stats().unwrap().rows(Table::Recipes), 0);
    let catalog = theirs.stats().unwrap().rows(Table::Ingredients);
    assert!(
        catalog > 0,
        "the catalog the first user's seed made is shared"
    );
    let report = theirs
        .seed_if_empty(today())
        .expect("seed")
        .expect("seeded");
    assert_eq!(
        report.recipes, 9,
        "a second user gets the sample kitchen too"
    );
    assert_eq!(
        theirs.stats().unwrap().rows(Table::Ingredients),
        catalog,
        "the catalog was reused, not copied"
    );
    // A write of one user's is invisible to the other.
    let mut reg = SessionIdRegistry::new();
    run(
        &mut theirs,
        &mut reg,
        1,
        "db_create",
        json!({"table": "recipes", "data": {"name": "Their Dal"}}),
    );
    let mut reg = SessionIdRegistry::new();
    let found = run(
        &mut mine,
        &mut reg,
        1,
        "db_read",
        json!({"table": "recipes", "filters": [{"field": "name", "op": "ilike", "value": "%dal%"}]}),
    );
    assert_eq!(found.count, 0, "{:?}", found.rows);
    assert_eq!(mine.stats().unwrap().rows(Table::Recipes), 9);
    assert_eq!(theirs.stats().unwrap().rows(Table::Recipes), 10);
    // Resetting one user's kitchen leaves the other's alone.
    theirs.reset(today()).expect("reset");
    assert_eq!(theirs.stats().unwrap().rows(Table::Recipes), 9);
    assert_eq!(mine.stats().unwrap().rows(Table::Recipes), 9);
}

#[test]
fn a_database_without_the_kitchen_is_refused_by_name_and_never_changed() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = with_password(&cluster.fresh_database());
    let e = Kitchen::open_postgres(&url, USER).unwrap_err().to_string();
    assert!(e.contains("no kitchen tables recipes"), "{e}");
    assert!(e.contains("alfred kitchen init --store"), "{e}");
    assert!(!e.contains("hunter2"), "the password is not shown: {e}");
    // Opening created nothing: it still is not a kitchen.
    assert!(Kitchen::open_postgres(&url, USER).is_err());
}

#[test]
fn init_leaves_an_existing_schema_alone_and_refuses_a_partial_one() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    Kitchen::init_postgres(&url, USER).expect("init");
    Kitchen::init_postgres(&url, USER).expect("a second init finds the schema and keeps it");

    let partial = cluster.fresh_database();
    pg_cluster::sql(
        &partial,
        "CREATE TABLE recipes (id uuid PRIMARY KEY, name text)",
    );
    let e = Kitchen::init_postgres(&partial, USER)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("already has some kitchen tables (recipes)"),
        "{e}"
    );
    assert!(e.contains("does not change an existing schema"), "{e}");
}

#[test]
fn tls_asked_of_a_server_without_it_is_a_clear_error() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = format!("{}?sslmode=require", cluster.fresh_database());
    let e = Kitchen::open_postgres(&url, USER).unwrap_err().to_string();
    assert!(e.contains("TLS"), "{e}");
}

#[test]
fn a_user_that_is_not_a_uuid_is_refused_before_connecting() {
    let e = Kitchen::open_postgres("postgres://nobody@127.0.0.1:1/none", "alice")
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"alice\" is not a uuid"), "{e}");
}

/// Alfred's tables as its own migrations may have left them: lists as
/// `jsonb` in places, columns alfred does not know (embeddings, tags,
/// `updated_at`), one it knows missing (`inventory.notes`, which Alfred's
/// migration 037 added), a table
/// without `created_at`, no `alfred_turn_commits`.
const ALFRED_AS_FOUND: &str = r#"
CREATE TABLE ingredients (id uuid PRIMARY KEY, name text NOT NULL UNIQUE,
    aliases jsonb NOT NULL DEFAULT '[]', category text, default_unit text,
    parent_category text, family text, cuisines text[] DEFAULT '{}', tier integer,
    embedding text, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE recipes (id uuid PRIMARY KEY, user_id uuid NOT NULL, name text NOT NULL,
    description text, cuisine text, difficulty text, prep_time_minutes integer,
    cook_time_minutes integer, servings integer, instructions text[] NOT NULL,
    tags text[] DEFAULT '{}', source_url text, embedding text, is_system boolean DEFAULT false,
    parent_recipe_id uuid REFERENCES recipes(id), occasions text[], health_tags text[],
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz);
CREATE TABLE recipe_ingredients (id uuid PRIMARY KEY, recipe_id uuid NOT NULL
    REFERENCES recipes(id) ON DELETE CASCADE, ingredient_id uuid, name text NOT NULL,
    quantity numeric, unit text, notes text, is_optional boolean DEFAULT false,
    user_id uuid, category text);
CREATE TABLE inventory (id uuid PRIMARY KEY, user_id uuid NOT NULL, ingredient_id uuid,
    name text NOT NULL, quantity numeric NOT NULL, unit text NOT NULL, location text,
    expiry_date date, purchase_date date, category text,
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz);
CREATE TABLE meal_plans (id uuid PRIMARY KEY, user_id uuid NOT NULL, date date NOT NULL,
    meal_type text NOT NULL, recipe_id uuid REFERENCES recipes(id) ON DELETE SET NULL,
    notes text, servings integer, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE shopping_list (id uuid PRIMARY KEY, user_id uuid NOT NULL, ingredient_id uuid,
    name text NOT NULL, quantity numeric, unit text, category text,
    is_purchased boolean DEFAULT false, source text, notes text,
    created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE tasks (id uuid PRIMARY KEY, user_id uuid NOT NULL, title text NOT NULL,
    due_date date, category text, completed boolean DEFAULT false, recipe_id uuid,
    meal_plan_id uuid, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE preferences (id uuid PRIMARY KEY, user_id uuid NOT NULL UNIQUE,
    dietary_restrictions text[], allergies text[], favorite_cuisines text[],
    disliked_ingredients text[], cooking_skill_level text, household_adults integer,
    household_kids integer, household_babies integer, nutrition_goals text[],
    cooking_frequency text, available_equipment text[], time_budget_minutes integer,
    preferred_complexity text, planning_rhythm text, current_vibes text[],
    subdomain_guidance jsonb, assumed_staples uuid[], created_at timestamptz DEFAULT now());
"#;

#[test]
fn an_alfred_schema_with_other_types_and_columns_is_read_and_written_as_found() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    pg_cluster::sql(&url, ALFRED_AS_FOUND);
    // init finds the whole schema and leaves it; the seed fits it.
    let mut k = Kitchen::init_postgres(&url, USER).expect("init on an existing schema");
    assert!(
        !k.postgres().expect("postgres").stamps(),
        "no stamp table was added"
    );
    let report = k.seed_if_empty(today()).expect("seed").expect("seeded");
    assert_eq!(report.recipes, 9);
    let ctx = k.session_context(today()).expect("session context");
    assert_eq!(ctx.profile.allergies, vec!["shellfish"], "text[] read back");
    assert!(
        ctx.preferences["meal_plans"].starts_with("I cook"),
        "jsonb read back"
    );
    let mut reg = SessionIdRegistry::new();
    // A jsonb list (aliases) and a text[] list (tags) both filter as lists.
    let tagged = run(
        &mut k,
        &mut reg,
        1,
        "db_read",
        json!({"table": "recipes", "filters": [{"field": "tags", "op": "contains", "value": "curry"}]}),
    );
    assert!(tagged.count >= 2, "{:?}", tagged.rows);
    let first = &tagged.rows[0];
    assert!(
        first["tags"].as_array().is_some(),
        "a list comes back as a list"
    );
    assert!(
        first["instructions"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    // Writes land in the found types: a date, a numeric, a boolean.
    let planned = run(
        &mut k,
        &mut reg,
        2,
        "db_create",
        json!({"table": "meal_plans", "data": {"date": "2026-01-16", "meal_type": "dinner",
               "recipe_id": tagged.rows[0]["id"]}}),
    );
    assert_eq!(planned.count, 1);
    let bought = run(
        &mut k,
        &mut reg,
        2,
        "db_create",
        json!({"table": "shopping_list", "data": {"name": "limes", "quantity": 2.5, "is_purchased": true}}),
    );
    assert_eq!(bought.rows[0]["quantity"], json!(2.5));
    assert_eq!(bought.rows[0]["is_purchased"], json!(true));
    // A recipe written without instructions gets the empty list its NOT NULL
    // column needs.
    let made = run(
        &mut k,
        &mut reg,
        2,
        "db_create",
        json!({"table": "recipes", "data": {"name": "Plain Rice", "tags": ["side"]}}),
    );
    assert_eq!(made.rows[0]["instructions"], json!([]));
    // The column the table lacks reads as missing, and writing it says so.
    let stock = run(
        &mut k,
        &mut reg,
        3,
        "db_read",
        json!({"table": "inventory", "limit": 1}),
    );
    assert_eq!(
        stock.rows[0].get("notes"),
        Some(&json!(null)),
        "read as empty"
    );
    let e = refuse(
        &mut k,
        &mut reg,
        "db_update",
        json!({"table": "inventory", "filters": [{"field": "id", "op": "=", "value": stock.rows[0]["id"]}],
               "data": {"notes": "top shelf"}}),
    );
    assert!(
        e.to_string()
            .contains("inventory table has no column notes; leave it out"),
        "{e}"
    );
    // A turn commits without a stamp; asking for one says it cannot tell.
    k.begin_turn().expect("turn");
    run(
        &mut k,
        &mut reg,
        4,
        "db_update",
        json!({"table": "shopping_list", "filters": [{"field": "name", "op": "=", "value": "limes"}],
               "data": {"is_purchased": false}}),
    );
    k.commit_stamped(Some(&alfred::kitchen::CommitStamp {
        commit_id: "c-1".into(),
        session_id: "s".into(),
        turn: 4,
    }))
    .expect("commit");
    assert_eq!(k.has_commit("c-1").expect("ask"), None);
}

/// As Alfred's migrations have it and its sign-up leaves a user: the
/// catalog's `chk_parent_category` (028 era), `planning_rhythm` as `text[]`
/// (014), and one `preferences` row made at sign-up, nothing else.
#[test]
fn a_signed_up_user_is_seeded_under_alfreds_checks_and_keeps_the_profile() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let schema = ALFRED_AS_FOUND
        .replace(
            "planning_rhythm text,",
            "planning_rhythm text[] DEFAULT '{}',",
        )
        .replace(
            "parent_category text,",
            "parent_category text CHECK (parent_category IN ('produce', 'protein', 'dairy', \
             'grains', 'pantry', 'spices', 'baking', 'specialty')),",
        );
    assert_ne!(schema, ALFRED_AS_FOUND, "both columns were rewritten");
    pg_cluster::sql(&url, &schema);
    pg_cluster::sql(
        &url,
        &format!(
            "INSERT INTO preferences (id, user_id, cooking_skill_level, planning_rhythm) \
             VALUES (gen_random_uuid(), '{USER}', 'advanced', '{{}}')"
        ),
    );
    let mut k = Kitchen::init_postgres(&url, USER).expect("init");
    assert!(
        k.has_no_rows().expect("count"),
        "a profile row alone is an empty kitchen"
    );
    let report = k.seed_if_empty(today()).expect("seed").expect("seeded");
    assert_eq!((report.recipes, report.preferences), (9, 0));
    assert!(
        report
            .to_string()
            .ends_with("the preferences row already there kept"),
        "{report}"
    );
    let ctx = k.session_context(today()).expect("session context");
    assert_eq!(
        ctx.profile.cooking_skill_level, "advanced",
        "the user's own row is read"
    );
    // A text kept as a list is written as its parts and read joined.
    let mut reg = SessionIdRegistry::new();
    let prefs = run(
        &mut k,
        &mut reg,
        1,
        "db_read",
        json!({"table": "preferences"}),
    );
    assert_eq!(prefs.rows[0]["planning_rhythm"], json!(""));
    run(
        &mut k,
        &mut reg,
        2,
        "db_update",
        json!({"table": "preferences", "filters": [{"field": "id", "op": "=", "value": prefs.rows[0]["id"]}],
               "data": {"planning_rhythm": "weeknights 30 min; batch on Sunday"}}),
    );
    let stored = pg_cluster::sql(
        &url,
        "SELECT array_length(planning_rhythm, 1)::text, planning_rhythm[2] FROM preferences",
    );
    assert_eq!(
        stored,
        vec![vec![
            Some("2".to_string()),
            Some("batch on Sunday".to_string())
        ]]
    );
    let ctx = k.session_context(today()).expect("session context");
    assert_eq!(
        ctx.profile.planning_rhythm,
        "weeknights 30 min; batch on Sunday"
    );
}

/// The facts of Alfred's schema (`tests/fixtures/alfred_schema.txt`, read
/// from a database built from its migrations 001-039) in the form the
/// queries below give them.
const ALFRED_SCHEMA: &str = include_str!("fixtures/alfred_schema.txt");

/// Supabase's `auth.uid()`, enough for policies to be made and checked.
const SUPABASE_AUTH: &str = "CREATE SCHEMA auth;
CREATE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('request.jwt.claims', true)::jsonb ->> 'sub', '')::uuid $$;";

/// What a database says of its kitchen tables, one fact a line, as the
/// fixture has them.
fn schema_facts(url: &str) -> Vec<String> {
    let tables = "'users','ingredients','recipes','recipe_ingredients','inventory','meal_plans',\
                  'shopping_list','tasks','preferences','conversations'";
    let queries = [
        format!(
            "SELECT 'column', table_name, column_name, CASE WHEN data_type = 'ARRAY' THEN udt_name \
             ELSE data_type END, is_nullable, coalesce(column_default, '') \
             FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name IN ({tables}) AND column_name <> 'embedding' \
             ORDER BY table_name, ordinal_position"
        ),
        format!(
            "SELECT 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid) \
             FROM pg_constraint WHERE connamespace = 'public'::regnamespace \
             AND conrelid::regclass::text IN ({tables}) \
             AND pg_get_constraintdef(oid) NOT LIKE '%auth.users%' ORDER BY 2, 3"
        ),
        format!(
            "SELECT 'policy', tablename, policyname, cmd, coalesce(qual, ''), \
             coalesce(with_check, '') FROM pg_policies WHERE schemaname = 'public' \
             AND tablename IN ({tables}) ORDER BY 2, 3"
        ),
        format!(
            "SELECT 'rls', relname FROM pg_class WHERE relnamespace = 'public'::regnamespace \
             AND relname IN ({tables}) AND relrowsecurity ORDER BY 2"
        ),
    ];
    queries
        .iter()
        .flat_map(|q| pg_cluster::sql(url, q))
        .map(|row| {
            row.into_iter()
                .map(Option::unwrap_or_default)
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

/// `kitchen init` makes Alfred's schema as its migrations leave it: every
/// column, type, default, NOT NULL, CHECK, key, foreign key, and (where
/// Supabase's `auth.uid()` is) every row-level security policy.
#[test]
fn init_makes_alfreds_schema_exactly() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    pg_cluster::sql(&url, SUPABASE_AUTH);
    let mut k = Kitchen::init_postgres(&url, USER).expect("init");
    let want: Vec<&str> = ALFRED_SCHEMA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let got = schema_facts(&url);
    let missing: Vec<&&str> = want
        .iter()
        .filter(|w| !got.iter().any(|g| g == *w))
        .collect();
    let extra: Vec<&String> = got.iter().filter(|g| !want.contains(&g.as_str())).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "Alfred's schema has, ours lacks:\n{missing:#?}\nours has, Alfred's lacks:\n{extra:#?}"
    );
    assert_eq!(got.len(), want.len(), "each fact once");
    // The sample kitchen seeds into it (the user's `users` row first, as
    // Alfred's sign-up makes it), and a second init leaves it be.
    let report = k.seed_if_empty(today()).expect("seed").expect("seeded");
    assert_eq!((report.recipes, report.preferences), (9, 1));
    let users = pg_cluster::sql(&url, "SELECT id::text FROM users");
    assert_eq!(users, vec![vec![Some(USER.to_string())]]);
    assert!(
        Kitchen::init_postgres(&url, USER)
            .expect("again")
            .seed_if_empty(today())
            .expect("seed")
            .is_none()
    );
    // A recipe's tags of Alfred's four kinds land in its four tag columns
    // too (the rest only in `tags`), on a save and on a change.
    let tags_of = |name: &str| {
        pg_cluster::sql(
            &url,
            &format!(
                "SELECT array_to_string(occasions, ','), array_to_string(health_tags, ','), \
                 array_to_string(flavor_tags, ','), array_to_string(equipment_tags, ',') \
                 FROM recipes WHERE name = '{name}'"
            ),
        )
    };
    let some = |s: &str| Some(s.to_string());
    assert_eq!(
        tags_of("Kerala Cod Curry"),
        vec![vec![
            some("weeknight"),
            some("high-protein"),
            None,
            some("one-pan")
        ]],
        "curry, one-pan, weeknight, high-protein"
    );
    let mut reg = SessionIdRegistry::new();
    let made = run(
        &mut k,
        &mut reg,
        1,
        "db_create",
        json!({"table": "recipes", "data": {"name": "Chili Oil Noodles", "instructions": ["Toss."],
               "tags": ["Spicy", "quick", "vegan"]}}),
    );
    assert_eq!(
        tags_of("Chili Oil Noodles"),
        vec![vec![None, some("vegan"), some("spicy"), None]]
    );
    run(
        &mut k,
        &mut reg,
        2,
        "db_update",
        json!({"table": "recipes", "filters": [{"field": "id", "op": "=", "value": made.rows[0]["id"]}],
               "data": {"tags": ["mild", "weekend"]}}),
    );
    assert_eq!(
        tags_of("Chili Oil Noodles"),
        vec![vec![some("weekend"), None, some("mild"), None]]
    );
}

/// Row-level security as Alfred's migration 025 sets it: each kitchen table
/// shows a role only the rows whose `user_id` is `auth.uid()`, the `sub` of
/// the request's JWT claims (the catalog: any signed-in user).
fn with_row_security(url: &str, role: &str) {
    let mut sql = format!(
        "CREATE SCHEMA auth;
         CREATE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS $$
           SELECT nullif(current_setting('request.jwt.claims', true)::jsonb ->> 'sub', '')::uuid $$;
         CREATE ROLE {role} LOGIN;
         GRANT USAGE ON SCHEMA auth TO {role};
         GRANT ALL ON ALL TABLES IN SCHEMA public TO {role};
         ALTER TABLE ingredients ENABLE ROW LEVEL SECURITY;
         CREATE POLICY catalog ON ingredients USING ((SELECT auth.uid()) IS NOT NULL)
           WITH CHECK ((SELECT auth.uid()) IS NOT NULL);"
    );
    for t in [
        "recipes",
        "recipe_ingredients",
        "inventory",
        "meal_plans",
        "shopping_list",
        "tasks",
        "preferences",
    ] {
        sql.push_str(&format!(
            "ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;
             CREATE POLICY own ON {t} USING (user_id = (SELECT auth.uid()))
               WITH CHECK (user_id = (SELECT auth.uid()));"
        ));
    }
    pg_cluster::sql(url, &sql);
}

/// Connected as the app connects (a role that does not bypass RLS), alfred
/// sees and writes the user's rows when it sends their JWT claims, and with
/// `role_claims = false` sees nothing and can say why.
#[test]
fn under_row_level_security_the_users_claims_show_their_rows() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let db = url.rsplit('/').next().expect("a database name").to_string();
    let role = format!("app_{db}");
    pg_cluster::sql(&url, ALFRED_AS_FOUND);
    Kitchen::init_postgres(&url, USER)
        .expect("init")
        .seed_if_empty(today())
        .expect("seed")
        .expect("seeded");
    with_row_security(&url, &role);
    let as_app = url.replacen("postgres://postgres@", &format!("postgres://{role}@"), 1);

    let mut k = Kitchen::open_postgres(&as_app, USER).expect("open with claims");
    assert_eq!(k.stats().expect("stats").rows(Table::Recipes), 9);
    let rls = k.postgres().expect("pg").row_security().expect("read");
    assert_eq!(rls.map(|r| (r.role, r.tables)), Some((role.clone(), 8)));
    let mut reg = SessionIdRegistry::new();
    let added = run(
        &mut k,
        &mut reg,
        1,
        "db_create",
        json!({"table": "shopping_list", "data": {"name": "limes", "quantity": 2}}),
    );
    assert_eq!(added.count, 1, "a write passes the policy's check");
    let owner = pg_cluster::sql(
        &url,
        "SELECT user_id::text FROM shopping_list WHERE name = 'limes'",
    );
    assert_eq!(owner, vec![vec![Some(USER.to_string())]]);

    let other = Kitchen::open_postgres(&as_app, OTHER).expect("another user");
    assert_eq!(other.stats().expect("stats").rows(Table::Recipes), 0);

    let blind = Kitchen::open_postgres_with(&as_app, USER, false).expect("open without claims");
    let stats = blind.stats().expect("stats");
    assert_eq!(
        (stats.rows(Table::Recipes), stats.rows(Table::Ingredients)),
        (0, 0)
    );
    assert!(
        blind
            .postgres()
            .expect("pg")
            .row_security()
            .expect("read")
            .is_some()
    );

    // The superuser bypasses RLS: nothing to tell.
    let root = Kitchen::open_postgres_with(&url, USER, false).expect("superuser");
    assert_eq!(
        root.postgres().expect("pg").row_security().expect("read"),
        None
    );
}

/// Ends every connection alfred holds to the database at `url`, as a server
/// restart or an idle timeout would.
fn drop_connections(url: &str) {
    let ended = pg_cluster::sql(
        url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = 'alfred' AND datname = current_database()",
    );
    assert!(!ended.is_empty(), "alfred had a connection to end");
}

#[test]
fn a_connection_lost_between_calls_is_replaced_and_the_turn_loses_nothing() {
    let Some((url, mut k)) = seeded_postgres() else {
        return;
    };
    let mut reg = SessionIdRegistry::new();
    k.begin_turn().expect("turn");
    run(
        &mut k,
        &mut reg,
        1,
        "db_create",
        json!({"table": "shopping_list", "data": {"name": "limes"}}),
    );
    drop_connections(&url);
    // The next call reconnects and still sees the turn's first write.
    let seen = run(
        &mut k,
        &mut reg,
        1,
        "db_read",
        json!({"table": "shopping_list", "filters": [{"field": "name", "op": "=", "value": "limes"}]}),
    );
    assert_eq!(
        seen.count, 1,
        "the turn reads its own write after reconnecting"
    );
    run(
        &mut k,
        &mut reg,
        1,
        "db_create",
        json!({"table": "shopping_list", "data": {"name": "mint"}}),
    );
    drop_connections(&url);
    k.commit_turn()
        .expect("the commit reconnects and lands the turn");
    assert_eq!(
        k.stats().unwrap().rows(Table::ShoppingList),
        7,
        "5 seeded + 2"
    );
}

/// Alfred's `prompt_logs` (migration 019), rows as its `_log_to_db` inserts
/// them, read back by run and call order and grouped into turns; a
/// database without the table has none.
#[test]
fn alfreds_prompt_logs_read_back_by_run_and_turn() {
    let Some((url, _k)) = seeded_postgres() else {
        return;
    };
    assert!(
        alfred::kitchen::postgres::PgStore::prompt_logs(&url, USER)
            .expect("read")
            .is_empty()
    );
    pg_cluster::sql(
        &url,
        &format!(
            "CREATE TABLE prompt_logs (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
               session_id text NOT NULL, user_id uuid, call_number integer NOT NULL,
               node text NOT NULL, model text NOT NULL, response_model text, config jsonb,
               system_prompt text, user_prompt text, response jsonb, error text,
               created_at timestamptz DEFAULT now());
             INSERT INTO prompt_logs (session_id, user_id, call_number, node, model, system_prompt,
               user_prompt, response, error) VALUES
               ('20260104_160725', '{USER}', 2, 'think', 'gpt-4.1', 'You are Alfred.',
                E'<current_task>\\nplan my week\\n</current_task>', '{{\"decision\": \"plan_direct\"}}', NULL),
               ('20260104_160725', '{USER}', 1, 'understand', 'gpt-4.1-mini', 's', 'u', NULL, 'timed out'),
               ('20260104_160725', '{USER}', 3, 'understand', 'gpt-4.1-mini', 's', 'u', NULL, NULL),
               ('20260104_160725', '{OTHER}', 1, 'understand', 'x', 's', 'u', NULL, NULL);"
        ),
    );
    let logs = alfred::kitchen::postgres::PgStore::prompt_logs(&url, USER).expect("read");
    let order: Vec<(u32, &str)> = logs
        .iter()
        .map(|(_, c)| (c.call_number, c.node.as_str()))
        .collect();
    assert_eq!(
        order,
        [(1, "understand"), (2, "think"), (3, "understand")],
        "only the user's, in order"
    );
    let think = &logs[1].1;
    assert_eq!(logs[1].0, "20260104_160725");
    assert_eq!(
        think.response.as_deref(),
        Some(r#"{"decision": "plan_direct"}"#)
    );
    assert_eq!(logs[0].1.error.as_deref(), Some("timed out"));
    assert_eq!(think.sections()[1].name, "current_task");
    assert!(think.at.as_deref().is_some_and(|t| t.ends_with('Z')));
    let calls: Vec<_> = logs.into_iter().map(|(_, c)| c).collect();
    let turns = alfred::session::alfred_state::prompt_logs::turns(&calls);
    assert_eq!(turns.len(), 2);
}
