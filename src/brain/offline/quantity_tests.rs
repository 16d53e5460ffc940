//! Amounts used and bought, through the real pipeline: each amount bound
//! to its item, a share taken of what the row holds in the row's unit,
//! "the last of" taking the row out, deltas sent as `{"add": -N}`, and a
//! short question (nothing written) when the amount or the item is
//! unclear.

use serde_json::Value;

use crate::fixtures::Conversation;

/// The writes of the last turn: (tool, the quantity delta when one).
fn writes(sim: &Conversation) -> Vec<(String, Option<f64>)> {
    sim.calls()
        .into_iter()
        .filter(|(t, _)| t != "db_read")
        .map(|(t, p)| {
            let delta = p["data"]["quantity"]["add"].as_f64();
            (t, delta)
        })
        .collect()
}

/// Says `m`; a change asked about first is confirmed with a "yes" (the
/// older rules' changes are), and the writes that made it are returned.
fn said(sim: &mut Conversation, m: &str) -> Vec<(String, Option<f64>)> {
    sim.say_confirming(m);
    writes(sim)
}

#[test]
fn a_share_is_of_what_the_row_holds() {
    for m in [
        "i used half the paneer",
        "used half of the paneer",
        "ate like half the paneer lol",
        "used half the paneer for the curry",
    ] {
        let mut sim = Conversation::new();
        assert_eq!(
            said(&mut sim, m),
            [("db_update".to_string(), Some(-125.0))],
            "{m}"
        );
        assert!(
            sim.reply().contains("paneer (125 g)"),
            "{m}: {}",
            sim.reply()
        );
    }
    let mut sim = Conversation::new();
    assert_eq!(
        said(&mut sim, "used a quarter of the jasmine rice"),
        [("db_update".to_string(), Some(-0.5))],
        "in the row's unit: 2 kg less a quarter"
    );
    let mut sim = Conversation::new();
    sim.say("how much paneer have i got");
    assert_eq!(
        said(&mut sim, "used half of it"),
        [("db_update".to_string(), Some(-125.0))]
    );
}

#[test]
fn each_amount_binds_to_its_item() {
    let mut sim = Conversation::new();
    let w = said(&mut sim, "used the last of the milk and 2 bananas");
    assert_eq!(
        w,
        [
            ("db_delete".to_string(), None),
            ("db_update".to_string(), Some(-2.0))
        ]
    );
    assert!(sim.reply().contains("milk is off"), "{}", sim.reply());
    assert!(sim.reply().contains("banana (1 pcs)"), "{}", sim.reply());
    let mut sim = Conversation::new();
    let w = said(
        &mut sim,
        "used two limes n half the coriander and a can of chickpeas",
    );
    assert_eq!(
        w,
        [
            ("db_update".to_string(), Some(-2.0)),
            ("db_update".to_string(), Some(-0.5)),
            ("db_update".to_string(), Some(-1.0))
        ]
    );
    // Four items: two write steps, every one written.
    let mut sim = Conversation::new();
    let w = said(
        &mut sim,
        "used 2 limes, 1 lemon, half the ginger and a can of chickpeas",
    );
    assert_eq!(w.len(), 4, "{w:?}");
    assert!(sim.reply().contains("chickpeas (1 can)"), "{}", sim.reply());
}

#[test]
fn all_of_it_takes_the_row_out() {
    for m in [
        "used the last of the milk",
        "finished the milk",
        "drank the last of the milk",
        "used up all the milk",
        "used the rest of the milk",
    ] {
        let mut sim = Conversation::new();
        assert_eq!(said(&mut sim, m), [("db_delete".to_string(), None)], "{m}");
    }
    let mut sim = Conversation::new();
    assert_eq!(
        said(&mut sim, "ate a couple of bananas"),
        [("db_update".to_string(), Some(-2.0))]
    );
}

#[test]
fn unclear_amounts_ask_and_write_nothing() {
    for (m, asked) in [
        ("used most of the paneer", "250 g of paneer"),
        ("used a few onions", "how many"),
        ("used some of the greek yogurt", "500 g of greek yogurt"),
        (
            "used like half a bag of the frozen peas",
            "500 g of frozen peas",
        ),
        ("used 200g", "200 g of what"),
        ("used half", "of what"),
        ("used the milk and 200g", "200 g of what"),
        ("used half the rice", "jasmine rice"),
    ] {
        let mut sim = Conversation::new();
        let w = said(&mut sim, m);
        assert!(w.is_empty(), "{m}: {w:?}");
        assert!(
            sim.reply().to_lowercase().contains(asked),
            "{m}: {}",
            sim.reply()
        );
        assert!(
            sim.reply().trim_end().ends_with('?'),
            "{m}: {}",
            sim.reply()
        );
    }
}

