//! The throwaway Postgres cluster the Postgres store tests run against
//! (`tests/support/pg_cluster.rs`): a fresh database takes a table, rows
//! and text; fresh databases are separate; tests running at once share the
//! one cluster. Each test returns early (the harness says so on stderr)
//! when this machine has no Postgres server binaries.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;

use tokio_postgres::{Client, NoTls};

/// A client on `url`, its connection driven on the current runtime.
async fn connect(url: &str) -> Client {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("connection to the test cluster ended: {e}");
        }
    });
    client
}

/// The names of the tables in `client`'s database's public schema.
async fn tables(client: &Client) -> Vec<String> {
    client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = 'public' ORDER BY 1",
            &[],
        )
        .await
        .expect("list tables")
        .iter()
        .map(|row| row.get(0))
        .collect()
}

#[tokio::test]
async fn a_fresh_database_takes_a_table_and_gives_back_the_rows_written() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let client = connect(&url).await;
    assert!(
        tables(&client).await.is_empty(),
        "a fresh database is empty"
    );

    client
        .batch_execute("CREATE TABLE pantry (name text PRIMARY KEY, grams integer NOT NULL)")
        .await
        .expect("create table");
    for (name, grams) in [("flour", 1000), ("crème fraîche", 200), ("鸡蛋", 360)] {
        client
            .execute(
                "INSERT INTO pantry (name, grams) VALUES ($1, $2)",
                &[&name, &grams],
            )
            .await
            .expect("insert");
    }
    let rows: Vec<(String, i32)> = client
        .query("SELECT name, grams FROM pantry ORDER BY name", &[])
        .await
        .expect("select")
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    // C collation: byte order, so the ASCII name first.
    assert_eq!(
        rows,
        [
            ("crème fraîche".to_string(), 200),
            ("flour".to_string(), 1000),
            ("鸡蛋".to_string(), 360),
        ]
    );
}

#[tokio::test]
async fn a_fresh_database_is_utf8_with_c_collation() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let client = connect(&cluster.fresh_database()).await;
    let row = client
        .query_one(
            "SELECT pg_encoding_to_char(encoding)::text, datcollate::text \
             FROM pg_database WHERE datname = current_database()",
            &[],
        )
        .await
        .expect("the database's own row");
    let (encoding, collate): (String, String) = (row.get(0), row.get(1));
    assert_eq!((encoding.as_str(), collate.as_str()), ("UTF8", "C"));
}

#[tokio::test]
async fn two_fresh_databases_do_not_see_each_others_tables() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let (first_url, second_url) = (cluster.fresh_database(), cluster.fresh_database());
    assert_ne!(first_url, second_url);
    let first = connect(&first_url).await;
    let second = connect(&second_url).await;

    first
        .batch_execute("CREATE TABLE recipes (title text); INSERT INTO recipes VALUES ('soup')")
        .await
        .expect("create in the first");
    second
        .batch_execute("CREATE TABLE recipes (title text)")
        .await
        .expect("the same table name in the second");

    assert_eq!(tables(&first).await, ["recipes"]);
    assert_eq!(tables(&second).await, ["recipes"]);
    let count = |client: Client| async move {
        let row = client
            .query_one("SELECT count(*) FROM recipes", &[])
            .await
            .expect("count");
        row.get::<_, i64>(0)
    };
    assert_eq!(count(first).await, 1);
    assert_eq!(
        count(second).await,
        0,
        "the second sees none of the first's rows"
    );
}

#[test]
fn tests_running_at_once_share_one_cluster_each_in_its_own_database() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    // Threads stand for tests running at once: each asks for the cluster,
    // makes its database and works in it while the others do.
    let workers: Vec<_> = (0..4)
        .map(|n| {
            std::thread::spawn(move || {
                let mine = pg_cluster::cluster().expect("the cluster is up");
                let url = mine.fresh_database();
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                let port = runtime.block_on(async {
                    let client = connect(&url).await;
                    client
                        .batch_execute("CREATE TABLE marks (n integer)")
                        .await
                        .expect("create");
                    client
                        .execute("INSERT INTO marks VALUES ($1)", &[&n])
                        .await
                        .expect("insert");
                    let row = client
                        .query_one("SELECT array_agg(n), inet_server_port() FROM marks", &[])
                        .await
                        .expect("select");
                    assert_eq!(row.get::<_, Vec<i32>>(0), [n], "only its own row");
                    row.get::<_, i32>(1)
                });
                (url, port)
            })
        })
        .collect();
    let results: Vec<_> = workers
        .into_iter()
        .map(|w| w.join().expect("a worker"))
        .collect();

    assert!(
        results
            .iter()
            .all(|(_, port)| *port == i32::from(cluster.port())),
        "every database is on the one server"
    );
    let mut urls: Vec<_> = results.iter().map(|(url, _)| url.as_str()).collect();
    urls.sort_unstable();
    urls.dedup();
    assert_eq!(urls.len(), 4, "four different databases");
}

#[tokio::test]
async fn a_deadpool_pool_serves_a_fresh_database_url() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let config = deadpool_postgres::Config {
        url: Some(cluster.fresh_database()),
        ..Default::default()
    };
    let pool = config
        .create_pool(Some(deadpool_postgres::Runtime::Tokio1), NoTls)
        .expect("a pool");
    let client = pool.get().await.expect("a pooled connection");
    let row = client.query_one("SELECT 1 + 1", &[]).await.expect("select");
    assert_eq!(row.get::<_, i32>(0), 2);
}
