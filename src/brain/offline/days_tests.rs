//! Planning several days at once, through the real pipeline: one row per
//! day and meal, the reply listing each; days already planned replaced,
//! however many; two days trading their meals; a planned meal moved.

use crate::fixtures::Conversation;

/// The tools the last turn called, in order.
fn tools(sim: &Conversation) -> Vec<String> {
    sim.calls().into_iter().map(|(t, _)| t).collect()
}

#[track_caller]
fn lists(sim: &Conversation, lines: &[&str]) {
    for l in lines {
        assert!(
            sim.reply().contains(l),
            "missing {l:?} in:\n{}",
            sim.reply()
        );
    }
}

#[test]
fn one_recipe_goes_on_every_day_named() {
    for m in [
        "plan the wings for tuesday and wednesday dinner",
        "put the wings on tue and wed",
        "stick the dry rub wings on tuesday, wednesday",
        "plan the wings tues n weds for dinner",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        sim.expect("understood");
        lists(
            &sim,
            &[
                "Tue Jan 13 (dinner): Dry Rub Wings",
                "Wed Jan 14 (dinner): Dry Rub Wings",
            ],
        );
        assert_eq!(
            tools(&sim).last().map(String::as_str),
            Some("db_create"),
            "{m}"
        );
    }
    let mut sim = Conversation::new();
    sim.run(&["show me the wings", "plan it mon tue wed"]);
    lists(
        &sim,
        &[
            "Mon Jan 19 (dinner): Dry Rub Wings",
            "Tue Jan 13 (dinner): Dry Rub Wings",
            "Wed Jan 14 (dinner): Dry Rub Wings",
        ],
    );
}

#[test]
fn each_day_keeps_its_own_meal() {
    let mut sim = Conversation::new();
    sim.say_confirming("put the chicken tikka bites on tue lunch and wed dinner");
    lists(
        &sim,
        &[
            "Tue Jan 13 (lunch): Chicken Tikka Bites",
            "Wed Jan 14 (dinner): Chicken Tikka Bites",
        ],
    );
    let mut sim = Conversation::new();
    sim.say_confirming("french toast for breakfast on the weekend pls");
    lists(
        &sim,
        &[
            "Sat Jan 17 (breakfast): Chai French Toast",
            "Sun Jan 18 (breakfast): Chai French Toast",
        ],
    );
}

#[test]
fn relative_days_are_dated_from_today() {
    for (m, line) in [
        ("put the wings on tmr", "Wed Jan 14 (dinner)"),
        (
            "put the french toast on next tue for breakfast",
            "Tue Jan 20 (breakfast)",
        ),
        ("put the paneer on the 15th", "Thu Jan 15 (dinner)"),
        ("plan the cod curry in 2 days", "Thu Jan 15 (dinner)"),
        (
            "put the pad see ew on this friday night",
            "Fri Jan 16 (dinner)",
        ),
        ("put the paneer on tuesday", "Tue Jan 13 (dinner)"),
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming(m);
        lists(&sim, &[line]);
    }
}

#[test]
fn days_already_planned_are_replaced_however_many() {
    let mut sim = Conversation::new();
    sim.say_confirming("put the wings on mon tue wed and thu");
    assert_eq!(tools(&sim), ["db_read", "db_read", "db_create"]);
    // Four days taken: more than a step's three calls as updates, so one
    // delete and one create.
    sim.say_confirming("actually put the paneer on mon, tue, wed and thu instead");
    let t = tools(&sim);
    assert_eq!(&t[t.len() - 2..], ["db_delete", "db_create"], "{t:?}");
    lists(
        &sim,
        &[
            "Mon Jan 19 (dinner): Air Fryer Paneer Tikka",
            "Tue Jan 13 (dinner): Air Fryer Paneer Tikka",
            "Wed Jan 14 (dinner): Air Fryer Paneer Tikka",
            "Thu Jan 15 (dinner): Air Fryer Paneer Tikka",
        ],
    );
    sim.say_confirming("whats on the plan");
    assert!(!sim.reply().contains("Wings"), "{}", sim.reply());
    // Two replaced and one new: every call made, none dropped.
    sim.say_confirming("put the yellow curry on tue wed and fri");
    let t = tools(&sim);
    assert_eq!(
        t.iter()
            .filter(|x| x.as_str() != "db_read")
            .collect::<Vec<_>>(),
        ["db_create", "db_update", "db_update"]
    );
    lists(
        &sim,
        &[
            "Tue Jan 13 (dinner): Thai Yellow Curry",
            "Wed Jan 14 (dinner): Thai Yellow Curry",
            "Fri Jan 16 (dinner): Thai Yellow Curry",
        ],
    );
}