#[test]
fn amounts_bought_are_read_whole() {
    let mut sim = Conversation::new();
    sim.say("picked up half a dozen eggs");
    let created: Vec<Value> = sim
        .calls()
        .into_iter()
        .filter(|(t, _)| t == "db_create")
        .map(|(_, p)| p["data"][0].clone())
        .collect();
    assert_eq!(created[0]["name"], "egg");
    assert_eq!(created[0]["quantity"], 6.0);
    let mut sim = Conversation::new();
    assert_eq!(
        said(&mut sim, "grabbed like 2 cans of coconut milk"),
        [("db_update".to_string(), Some(2.0))]
    );
}

#[test]
fn an_answer_completes_the_use_asked_about() {
    for (first, answer, delta) in [
        ("used some of the jasmine rice", "about 500g", -0.5),
        ("used most of the paneer", "like 200 grams", -200.0),
        ("used 200g", "of the paneer", -200.0),
        ("used 200g", "paneer", -200.0),
        ("used half the rice", "the jasmine", -1.0),
        ("used half the rice", "basmati", -0.5),
    ] {
        let mut sim = Conversation::new();
        assert!(
            {
                sim.say(first);
                writes(&sim)
            }
            .is_empty(),
            "{first}"
        );
        assert_eq!(
            {
                sim.say(answer);
                writes(&sim)
            },
            [("db_update".to_string(), Some(delta))],
            "{first} / {answer}: {}",
            sim.reply()
        );
    }
    // A question of the user's own is not an answer.
    let mut sim = Conversation::new();
    sim.say("used some of the jasmine rice");
    assert!(said(&mut sim, "how much is left?").is_empty());
}

#[test]
fn typos_and_loose_amounts() {
    for (m, delta) in [
        ("used up half the spagetti", -250.0),
        ("used a whole can of coconut milk", -1.0),
        ("used the last 2 limes", -2.0),
        ("ate half of the naan", -2.0),
    ] {
        let mut sim = Conversation::new();
        assert_eq!(
            said(&mut sim, m),
            [("db_update".to_string(), Some(delta))],
            "{m}: {}",
            sim.reply()
        );
    }
    let mut sim = Conversation::new();
    let w = said(
        &mut sim,
        "just got back, picked up 500g of paneer and a dozen eggs",
    );
    assert_eq!(
        w,
        [
            ("db_create".to_string(), None),
            ("db_update".to_string(), Some(500.0))
        ],
        "{}",
        sim.reply()
    );
    assert!(!sim.reply().contains("back"), "{}", sim.reply());
}

#[test]
fn a_share_is_no_amount_to_add() {
    let mut sim = Conversation::new();
    let w = said(&mut sim, "put half the paneer in the freezer");
    assert!(w.is_empty(), "{w:?}");
    assert!(
        sim.reply().to_lowercase().contains("how much paneer"),
        "{}",
        sim.reply()
    );
}

#[test]
fn an_amount_said_afresh_sets_the_row_in_its_own_unit() {
    let set = |sim: &Conversation| -> Vec<(String, Value)> {
        sim.calls()
            .into_iter()
            .filter(|(t, _)| t != "db_read")
            .map(|(t, p)| (t, p["data"].clone()))
            .collect()
    };
    let mut sim = Conversation::new();
    sim.say("set the yogurt to 240 g, I just weighed it");
    assert_eq!(
        set(&sim),
        [(
            "db_update".to_string(),
            serde_json::json!({"quantity": 240.0})
        )],
        "{}",
        sim.reply()
    );
    assert!(
        sim.reply().contains("greek yogurt: 240 g"),
        "{}",
        sim.reply()
    );
    // 1500 g of a row kept in kilos is 1.5 kg.
    let mut sim = Conversation::new();
    sim.say("change the jasmine rice to 1500g");
    assert_eq!(
        set(&sim),
        [(
            "db_update".to_string(),
            serde_json::json!({"quantity": 1.5})
        )]
    );
    // "its like 400" is of the row just shown.
    let mut sim = Conversation::new();
    sim.say("how many peas have we got");
    sim.say("its like 400. fix");
    assert_eq!(
        set(&sim),
        [(
            "db_update".to_string(),
            serde_json::json!({"quantity": 400.0})
        )],
        "{}",
        sim.reply()
    );
    // Two rows the word names: asked, nothing written.
    let mut sim = Conversation::new();
    sim.say("the chicken is more like 1kg");
    assert!(set(&sim).is_empty(), "{}", sim.reply());
    assert!(
        sim.reply().contains("Chicken thigh or Chicken wing"),
        "{}",
        sim.reply()
    );
}

