//! Kitchen store benchmarks: first-run seeding into a fresh file database,
//! and a 1,000-row read with ref registration into a fresh registry — on
//! `kitchen.db` and on a Postgres database with Alfred's schema (a
//! throwaway server on loopback, started by the test harness from Debian's
//! `postgresql` package).
//!
//! Run with `cargo bench --bench kitchen`.

#[path = "../tests/support/pg_cluster.rs"]
mod pg_cluster;

use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::{Kitchen, ToolCall};
use divan::Bencher;
use jiff::civil::date;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// Opening (create + migrate) and seeding a new `kitchen.db` in a fresh
/// temp dir; the dir's creation and removal are outside the timing.
#[divan::bench(sample_count = 20)]
fn first_run_seed(bencher: Bencher) {
    bencher
        .with_inputs(|| tempfile::tempdir().expect("tempdir"))
        .bench_local_values(|dir| {
            let mut k = Kitchen::open(dir.path().join("kitchen.db")).expect("open");
            let report = k.seed_if_empty(date(2026, 1, 14)).expect("seed");
            divan::black_box(report);
            drop(k);
            dir
        });
}

/// `db_read` of 1,000 inventory rows (limit 1000), each registered as
/// `[read]` in a fresh registry, with their catalog links: `kitchen.db`.
#[divan::bench(sample_count = 50)]
fn read_1000_rows_with_refs(bencher: Bencher) {
    let dir = tempfile::tempdir().expect("tempdir");
    let k = Kitchen::open(dir.path().join("kitchen.db")).expect("open");
    read_1000(bencher, k);
}

/// The same read on Postgres: one user's rows in a database with Alfred's
/// schema, over loopback.
#[divan::bench(sample_count = 50)]
fn read_1000_rows_with_refs_postgres(bencher: Bencher) {
    let cluster = pg_cluster::cluster()
        .expect("this bench needs Postgres's binaries (Debian's postgresql package)");
    let url = cluster.fresh_database();
    let k = Kitchen::init_postgres(&url, "0b7e4c52-93a1-4f6d-8c2e-5a1b9d3f7e60").expect("init");
    read_1000(bencher, k);
}

/// Seeds `k`, adds 1,000 inventory rows, and times reading them back.
fn read_1000(bencher: Bencher, mut k: Kitchen) {
    k.seed_if_empty(date(2026, 1, 14)).expect("seed");
    let names = ["rice", "onion", "garlic", "milk", "eggs"];
    let rows: Vec<Value> = (0..1000)
        .map(|i| json!({"name": names[i % names.len()], "quantity": i, "unit": "g", "location": "pantry"}))
        .collect();
    let mut setup = SessionIdRegistry::new();
    k.execute(
        &ToolCall::new("db_create", json!({"table": "inventory", "data": rows})),
        &mut setup,
        1,
    )
    .expect("insert 1,000 rows");
    let read = ToolCall::new(
        "db_read",
        json!({"table": "inventory", "filters": [{"field": "unit", "op": "=", "value": "g"},
               {"field": "location", "op": "=", "value": "pantry"},
               {"field": "quantity", "op": ">=", "value": 0}], "limit": 1000}),
    );
    bencher
        .with_inputs(SessionIdRegistry::new)
        .bench_local_refs(|registry| {
            let r = k.execute(&read, registry, 2).expect("read");
            assert_eq!(r.count, 1000);
            divan::black_box(r);
        });
}
