//! `alfred kitchen stats | reset`, and opening (and first-run seeding) of the
//! kitchen store that every interactive command needs.
//!
//! Owns the user-facing words around the store; the store itself lives in
//! [`crate::kitchen`]. Must not hold SQL.

use crate::config::Config;
use crate::kitchen::{Kitchen, KitchenError};
use crate::paths::Paths;

use super::{CliError, KitchenCommand, Outcome, confirm};

/// Today's date in the local time zone (the seed's relative dates use it).
pub fn today() -> jiff::civil::Date {
    jiff::Zoned::now().date()
}

/// Opens the kitchen: the Postgres one `[store]` names, or `kitchen.db`,
/// seeding the sample kitchen into an empty `kitchen.db` when the config
/// allows it (prints one line when it seeds). A Postgres kitchen is never
/// seeded unasked: `alfred kitchen init` does that.
pub fn open_kitchen(paths: &Paths, config: &Config) -> Result<Kitchen, KitchenError> {
    if let Some((url, user)) = config.store.postgres() {
        let kitchen = Kitchen::open_postgres_with(url, user, config.store.role_claims())?;
        if kitchen.has_no_rows()? {
            eprintln!(
                "The user {user} has no rows in {}: Alfred will find an empty kitchen. \
                 `alfred kitchen init --store … --user {user}` fills it with the sample kitchen.",
                crate::kitchen::postgres::shown_url(url)
            );
        }
        return Ok(kitchen);
    }
    let mut kitchen = Kitchen::open(&paths.kitchen_db)?;
    if config.kitchen.seed_on_first_run
        && let Some(report) = kitchen.seed_if_empty(today())?
    {
        tracing::info!(%report, path = %paths.kitchen_db.display(), "seeded the sample kitchen");
        eprintln!(
            "Seeded the sample kitchen into {} ({report}).",
            paths.kitchen_db.display()
        );
    }
    Ok(kitchen)
}

/// Runs `alfred kitchen …`.
pub fn run(cmd: &KitchenCommand, paths: &Paths, config: &Config) -> Result<Outcome, CliError> {
    let postgres = config.store.postgres();
    match cmd {
        KitchenCommand::Init => init(paths, config),
        KitchenCommand::Stats if postgres.is_some() => {
            println!("{}", open_kitchen(paths, config)?.stats()?);
            Ok(Outcome::Done)
        }
        KitchenCommand::Stats => {
            // Looking must not create or seed anything.
            if !paths.kitchen_db.exists() {
                println!(
                    "No kitchen yet at {}: it is created{} the first time alfred opens.",
                    paths.kitchen_db.display(),
                    if config.kitchen.seed_on_first_run {
                        " and seeded with the sample kitchen"
                    } else {
                        ""
                    }
                );
                return Ok(Outcome::Done);
            }
            let kitchen = Kitchen::open(&paths.kitchen_db)?;
            println!("{}", kitchen.stats()?);
            Ok(Outcome::Done)
        }
        KitchenCommand::Reset { yes } => {
            let (mut kitchen, question) = match postgres {
                Some(_) => {
                    let kitchen = open_kitchen(paths, config)?;
                    let question = format!(
                        "Re-seed the kitchen of {}? Every recipe, item, plan and task of this \
                         user is replaced by the sample kitchen (other users' rows and the \
                         shared ingredient catalog are kept).",
                        kitchen.location()
                    );
                    (kitchen, question)
                }
                None => (
                    Kitchen::open(&paths.kitchen_db)?,
                    format!(
                        "Re-seed the kitchen at {}? Every recipe, item, plan and task in it is \
                         replaced by the sample kitchen.",
                        paths.kitchen_db.display()
                    ),
                ),
            };
            if !*yes && !confirm(&question)? {
                eprintln!("Left the kitchen as it was.");
                return Ok(Outcome::Done);
            }
            let report = kitchen.reset(today())?;
            println!("Re-seeded the sample kitchen ({report}).");
            Ok(Outcome::Done)
        }
    }
}

/// `alfred kitchen init`: creates the kitchen and seeds the sample kitchen
/// into it when it is empty. With a Postgres store, Alfred's schema is
/// created only in a database that has none of its tables; an existing
/// schema is read, never changed, and a user who has rows keeps them.
fn init(paths: &Paths, config: &Config) -> Result<Outcome, CliError> {
    let mut kitchen = match config.store.postgres() {
        Some((url, user)) => Kitchen::init_postgres_with(url, user, config.store.role_claims())?,
        None => Kitchen::open(&paths.kitchen_db)?,
    };
    match kitchen.seed_if_empty(today())? {
        Some(report) => println!(
            "Seeded the sample kitchen into {} ({report}).",
            kitchen.location()
        ),
        None => println!(
            "The kitchen at {} already has rows; left them as they are.",
            kitchen.location()
        ),
    }
    Ok(Outcome::Done)
}