/// Where each row of `name` is kept and how much: (location, quantity).
fn kept(sim: &Conversation, name: &str) -> Vec<(String, f64)> {
    use crate::context::SessionIdRegistry;
    use crate::kitchen::ToolCall;
    let Ok(mut k) = sim.kitchen().lock() else {
        panic!("the kitchen lock is poisoned")
    };
    let call = ToolCall::new(
        "db_read",
        serde_json::json!({"table": "inventory", "limit": 1000}),
    );
    let rows = k
        .execute(&call, &mut SessionIdRegistry::new(), 0)
        .expect("read")
        .rows;
    let mut out: Vec<(String, f64)> = rows
        .iter()
        .filter(|r| r["name"] == name)
        .map(|r| {
            (
                r["location"].as_str().unwrap_or_default().to_string(),
                r["quantity"].as_f64().unwrap_or(f64::NAN),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn part_of_a_row_moved_leaves_the_rest_where_it_was() {
    // Counted, shared and measured: the row keeps what stays, and the
    // part goes to a new row in the place said.
    for (m, name, moved) in [
        (
            "moved 2 cod fillets to the fridge",
            "cod fillet",
            [("freezer", 2.0), ("fridge", 2.0)],
        ),
        (
            "took two of the cod fillets out of the freezer into the fridge",
            "cod fillet",
            [("freezer", 2.0), ("fridge", 2.0)],
        ),
        (
            "moved half the paneer to the freezer",
            "paneer",
            [("freezer", 125.0), ("fridge", 125.0)],
        ),
        (
            "put 200g of the frozen peas in the fridge",
            "frozen peas",
            [("freezer", 300.0), ("fridge", 200.0)],
        ),
        (
            "move 500g of the chicken thighs to the fridge",
            "chicken thigh",
            [("freezer", 1.0), ("fridge", 0.5)],
        ),
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        let want: Vec<(String, f64)> = moved.iter().map(|(l, q)| (l.to_string(), *q)).collect();
        assert_eq!(kept(&sim, name), want, "{m:?}: {}", sim.reply());
    }
    // All of it moves the row itself.
    let mut sim = Conversation::new();
    sim.say("moved 4 cod fillets to the fridge");
    assert_eq!(kept(&sim, "cod fillet"), [("fridge".to_string(), 4.0)]);
}

#[test]
fn a_count_of_a_row_kept_by_weight_is_asked_about_and_nothing_moves() {
    let mut sim = Conversation::new();
    sim.say("i moved 2 chicken thighs from the freezer to the fridge");
    assert_eq!(kept(&sim, "chicken thigh"), [("freezer".to_string(), 1.5)]);
    let reply = sim.reply().to_lowercase();
    assert!(
        reply.contains("how much of the chicken thigh") && reply.contains("1.5 kg"),
        "{reply}"
    );
}

#[test]
fn what_is_missing_for_a_meal_planned_in_the_same_breath_is_bought_for_its_servings() {
    use crate::context::SessionIdRegistry;
    use crate::kitchen::ToolCall;
    let listed = |sim: &Conversation, name: &str| -> Vec<f64> {
        let Ok(mut k) = sim.kitchen().lock() else {
            panic!("the kitchen lock is poisoned")
        };
        let call = ToolCall::new(
            "db_read",
            serde_json::json!({"table": "shopping_list", "limit": 1000}),
        );
        k.execute(&call, &mut SessionIdRegistry::new(), 0)
            .expect("read")
            .rows
            .iter()
            .filter(|r| r["name"] == name)
            .filter_map(|r| r["quantity"].as_f64())
            .collect()
    };
    // Chai French Toast serves 2 with 2 eggs; the kitchen has none.
    let mut sim = Conversation::new();
    sim.say("put the chai french toast on sunday breakfast for 4 and add what i need to the list");
    assert_eq!(listed(&sim, "egg"), [4.0], "{}", sim.reply());
    // Asked about on its own, the recipe's own amounts.
    let mut sim = Conversation::new();
    sim.say("add whats missing for the chai french toast");
    assert_eq!(listed(&sim, "egg"), [2.0], "{}", sim.reply());
}
