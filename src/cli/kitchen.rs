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

/// Opens `kitchen.db`, seeding the sample kitchen into an empty store when
/// the config allows it. Prints one line when it seeds.
pub fn open_kitchen(paths: &Paths, config: &Config) -> Result<Kitchen, KitchenError> {
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
    match cmd {
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
            let mut kitchen = Kitchen::open(&paths.kitchen_db)?;
            let question = format!(
                "Re-seed the kitchen at {}? Every recipe, item, plan and task in it is replaced by the sample kitchen.",
                paths.kitchen_db.display()
            );
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
