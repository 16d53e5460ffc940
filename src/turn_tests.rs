//! A failed turn's words: each `TurnError` reads as the string the turn
//! used to build by hand (the format strings are copied from the code the
//! variants replaced), since the record's `error` is part of its contract.

use std::error::Error;

use super::*;

/// A date the turn cannot read, and jiff's reason.
fn bad_date() -> (String, jiff::Error) {
    let date = "2024-13-45".to_string();
    let e = date.parse::<jiff::civil::Date>().expect_err("not a date");
    (date, e)
}

#[test]
fn a_brain_failing_at_a_node_names_the_node_then_the_brain() {
    for node in Node::ALL {
        let e = BrainError::Timeout("no answer after 60 s".into());
        let old = format!("{} failed: {e}", node.as_str());
        let new = TurnError::Brain {
            node,
            source: e.clone(),
        };
        assert_eq!(new.to_string(), old);
    }
    let think = TurnError::Brain {
        node: Node::Think,
        source: BrainError::Server("502 Bad Gateway".into()),
    };
    assert_eq!(
        think.to_string(),
        "think failed: the model server failed: 502 Bad Gateway"
    );
    let source = think.source().expect("the brain's error");
    assert_eq!(
        source.to_string(),
        "the model server failed: 502 Bad Gateway"
    );
}

#[test]
fn a_pending_fold_failing_is_the_brain_error_alone() {
    let e = BrainError::RateLimited("retry in 20 s".into());
    let old = e.to_string();
    assert_eq!(TurnError::PendingFold(e).to_string(), old);
    assert_eq!(
        old,
        "the model server is rate limiting requests: retry in 20 s"
    );
}

#[test]
fn the_kitchen_store_failing_says_what_the_turn_was_doing() {
    let read = format!(
        "the kitchen store could not be read: {}",
        KitchenError::NoTurnOpen
    );
    let start = format!(
        "the kitchen store could not start the turn: {}",
        KitchenError::TurnAlreadyOpen
    );
    let save = format!(
        "the kitchen store could not save the turn's changes: {}",
        KitchenError::NoTurnOpen
    );
    let error = |doing, source| TurnError::Kitchen { doing, source };
    assert_eq!(
        error(KitchenAction::Read, KitchenError::NoTurnOpen).to_string(),
        read
    );
    assert_eq!(
        error(KitchenAction::Start, KitchenError::TurnAlreadyOpen).to_string(),
        start
    );
    assert_eq!(
        error(KitchenAction::Save, KitchenError::NoTurnOpen).to_string(),
        save
    );
    assert_eq!(
        save,
        "the kitchen store could not save the turn's changes: no turn transaction is open"
    );
    let via = TurnError::kitchen(KitchenAction::Read)(KitchenError::NoTurnOpen);
    assert!(matches!(
        via,
        TurnError::Kitchen {
            doing: KitchenAction::Read,
            source: KitchenError::NoTurnOpen
        }
    ));
    assert_eq!(
        via.source().map(ToString::to_string).as_deref(),
        Some("no turn transaction is open")
    );
}

#[test]
fn a_bad_date_quotes_the_date_and_the_reason() {
    let (date, e) = bad_date();
    let old = format!("bad date {}: {e}", date);
    let new = TurnError::BadDate { date, source: e };
    assert_eq!(new.to_string(), old);
    assert!(old.starts_with("bad date 2024-13-45: "), "{old}");
}

#[test]
fn a_session_that_could_not_save_the_turn_quotes_the_ledger() {
    let e = LedgerError::new("disk full");
    assert_eq!(e.to_string(), "disk full", "the ledger's words, unchanged");
    let old = format!("the session could not be saved: {e}");
    assert_eq!(TurnError::NotSaved(e).to_string(), old);
    assert_eq!(old, "the session could not be saved: disk full");
}

#[test]
fn a_ledger_error_keeps_the_session_errors_own_source() {
    let io = std::io::Error::other("no space left on device");
    let inner: Box<dyn Error + Send + Sync> = Box::new(Wrapped(io));
    let e = LedgerError::new(inner);
    assert_eq!(e.to_string(), "writing the session");
    assert_eq!(
        e.source().map(ToString::to_string).as_deref(),
        Some("no space left on device")
    );
}

#[test]
fn a_cancelled_turn_reads_as_before() {
    assert_eq!(TurnError::Cancelled.to_string(), "cancelled by the user");
    assert!(TurnError::Cancelled.source().is_none());
}

/// An error with a source, as the session's are.
#[derive(Debug)]
struct Wrapped(std::io::Error);

impl fmt::Display for Wrapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("writing the session")
    }
}

impl Error for Wrapped {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}
