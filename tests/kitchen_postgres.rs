//! What only the Postgres kitchen does: one database, several users' rows
//! kept apart; Alfred's schema created only where there is none; a database
//! that is not a kitchen, a partial schema, TLS asked of a server without
//! it — each a clear error that never shows the password.

#[path = "support/kitchen_calls.rs"]
mod kitchen_calls;

use alfred::context::Table;
use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::Kitchen;
use kitchen_calls::{USER, pg_cluster, run, today};
use serde_json::json;

const OTHER: &str = "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a";

/// The URL with a password, as a user would write it.
fn with_password(url: &str) -> String {
    url.replacen("postgres://postgres@", "postgres://postgres:hunter2@", 1)
}

#[test]
fn two_users_in_one_database_see_only_their_own_rows() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let mut mine = Kitchen::init_postgres(&url, USER).expect("init");
    mine.seed_if_empty(today()).expect("seed").expect("seeded");
    let mut theirs = Kitchen::open_postgres(&url, OTHER).expect("open");
    assert_eq!(theirs.stats().unwrap().rows(Table::Recipes), 0);
    assert_eq!(
        theirs.stats().unwrap().rows(Table::Ingredients),
        mine.stats().unwrap().rows(Table::Ingredients),
        "the catalog is shared"
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
        mine.stats().unwrap().rows(Table::Ingredients),
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
    let client = |url: &str| {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let url = url.to_string();
        rt.block_on(async move {
            let (c, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .expect("connect");
            tokio::spawn(conn);
            c.batch_execute("CREATE TABLE recipes (id uuid PRIMARY KEY, name text)")
                .await
                .expect("create");
        });
    };
    client(&partial);
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