#[test]
fn two_days_trade_their_meals() {
    let mut sim = Conversation::new();
    sim.say_confirming("put the wings on monday and the paneer on tuesday");
    sim.say_confirming("swap monday and tuesday");
    sim.expect("understood");
    lists(
        &sim,
        &[
            "Mon Jan 19 (dinner): Air Fryer Paneer Tikka",
            "Tue Jan 13 (dinner): Dry Rub Wings",
        ],
    );
    let t = tools(&sim);
    assert_eq!(&t[t.len() - 2..], ["db_update", "db_update"]);
    // Only one of the two planned: it moves.
    sim.say_confirming("switch tue with sat");
    lists(&sim, &["Sat Jan 17 (dinner): Dry Rub Wings"]);
    sim.say_confirming("move the wings from saturday to friday");
    lists(&sim, &["Fri Jan 16 (dinner): Dry Rub Wings"]);
}

#[test]
fn a_drafted_recipe_goes_on_every_day_named() {
    for m in [
        "maybe paneer tikka sun and wed",
        "how about the paneer tikka on wednesday and sunday",
        "lets do the paneer tikka on wednesday and sunday",
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming(m);
        assert!(
            !tools(&sim).iter().any(|t| t == "db_create"),
            "{m}: a draft to look over"
        );
        lists(
            &sim,
            &[
                "Wed Jan 14 (dinner): Air Fryer Paneer Tikka",
                "Sun Jan 18 (dinner): Air Fryer Paneer Tikka",
            ],
        );
        sim.say_confirming("save it");
        lists(
            &sim,
            &[
                "Wed Jan 14 (dinner): Air Fryer Paneer Tikka",
                "Sun Jan 18 (dinner): Air Fryer Paneer Tikka",
            ],
        );
    }
    // Said plainly, it goes on every day named at once.
    for m in [
        "paneer tikka sun and wed",
        "put the paneer tikka on wednesday and sunday",
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming(m);
        assert!(
            tools(&sim).iter().any(|t| t == "db_create"),
            "{m}: planned as said: {}",
            sim.reply()
        );
        lists(
            &sim,
            &[
                "Wed Jan 14 (dinner): Air Fryer Paneer Tikka",
                "Sun Jan 18 (dinner): Air Fryer Paneer Tikka",
            ],
        );
    }
    let mut sim = Conversation::new();
    sim.say_confirming("lets do the paneer on sunday instead of wednesday");
    assert!(!sim.reply().contains("Wed Jan 14"), "{}", sim.reply());
}

#[test]
fn several_days_come_off_at_once() {
    let mut sim = Conversation::new();
    sim.say("put the wings on tue wed and thu");
    sim.say("clear tue and wed");
    sim.expect("understood");
    lists(
        &sim,
        &[
            "Tue Jan 13 (dinner): Dry Rub Wings",
            "Wed Jan 14 (dinner): Dry Rub Wings",
        ],
    );
    let t = tools(&sim);
    assert_eq!(t.last().map(String::as_str), Some("db_delete"));
    sim.say("whats the plan now");
    assert!(sim.reply().contains("Thu Jan 15"), "{}", sim.reply());
    assert!(!sim.reply().contains("Wed Jan 14"), "{}", sim.reply());
}

#[test]
fn days_after_a_refusal_plan_nothing() {
    let mut sim = Conversation::new();
    sim.say("no wings on friday or saturday");
    assert!(
        !sim.reply().contains("Fri Jan 16 (dinner)"),
        "{}",
        sim.reply()
    );
    assert!(!tools(&sim).iter().any(|t| t == "db_create"));
}

#[test]
fn a_planned_meal_named_without_its_day_comes_off_or_its_days_are_asked() {
    let mut sim = Conversation::new();
    sim.say_confirming("put the thai yellow curry on friday");
    sim.say_confirming("hmm take the curry off");
    lists(&sim, &["Fri Jan 16 (dinner): Thai Yellow Curry"]);
    assert!(sim.reply().contains("taken off"), "{}", sim.reply());
    assert_eq!(tools(&sim).last().map(String::as_str), Some("db_delete"));
    // Planned twice: which day is asked, nothing deleted.
    let mut sim = Conversation::new();
    sim.say_confirming("put the thai yellow curry on friday and saturday");
    sim.say_confirming("take the curry off");
    assert!(sim.reply().contains("say which day"), "{}", sim.reply());
    assert!(!tools(&sim).iter().any(|t| t == "db_delete"));
}
