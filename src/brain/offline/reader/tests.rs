//! The reader on the seeded kitchen's names: what it does, confirms,
//! offers as a choice, and passes.

use std::collections::HashMap;

use super::acts::{Act, ItemSaid};
use super::decide::Move;
use super::link::Names;
use super::{Scene, read};
use crate::brain::offline::dialogue::Before;

fn names() -> Names {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect();
    Names {
        recipes: s(&crate::prompt::fixtures::RECIPES),
        inventory: s(&[
            "paneer",
            "greek yogurt",
            "milk",
            "butter",
            "coriander",
            "lime",
            "lemon",
            "jasmine rice",
            "basmati rice",
            "chickpeas",
            "coconut milk",
            "onion",
            "garlic",
            "spring onion",
            "brioche",
            "ginger",
            "cod fillet",
            "naan",
        ]),
        shopping: s(&[
            "chinese broccoli",
            "thai basil",
            "tomato",
            "olive oil",
            "greek yogurt",
        ]),
        tasks: s(&[
            "Use up the paneer before it expires",
            "Deep-clean the air fryer basket",
            "Pick up Chinese broccoli and Thai basil",
            "Clear out old leftovers from the fridge",
        ]),
        drafts: Vec::new(),
    }
}

/// The last exchange after the reader asked "Just to be sure — QUESTION"
/// about the request `asked`.
fn confirm_asked(asked: &str, question: &str) -> Before {
    use crate::context::{Dialogue, Question, QuestionKind};
    Before {
        user: asked.into(),
        dialogue: Dialogue {
            question: Some(Question {
                kind: QuestionKind::Confirm,
                text: format!("Just to be sure — {question}"),
                request: asked.into(),
                candidates: Vec::new(),
            }),
            ..Dialogue::default()
        },
        ..Before::default()
    }
}

/// The reader's outcome for `m` after the exchange `before`.
fn read_after(m: &str, before: &Before) -> super::Outcome {
    let scene = Scene {
        names: names(),
        before,
        labels: HashMap::new(),
    };
    read(m, &scene)
}

/// The reader's outcome for `m` after `before`, whose refs are labelled
/// as `labels` says (ref, table, label).
fn read_with(
    m: &str,
    before: &Before,
    labels: &[(&str, crate::context::Table, &str)],
) -> super::Outcome {
    let scene = Scene {
        names: names(),
        before,
        labels: labels
            .iter()
            .map(|(r, t, l)| (r.to_string(), (*t, l.to_string())))
            .collect(),
    };
    read(m, &scene)
}

/// The first day of each plan put among `acts`, in order.
fn first_days(acts: &[Act]) -> Vec<&str> {
    acts.iter()
        .filter_map(|a| match a {
            Act::PlanPut { days, .. } => days.first().map(String::as_str),
            _ => None,
        })
        .collect()
}

fn decide(m: &str) -> Move {
    read_after(m, &Before::default()).decision
}

fn done(m: &str) -> Vec<Act> {
    match decide(m) {
        Move::Do(r) => r.acts,
        other => panic!("{m:?} was not done: {other:?}"),
    }
}

/// Asserts the reader does not carry `m` out as it stands.
fn not_done(m: &str) {
    let d = decide(m);
    assert!(!matches!(d, Move::Do(_)), "{m:?} was done: {d:?}");
}

/// Asserts the reader does not carry out a change for `m`.
fn writes_nothing(m: &str) {
    let d = decide(m);
    assert!(
        !matches!(&d, Move::Do(r) if r.writes()),
        "{m:?} wrote: {d:?}"
    );
}

#[test]
fn amounts_typed_as_words_are_read_as_amounts() {
    let acts = done("add for lemons and to tins of chickpeas to the list");
    let Act::ShoppingAdd { items } = &acts[0] else {
        panic!("{acts:?}");
    };
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(
        (items[0].quantity, items[0].name.as_str()),
        (Some(4.0), "lemon")
    );
    assert_eq!(items[1].quantity, Some(2.0));
    assert_eq!(items[1].unit.as_deref(), Some("can"));
}

#[test]
fn clearing_the_list_is_confirmed_with_its_count() {
    let Move::Confirm { question, .. } = decide("clear the list") else {
        panic!("clear must be confirmed");
    };
    assert!(question.starts_with("Clear all 5 items"), "{question}");
}

#[test]
fn keeping_one_and_deleting_the_rest_removes_the_others() {
    let m = decide("keep the thai basil. delete the rest");
    let (Move::Confirm { reading, .. } | Move::Do(reading)) = m else {
        panic!("{m:?}");
    };
    let rows: Vec<String> = reading
        .acts
        .iter()
        .flat_map(|a| match a {
            Act::ShoppingRemove { rows } => rows.clone(),
            _ => Vec::new(),
        })
        .collect();
    assert!(!rows.contains(&"thai basil".to_string()), "{rows:?}");
    assert_eq!(rows.len(), 4, "{rows:?}");
}

#[test]
fn an_aside_with_no_request_is_not_done() {
    for m in [
        "ive never used the air fryer",
        "ngl wings on the weekend tho sat",
        "she's allergic to peanuts, keep that in mind",
        "did i add eggs?",
    ] {
        let d = decide(m);
        assert!(
            !matches!(&d, Move::Do(r) if r.writes()),
            "{m:?} wrote: {d:?}"
        );
    }
}

#[test]
fn a_recipe_shared_by_a_word_is_a_choice_between_names() {
    let Move::Choose { question, .. } = decide("put the curry on friday") else {
        panic!("two curries must be a choice");
    };
    assert_eq!(
        question,
        "Which recipe do you mean: Kerala Cod Curry or Thai Yellow Curry?"
    );
}

#[test]
fn plain_requests_are_done() {
    assert!(matches!(
        done("put thai yellow curry on friday for dinner")[0],
        Act::PlanPut { .. }
    ));
    assert!(matches!(
        done("i used 200g of jasmine rice")[0],
        Act::StockUse { .. }
    ));
    assert!(matches!(
        done("whats on my shopping list")[0],
        Act::ShowShopping
    ));
    assert!(matches!(
        done("how much paneer do i have")[0],
        Act::HowMuch { .. }
    ));
    assert!(matches!(
        done("take the tomato off the list")[0],
        Act::ShoppingRemove { .. }
    ));
}

#[test]
fn recipes_and_days_pair_in_the_order_said() {
    let acts = done("plan the yellow curry wed dinner and the paneer thing thurs");
    let plan: Vec<(String, Vec<String>, Option<String>)> = acts
        .iter()
        .filter_map(|a| match a {
            Act::PlanPut {
                recipe, days, meal, ..
            } => Some((recipe.clone(), days.clone(), meal.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        plan,
        [
            (
                "Thai Yellow Curry".to_string(),
                vec!["wednesday".to_string()],
                Some("dinner".to_string())
            ),
            (
                "Air Fryer Paneer Tikka".to_string(),
                vec!["thursday".to_string()],
                None
            ),
        ]
    );
    // Three recipes for two days do not pair: not done.
    let d = decide("plan the wings, the paneer tikka and the pad see ew on friday and saturday");
    assert!(!matches!(d, Move::Do(_)), "{d:?}");
}

#[test]
fn a_use_without_an_amount_is_not_taken_as_all_of_it() {
    let d = decide("i used rice");
    assert!(!matches!(&d, Move::Do(r) if r.writes()), "{d:?}");
    assert!(matches!(done("finished the milk")[0], Act::StockUse { .. }));
}

#[test]
fn a_task_title_ends_where_the_next_request_starts() {
    let acts =
        done("remind me to take chicken out the freezer tonight and tick off the paneer one");
    assert!(
        matches!(&acts[..], [Act::TaskAdd { title, day }, Act::TaskDone { .. }]
            if title == "Take chicken out the freezer" && day.as_deref() == Some("today")),
        "{acts:?}"
    );
}

#[test]
fn everything_except_one_row_is_the_rest_and_confirmed() {
    let Move::Confirm { reading, question } =
        decide("delete everything on the shopping list except the tomatoes")
    else {
        panic!("a change to all but one row must be confirmed");
    };
    let Act::ShoppingRemove { rows } = &reading.acts[0] else {
        panic!("{reading:?}");
    };
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(!rows.contains(&"tomato".to_string()));
    assert!(question.contains("thai basil"), "{question}");
}

#[test]
fn a_bulk_change_read_from_part_of_the_message_is_not_asked_about() {
    // "the completed ones" are no rows of the list: asking to clear the
    // list would make a "yes" clear the wrong rows.
    assert_eq!(
        decide("delete all the completed ones, i like a clean list"),
        Move::Pass
    );
}

#[test]
fn an_amount_after_its_food_is_that_foods() {
    let acts = done("add chickpeas to the shopping list 2 cans and lemons");
    let Act::ShoppingAdd { items } = &acts[0] else {
        panic!("{acts:?}");
    };
    assert_eq!(items[0].quantity, Some(2.0), "{items:?}");
    assert_eq!(items[1].quantity, None, "{items:?}");
}

#[test]
fn taking_back_or_hedging_is_a_doubt() {
    let before = Before::default();
    for m in [
        "take everything off the list apart from the milk",
        "i cant decide between the paneer tikka and the kerala cod curry for tonight",
        "dont add the milk",
    ] {
        assert!(!read_after(m, &before).doubts.is_empty(), "{m:?}");
    }
    assert!(
        read_after("add milk to the list", &before)
            .doubts
            .is_empty()
    );
}

#[test]
fn a_bulk_change_is_asked_about_by_name_while_another_question_is_open() {
    let mut before = Before::default();
    before.dialogue.question = Some(crate::context::Question {
        kind: crate::context::QuestionKind::Open,
        text: "Should I add chickpeas to the shopping list?".into(),
        candidates: Vec::new(),
        request: "ad 2 tins of chikpeas to the list".into(),
    });
    let Move::Confirm { question, .. } = read_after("clear the list", &before).decision else {
        panic!("a bulk change must be asked about by the reader");
    };
    assert!(question.starts_with("Clear all 5 items"), "{question}");
}

#[test]
fn clearing_everything_without_naming_the_list_is_not_a_clear_of_the_list() {
    assert_eq!(decide("clear everything"), Move::Pass);
}

#[test]
fn a_two_word_verb_said_around_its_object_is_one_verb() {
    assert_eq!(
        done("take the olive oil off the list"),
        vec![Act::ShoppingRemove {
            rows: vec!["olive oil".into()]
        }]
    );
    // "take" says no place, but a row only the list holds does.
    assert_eq!(
        done("take the olive oil off"),
        vec![Act::ShoppingRemove {
            rows: vec!["olive oil".into()]
        }]
    );
    // A row the list and the stock both hold leaves it open.
    assert_eq!(decide("take the yogurt off"), Move::Pass);
}

#[test]
fn two_requests_read_as_one_lose_to_their_parts() {
    assert_eq!(
        done("take the olive oil off my shopping list and put soy sauce on"),
        vec![
            Act::ShoppingRemove {
                rows: vec!["olive oil".into()]
            },
            Act::ShoppingAdd {
                items: vec![ItemSaid {
                    name: "soy sauce".into(),
                    quantity: None,
                    unit: None
                }]
            }
        ]
    );
}

#[test]
fn a_yes_that_leaves_one_out_carries_out_the_rest() {
    let asked = "add milk, 6 eggs and rice to the list same as last time";
    let Move::Confirm { question, .. } = decide(asked) else {
        panic!("no place said: asked");
    };
    let before = confirm_asked(asked, &question);
    let Move::Do(r) = read_after("yeah leave the rice, we have loads", &before).decision else {
        panic!("the rest is carried out");
    };
    let [Act::ShoppingAdd { items }] = r.acts.as_slice() else {
        panic!("{:?}", r.acts);
    };
    let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["milk", "eggs"]);
}

#[test]
fn a_state_word_alone_names_no_row_and_a_question_writes_nothing() {
    let d = decide("the chicken is frozen right? how much do i need to get out");
    assert!(!matches!(&d, Move::Do(r) if r.writes()), "{d:?}");
    assert!(!matches!(&d, Move::Confirm { .. }), "{d:?}");
}

#[test]
fn a_count_after_its_food_and_a_name_said_in_two_words_are_read() {
    let acts = done("add chick peas x2 to the shopping list");
    let [Act::ShoppingAdd { items }] = acts.as_slice() else {
        panic!("{acts:?}");
    };
    assert_eq!(items[0].name, "chickpeas");
    assert_eq!(items[0].quantity, Some(2.0));
}

#[test]
fn a_write_whose_place_or_words_are_not_all_read_is_asked_naming_them() {
    // "add milk" with nothing on screen is milk to buy; with a recipe on
    // screen it may change the recipe: the older chain reads it with the
    // talk, and asks first. "found milk, add it" is the stock's.
    assert!(matches!(&done("add milk")[..], [Act::ShoppingAdd { .. }]));
    let card = Before {
        last_recipe: Some("recipe_1".into()),
        ..Before::default()
    };
    assert_eq!(read_after("add milk", &card).decision, Move::Pass);
    not_done("found milk at the back, add it");
    let Move::Confirm { question, .. } = decide("add 6 eggs to the list same as last time") else {
        panic!("a write read in part is asked about");
    };
    assert!(question.contains("6 eggs"), "{question}");
    assert!(question.contains("same time"), "{question}");
    // Words that only remark beside it do not make it a question.
    assert_eq!(
        done("add 6 eggs to the list for the wedding bake"),
        vec![Act::ShoppingAdd {
            items: vec![ItemSaid {
                name: "eggs".into(),
                quantity: Some(6.0),
                unit: None
            }]
        }]
    );
    // One that leaves another request's verb unread is asked about too.
    assert!(matches!(
        decide("i bought 6 eggs, put them in the fridge"),
        Move::Confirm { .. }
    ));
    // Said with a negation, a guess is not even put as a question.
    assert_eq!(decide("dont add milk"), Move::Pass);
}

#[test]
fn a_row_thrown_out_comes_off_the_stock() {
    assert_eq!(
        done("threw out the old chickpeas"),
        vec![Act::StockRemove {
            rows: vec!["chickpeas".into()]
        }]
    );
}

#[test]
fn only_a_draft_is_saved() {
    let before = Before::default();
    let mut names = names();
    names.recipes.push("Thai Basil Chicken".into());
    names.drafts.push("Thai Basil Chicken".into());
    let scene = Scene {
        names,
        before: &before,
        labels: HashMap::new(),
    };
    let Move::Do(r) = read("save the thai basil chicken", &scene).decision else {
        panic!("the draft is saved");
    };
    assert_eq!(
        r.acts,
        vec![Act::SaveRecipe {
            recipe: "Thai Basil Chicken".into()
        }]
    );
    // A recipe saved already is not saved again.
    assert!(!matches!(
        read("save the dry rub wings", &scene).decision,
        Move::Do(r) if r.writes()
    ));
}

#[test]
fn out_of_a_food_takes_its_row_off_the_stock_as_it_goes_on_the_list() {
    let acts = done("we're out of chickpeas, add them to the list");
    assert!(
        matches!(acts.as_slice(), [Act::StockRemove { rows }, Act::ShoppingAdd { .. }] if rows == &["chickpeas".to_string()]),
        "{acts:?}"
    );
}

/// The decline for `m` when the older rules answered it as `answered`.
fn declined(m: &str, answered: super::decline::Answered) -> Option<super::decline::Declined> {
    let before = Before::default();
    let scene = Scene {
        names: names(),
        before: &before,
        labels: HashMap::new(),
    };
    super::decline::decline(m, &scene, answered)
}

#[test]
fn a_lookup_over_a_request_for_a_change_declines_naming_the_request() {
    use super::decline::Answered;
    let d = declined(
        "ok doing the paneer tikka. take 2 of the paneer out",
        Answered::Lookup,
    )
    .expect("declined");
    assert_eq!(d.unread, "take 2 of the paneer out");
    assert!(d.bid);
    assert!(
        d.options
            .contains(&"how much paneer have i got".to_string()),
        "{:?}",
        d.options
    );
    let reply = d.reply();
    assert!(reply.contains("changed nothing"), "{reply}");
    assert!(reply.ends_with('?'), "{reply}");
}

#[test]
fn a_lookup_that_only_reads_or_asks_is_not_declined() {
    use super::decline::Answered;
    for m in [
        "show me what i need to buy",
        "how much rice should i use?",
        "which recipes use paneer",
        "gonna plan the week, what recipes have i got",
        "the paneer one is not done, dont touch it",
        "morning! whats expiring soon, wanna plan around it",
        "the paneer, when is finish? i mean the date",
    ] {
        assert_eq!(declined(m, Answered::Lookup), None, "{m}");
    }
}

#[test]
fn a_yes_with_more_said_than_it_ties_declines_and_a_plain_one_does_not() {
    use super::decline::Answered;
    for m in ["yes both", "ok paneer", "yes its gone"] {
        assert!(declined(m, Answered::Talk).is_some(), "{m}");
    }
    for m in ["thanks!", "yeah go on", "yes please", "k", "cheers mate"] {
        assert_eq!(declined(m, Answered::Talk), None, "{m}");
    }
}

#[test]
fn a_remark_about_a_food_not_held_is_no_stock_question() {
    use super::decline::Answered;
    let d = declined("ugh the kid tipped juice all over the sofa", Answered::Item);
    assert!(d.is_some_and(|d| !d.bid));
    for m in [
        "any juice left",
        "how much juice have we got",
        "do we have juice?",
    ] {
        assert_eq!(declined(m, Answered::Item), None, "{m}");
    }
}

#[test]
fn a_yes_that_says_the_request_again_carries_it_out() {
    let asked = "clear the whole shopping list";
    let Move::Confirm { question, .. } = decide(asked) else {
        panic!("a bulk change is asked: {asked}");
    };
    let before = confirm_asked(asked, &question);
    for m in ["yes clear it", "yep do it", "ok clear the list"] {
        let out = read_after(m, &before);
        assert!(
            out.confirmed && matches!(&out.decision, Move::Do(r) if r.writes()),
            "{m}: {:?}",
            out.decision
        );
    }
    for m in [
        "yes but not the tomato",
        "yes and add milk",
        "no dont clear it",
    ] {
        assert!(!read_after(m, &before).confirmed, "{m}");
    }
}

#[test]
fn a_rule_read_in_a_question_is_declined_and_a_stated_one_is_not() {
    use super::decline::Answered;
    let d = declined(
        "will the wings be too hot for her? she's not great with spice",
        Answered::Rule,
    );
    assert!(d.is_some(), "a question is not a rule to keep");
    for m in [
        "no cod this week",
        "no wings tho thats a game day thing. which ones are left",
        "what can we make for people who dont eat meat?",
        "not the paneer tonight",
    ] {
        assert_eq!(declined(m, Answered::Rule), None, "{m}");
    }
}

#[test]
fn an_amount_beside_a_food_that_asks_nothing_is_no_stock_question() {
    use super::decline::Answered;
    assert!(declined("and a splash of soy sauce, like 15ml", Answered::Item).is_some());
    assert!(declined("yes 2", Answered::Talk).is_some());
    for m in ["2 lemons left?", "have i got 500g of rice", "how much rice"] {
        assert_eq!(declined(m, Answered::Item), None, "{m}");
    }
}

#[test]
fn whole_rows_move_to_the_place_said_and_a_part_moves_as_a_part() {
    let stock_move = |rows: &[&str], to: &str| Act::StockMove {
        rows: rows.iter().map(|r| r.to_string()).collect(),
        to: to.into(),
    };
    assert_eq!(
        done("move the coconut milk to the fridge"),
        [stock_move(&["coconut milk"], "fridge")]
    );
    // Put somewhere, a row the stock holds is moved, not added again.
    assert_eq!(
        done("put the paneer in the freezer"),
        [stock_move(&["paneer"], "freezer")]
    );
    // The place ruled out is not where it goes.
    assert_eq!(
        done("the butter is in the fridge not the pantry now, moved it"),
        [stock_move(&["butter"], "fridge")]
    );
    // An amount splits a row: that part moves.
    assert_eq!(
        done("move 200g of the paneer to the freezer"),
        [Act::StockMovePart {
            row: "paneer".into(),
            quantity: 200.0,
            unit: Some("g".into()),
            to: "freezer".into()
        }]
    );
}

#[test]
fn a_date_said_with_its_weekday_is_one_day() {
    let acts = done("put the thai yellow curry on sunday the 18th");
    assert_eq!(
        acts,
        [Act::PlanPut {
            recipe: "Thai Yellow Curry".into(),
            days: vec!["dated_sunday_18".into()],
            meal: None,
            servings: None,
        }]
    );
    assert_eq!(super::acts::day_words("dated_sunday_18"), "sunday the 18th");
    assert_eq!(super::acts::day_words("of_month_21"), "the 21st");
}

#[test]
fn a_use_with_its_amount_is_sure_however_common_its_verb() {
    assert_eq!(
        done("ate 2 limes btw"),
        [Act::StockUse {
            items: vec![ItemSaid {
                name: "lime".into(),
                quantity: Some(2.0),
                unit: None,
            }]
        }]
    );
    // Without an amount "ate" could be anything.
    writes_nothing("ate the lime");
}

#[test]
fn a_recipe_is_asked_what_it_lacks_and_how_long_it_takes() {
    assert_eq!(
        done("what am i missing for the pad see ew"),
        [Act::RecipeMissing {
            recipe: "Thai Pad See Ew".into(),
            servings: None
        }]
    );
    assert_eq!(
        done("how long does the kerala curry take"),
        [Act::RecipeTime {
            recipe: "Kerala Cod Curry".into()
        }]
    );
    // How long a food keeps is not how long a recipe takes.
    not_done("how long does the miso keep");
}

#[test]
fn a_word_before_part_of_a_foods_name_says_another_food() {
    // "veg oil" is not the olive oil on the list.
    let d = decide("take the veg oil off the list");
    assert!(
        !matches!(&d, Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::ShoppingRemove { .. }))),
        "{d:?}"
    );
    // A state before it is the same food.
    assert_eq!(
        done("take the fresh olive oil off the list"),
        [Act::ShoppingRemove {
            rows: vec!["olive oil".into()]
        }]
    );
}

#[test]
fn marking_a_task_done_says_done_once() {
    assert_eq!(
        done("mark the air fryer task done as well"),
        [Act::TaskDone {
            tasks: vec!["Deep-clean the air fryer basket".into()]
        }]
    );
}

#[test]
fn a_food_said_twice_for_one_change_is_one_item() {
    let item = |name: &str, quantity: Option<f64>, unit: Option<&str>| ItemSaid {
        name: name.into(),
        quantity,
        unit: unit.map(str::to_string),
    };
    let adds = |m: &str| match done(m).as_slice() {
        [Act::ShoppingAdd { items }] => items.clone(),
        other => panic!("{m:?}: {other:?}"),
    };
    assert_eq!(
        adds("milk. we need milk. and bread"),
        [item("milk", None, None), item("bread", None, None)]
    );
    // The later amount stands; "another" adds up.
    assert_eq!(
        adds("add 2 limes to the list, 3 limes actually"),
        [item("lime", Some(3.0), None)]
    );
    let acts = read_after(
        "i used 200g of the jasmine rice and another 100g of jasmine rice",
        &Before::default(),
    )
    .readings;
    assert_eq!(
        acts[0].acts,
        [Act::StockUse {
            items: vec![item("jasmine rice", Some(300.0), Some("g"))]
        }]
    );
}

#[test]
fn a_verb_closing_another_clause_is_another_request() {
    // "the olive oil I take" is bought, not taken off.
    writes_nothing("ok remove it. the olive oil I take");
}

#[test]
fn a_task_the_list_holds_is_not_added_again() {
    let d = decide("remind me to deep clean the air fryer basket on friday");
    assert!(
        !matches!(&d, Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::TaskAdd { .. }))),
        "{d:?}"
    );
    assert!(matches!(
        done("remind me to defrost the chicken thursday").as_slice(),
        [Act::TaskAdd { .. }]
    ));
}

#[test]
fn an_aside_beside_a_request_is_neither_read_nor_counted() {
    assert_eq!(
        done("doing a big reshuffle. move the ginger from the counter into the fridge"),
        [Act::StockMove {
            rows: vec!["ginger".into()],
            to: "fridge".into()
        }]
    );
    // An aside alone is no request; one that asks, negates or hedges is no
    // aside.
    writes_nothing("doing a big reshuffle");
    not_done("add milk to the list, is that enough?");
    not_done("add milk to the list, no wait");
}

#[test]
fn what_is_said_of_a_thing_after_its_name_describes_it() {
    assert_eq!(
        done("the spring onions are slimy, bin them. the coriander as well"),
        [Act::StockRemove {
            rows: vec!["spring onion".into(), "coriander".into()]
        }]
    );
}

#[test]
fn a_verb_that_names_a_place_moves_there_from_where_it_is() {
    for m in [
        "freeze the brioche",
        "the brioche on the counter, freeze it",
    ] {
        assert_eq!(
            done(m),
            [Act::StockMove {
                rows: vec!["brioche".into()],
                to: "freezer".into()
            }],
            "{m:?}"
        );
    }
}

#[test]
fn servings_said_with_a_plan_are_read_with_it() {
    for (m, n) in [
        ("put the miso cod on sunday dinner, 6 servings", 6),
        ("put the miso cod on sunday dinner for 4 people", 4),
        ("put the miso cod on sunday dinner for 4", 4),
        ("plan the miso cod for saturday, therell be 5 of us", 5),
    ] {
        let acts = done(m);
        assert!(
            matches!(acts.as_slice(), [Act::PlanPut { recipe, servings, .. }] if recipe == "Miso Glazed Air Fryer Cod" && *servings == Some(n)),
            "{m:?}: {acts:?}"
        );
    }
}

#[test]
fn a_frame_is_read_at_the_verb_that_explains_most() {
    // "put" and "throw" are the list's verbs too; the one read is the one
    // whose reading explains the message.
    assert_eq!(
        done("the coriander is bad, throw it away"),
        [Act::StockRemove {
            rows: vec!["coriander".into()]
        }]
    );
}

#[test]
fn a_goodbye_closes_the_talk_even_after_a_no() {
    for m in ["no thats all thanks", "good night", "thats it"] {
        assert_eq!(done(m), [Act::Thanks], "{m:?}");
    }
    // A "night" that says when is no goodbye.
    assert_eq!(
        done("the air fryer one is done, did it last night"),
        [Act::TaskDone {
            tasks: vec!["Deep-clean the air fryer basket".into()]
        }]
    );
}

#[test]
fn a_place_named_alone_shows_what_it_holds() {
    assert_eq!(done("the list please"), [Act::ShowShopping]);
    assert_eq!(done("my to-dos?"), [Act::ShowTasks]);
    assert_eq!(done("whats still open"), [Act::ShowTasks]);
    assert_eq!(
        done("whats the oldest thing in the fridge"),
        [Act::Expiring {
            place: Some("fridge".into())
        }]
    );
}

#[test]
fn a_task_named_with_the_word_task_is_deleted_and_shorthand_is_read() {
    assert_eq!(
        done("nd delte the task abt paneer"),
        [Act::TaskRemove {
            tasks: vec!["Use up the paneer before it expires".into()]
        }]
    );
    // "delete the paneer" names no task: not the task's to delete.
    assert!(
        !matches!(decide("delete the paneer").clone(), Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::TaskRemove { .. })))
    );
}

#[test]
fn a_question_about_freezing_moves_nothing() {
    writes_nothing("does paneer freeze ok");
    writes_nothing("freeze it then?");
}

#[test]
fn a_part_that_takes_back_what_came_before_is_read_in_its_place() {
    let plan = |recipe: &str, day: &str, meal: Option<&str>| Act::PlanPut {
        recipe: recipe.into(),
        days: vec![day.into()],
        meal: meal.map(str::to_string),
        servings: None,
    };
    assert_eq!(
        done("put the miso cod on saturday lunch - no, dinner"),
        [plan(
            "Miso Glazed Air Fryer Cod",
            "saturday",
            Some("dinner")
        )]
    );
    assert_eq!(
        done("put dry rub wings on saturday lunch - no, dinner. saturday dinner"),
        [plan("Dry Rub Wings", "saturday", Some("dinner"))]
    );
    assert_eq!(
        done("put the paneer tikka on thursday. wait, friday"),
        [plan("Air Fryer Paneer Tikka", "friday", None)]
    );
    assert_eq!(
        done("add 2 limes to the list, wait we have limes. 2 lemons instead"),
        [Act::ShoppingAdd {
            items: vec![ItemSaid {
                name: "lemon".into(),
                quantity: Some(2.0),
                unit: None
            }]
        }]
    );
    assert_eq!(
        done(
            "move the coriander to the fridge. hmm no leave it, move the ginger to the fridge instead"
        ),
        [Act::StockMove {
            rows: vec!["ginger".into()],
            to: "fridge".into()
        }]
    );
    // Said as more, not instead: both stand.
    assert_eq!(
        done("add eggs to the list. actually add bread too").len(),
        2
    );
    // "no fish" rules a thing out; it takes nothing back.
    writes_nothing("put the curry on friday. no fish though");
    // The servings said after what it takes back are the plan's.
    let acts =
        done("put dry rub wings on saturday lunch - no, dinner. saturday dinner, 6 servings");
    assert!(
        matches!(acts.as_slice(), [Act::PlanPut { meal: Some(m), servings: Some(6), .. }] if m == "dinner"),
        "{acts:?}"
    );
    // Taken back in words not read: never carried out whole.
    not_done("put the wings on saturday lunch - no, the other day i said");
}

#[test]
fn recipes_asked_after_as_ones_are_no_one_recipe_to_show() {
    not_done("ok what abt chicken ones");
    assert_eq!(
        done("the miso cod"),
        [Act::ShowRecipe {
            recipe: "Miso Glazed Air Fryer Cod".into()
        }]
    );
}

#[test]
fn a_recipe_is_asked_how_much_of_a_food_it_takes_how_hot_and_for_how_many() {
    assert_eq!(
        done("do i need eggs for the pad see ew"),
        [Act::RecipeAmount {
            recipe: "Thai Pad See Ew".into(),
            food: "eggs".into(),
            servings: None
        }]
    );
    assert_eq!(
        done("how much coconut milk does the yellow curry take"),
        [Act::RecipeAmount {
            recipe: "Thai Yellow Curry".into(),
            food: "coconut milk".into(),
            servings: None
        }]
    );
    assert_eq!(
        done("is the kerala curry spicy"),
        [Act::RecipeSpicy {
            recipe: "Kerala Cod Curry".into()
        }]
    );
    assert_eq!(
        done("how many does the paneer tikka serve"),
        [Act::RecipeServes {
            recipe: "Air Fryer Paneer Tikka".into()
        }]
    );
    // No recipe named: the stock is asked about.
    assert_eq!(
        done("how much coconut milk have i got"),
        [Act::HowMuch {
            items: vec!["coconut milk".into()]
        }]
    );
}

#[test]
fn a_task_is_found_by_its_own_words_typed_or_said_again() {
    let task = |t: &str| {
        [Act::TaskDone {
            tasks: vec![t.into()],
        }]
    };
    assert_eq!(
        done("adn mark the claen air fryr task done did it this mornign"),
        task("Deep-clean the air fryer basket")
    );
    assert_eq!(
        done("the broccoli + basil one is done, picked them up on the way home"),
        task("Pick up Chinese broccoli and Thai basil")
    );
    assert_eq!(
        done("the paneer task can go too"),
        task("Use up the paneer before it expires")
    );
    // Without the word "task", "the paneer can go" is no task's.
    assert!(
        !matches!(decide("the paneer can go"), Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::TaskDone { .. })))
    );
}

#[test]
fn a_food_put_on_the_list_needs_no_verb_and_a_short_typo_is_read() {
    assert_eq!(
        done("spinach on the list pls"),
        [Act::ShoppingAdd {
            items: vec![ItemSaid {
                name: "spinach".into(),
                quantity: None,
                unit: None
            }]
        }]
    );
    writes_nothing("is spinach on the list");
    assert_eq!(
        done("also teh coconut mlk i used 1 can"),
        [Act::StockUse {
            items: vec![ItemSaid {
                name: "coconut milk".into(),
                quantity: Some(1.0),
                unit: Some("can".into())
            }]
        }]
    );
}

#[test]
fn a_planned_meal_moves_by_its_name_or_day_and_two_days_trade() {
    assert!(
        matches!(decide("move the curry to friday"), Move::Choose { question, .. } if question.contains("Kerala Cod Curry or Thai Yellow Curry")),
        "two curries: which one is asked"
    );
    assert_eq!(
        done("move the wings to friday"),
        [Act::PlanMove {
            recipe: Some(vec!["wings".into()]),
            from: None,
            to: "friday".into()
        }]
    );
    assert_eq!(
        done("move wednesday to friday"),
        [Act::PlanMove {
            recipe: None,
            from: Some("wednesday".into()),
            to: "friday".into()
        }]
    );
    assert_eq!(
        done("swap sunday and wednesday"),
        [Act::PlanExchange {
            days: vec!["sunday".into(), "wednesday".into()],
            meal: None
        }]
    );
    // "it" is the older chain's to resolve against the plan.
    not_done("move it to thursday");
    // A row of the stock moved is no plan's.
    assert_eq!(
        done("move the ginger to the fridge"),
        [Act::StockMove {
            rows: vec!["ginger".into()],
            to: "fridge".into()
        }]
    );
}

#[test]
fn a_refusal_said_in_passing_is_no_rule_to_keep() {
    use super::decline::Answered;
    for m in [
        "also one guy doesnt do spicy",
        "wings but make them not spicy can you",
        // Nothing listed to narrow and no word that keeps it: asked.
        "drop the toast and the wings",
        "ok no fish. kinda fancy the assam pedas tho",
        "something veggie as well",
    ] {
        assert!(declined(m, Answered::Rule).is_some(), "{m}");
    }
    for m in [
        "no peanuts this week",
        "nothing spicy for the kids from now on",
        "she's allergic to peanuts",
        "no cod",
        "keep it dairy-free",
        "i dont want cod",
        "no seafood pls, and nothing too spicy",
        "no wings tho. which ones are left",
        // Asking for agreement states the rule.
        "nothing spicy for the kids ok?? remember that",
    ] {
        assert_eq!(declined(m, Answered::Rule), None, "{m}");
    }
}

#[test]
fn a_choice_is_answered_by_a_kind_its_option_falls_under() {
    let asked = decide("move the curry to friday");
    let Move::Choose { question, .. } = &asked else {
        panic!("{asked:?}");
    };
    let before = confirm_asked("move the curry to friday", question);
    let mut before = before;
    if let Some(q) = before.dialogue.question.as_mut() {
        q.kind = crate::context::QuestionKind::WhichOne;
        q.text = format!("One question first — {question}");
    }
    let o = read_after("the fish one", &before);
    assert!(
        matches!(&o.decision, Move::Do(r) if r.acts == [Act::PlanMove { recipe: Some(vec!["kerala".into(), "cod".into(), "curry".into()]), from: None, to: "friday".into() }]),
        "{:?}",
        o.decision
    );
}

#[test]
fn a_task_moves_to_a_day_and_filler_is_explained() {
    assert_eq!(
        done("move the air fryer task to friday"),
        [Act::TaskMove {
            task: "Deep-clean the air fryer basket".into(),
            day: "friday".into()
        }]
    );
    let acts = done("ok last one, put shallots and lemongrass on the list just in case");
    assert!(
        matches!(acts.as_slice(), [Act::ShoppingAdd { items }] if items.len() == 2),
        "{acts:?}"
    );
    let acts = done("ok ad basmtai to list 1kg, nad remoev tomatos from lsit");
    assert!(
        matches!(acts.as_slice(), [Act::ShoppingAdd { .. }, Act::ShoppingRemove { rows }] if rows == &["tomato"]),
        "{acts:?}"
    );
}

#[test]
fn a_list_after_add_colon_is_tasks_unless_it_names_foods() {
    let acts = done("add: defrost cod thurs night, descale kettle sat, buy eggs");
    assert_eq!(
        acts,
        [
            Act::TaskAdd {
                title: "Defrost cod".into(),
                day: Some("thursday".into())
            },
            Act::TaskAdd {
                title: "Descale kettle".into(),
                day: Some("saturday".into())
            },
            Act::TaskAdd {
                title: "Buy eggs".into(),
                day: None
            },
        ]
    );
    assert_eq!(
        done(
            "Add: defrost cod Saturday morning; descale kettle (no date); buy birthday candles for Thursday."
        ),
        [
            Act::TaskAdd {
                title: "Defrost cod".into(),
                day: Some("saturday".into())
            },
            Act::TaskAdd {
                title: "Descale kettle".into(),
                day: None
            },
            Act::TaskAdd {
                title: "Buy birthday candles".into(),
                day: Some("thursday".into())
            },
        ]
    );
    assert_eq!(
        done("Please add a task for tomorrow: \"Move cod fillets to the fridge to thaw\"."),
        [Act::TaskAdd {
            title: "Move cod fillets to the fridge to thaw".into(),
            day: Some("tomorrow".into())
        }]
    );
    // Foods listed are the shopping list's, never tasks.
    assert!(
        !matches!(decide("add: eggs, milk, bread"), Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::TaskAdd { .. })))
    );
}

#[test]
fn remarks_beside_a_clear_request_do_not_make_it_a_question() {
    let acts = done("done, it slapped. used about 250g of the jasmine rice and 1 onion");
    assert!(
        matches!(acts.as_slice(), [Act::StockUse { items }] if items.len() == 2),
        "{acts:?}"
    );
    assert_eq!(
        done("also thorwn out teh coriandr its gone slimy"),
        [Act::StockRemove {
            rows: vec!["coriander".into()]
        }]
    );
    // A food said before a kind of food is one food ("oat milk",
    // "protein powder"); two foods run together otherwise are asked
    // about, never written as two rows.
    for (m, name) in [
        ("add oat milk to the list", "oat milk"),
        ("add protein powder to the list", "protein powder"),
        ("oat milk on the list as well", "oat milk"),
    ] {
        assert_eq!(
            done(m),
            [Act::ShoppingAdd {
                items: vec![ItemSaid {
                    name: name.into(),
                    quantity: None,
                    unit: None
                }]
            }],
            "{m:?}"
        );
    }
    not_done("add eggs milk to the list");
    // The frame's verb again in a clause naming something is another
    // request, not a restatement.
    writes_nothing("ok remove it. the olive oil I take");
}

#[test]
fn an_amount_closing_its_clause_or_said_of_them_is_the_food_befores() {
    let acts =
        done("Add green chilies to the shopping list, 2 pcs. Curry leaves as well, 10 of them.");
    let Act::ShoppingAdd { items } = &acts[0] else {
        panic!("{acts:?}");
    };
    let said: Vec<(String, Option<f64>)> =
        items.iter().map(|i| (i.name.clone(), i.quantity)).collect();
    assert_eq!(
        said,
        [
            ("green chilies".to_string(), Some(2.0)),
            ("curry leaves".to_string(), Some(10.0))
        ],
        "{acts:?}"
    );
    // Amounts in words after the food, a typed "for" for four, and a
    // reason after the amount that asks for nothing.
    for (m, want) in [
        ("pop limes on the shopping list, a dozen", 12.0),
        ("put lemons on the list for of them", 4.0),
        ("add red onions to the list only one since i have half", 1.0),
        ("put egsg on list 6", 6.0),
    ] {
        let acts = done(m);
        assert!(
            matches!(acts.as_slice(), [Act::ShoppingAdd { items }] if items.len() == 1 && items[0].quantity == Some(want)),
            "{m:?}: {acts:?}"
        );
    }
    // A reason naming another write is not set aside.
    not_done("add lemons to the list because i need to remove the limes");
}

#[test]
fn bought_of_foods_the_list_holds_is_asked_not_stocked() {
    let m = decide("got 200g broccolini, the basil and 4 tomatos");
    assert!(
        matches!(&m, Move::Confirm { question, .. } if question.contains("shopping list")),
        "{m:?}"
    );
    // Nothing the list holds: stocked.
    assert!(matches!(decide("i bought a dozen eggs"), Move::Do(_)));
}
#[test]
fn a_part_taken_back_is_dropped_though_it_reads_as_nothing() {
    let removed = vec![Act::PlanRemove {
        days: vec!["thursday".into()],
        meal: Some("lunch".into()),
        recipe: Vec::new(),
    }];
    assert_eq!(done("just leave thursday lunch blank"), removed);
    assert_eq!(
        done(
            "make thursday lunch the tikka bites then and I'll cook them tue.. no hang on, just leave thursday lunch blank"
        ),
        removed
    );
    // Nothing taken back: the part read as nothing keeps it from being done.
    not_done(
        "make thursday lunch the tikka bites then and I'll cook them tue. leave thursday lunch blank",
    );
}

#[test]
fn a_recipe_and_a_day_said_plainly_with_no_verb_are_planned() {
    assert_eq!(
        done("ok yellow curry. wednesday dinner"),
        [Act::PlanPut {
            recipe: "Thai Yellow Curry".into(),
            days: vec!["wednesday".into()],
            meal: Some("dinner".into()),
            servings: None,
        }]
    );
    assert_eq!(done("kerala wednesday, assam pedas sunday").len(), 2);
    // Weighed, asked, refused, a span of days, or a word not read: not done.
    for m in [
        "maybe yellow curry wednesday",
        "yellow curry wednesday?",
        "not the wings on friday",
        "french toast on the weekend",
        "one for making the paneer tikka on thursday",
    ] {
        not_done(m);
    }
}

#[test]
fn what_the_user_will_do_and_an_opening_word_are_not_read_as_requests() {
    assert_eq!(
        done("sweet put the yellow curry on tomorow dinner, ill marinate it tonight"),
        [Act::PlanPut {
            recipe: "Thai Yellow Curry".into(),
            days: vec!["tomorrow".into()],
            meal: Some("dinner".into()),
            servings: None,
        }]
    );
    assert_eq!(
        done("sweet, add milk to the list"),
        [Act::ShoppingAdd {
            items: vec![ItemSaid {
                name: "milk".into(),
                quantity: None,
                unit: None
            }]
        }]
    );
}

#[test]
fn a_food_left_out_after_an_add_is_not_added() {
    let Act::ShoppingAdd { items } =
        &done("add 2 green chillies to the list; skip the curry leaves")[0]
    else {
        panic!("not an add");
    };
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].name, "green chillies");
    // "tonight" is the day's dinner.
    assert_eq!(
        done("put the wings on tonight"),
        [Act::PlanPut {
            recipe: "Dry Rub Wings".into(),
            days: vec!["today".into()],
            meal: Some("dinner".into()),
            servings: None,
        }]
    );
}

#[test]
fn a_recipe_said_with_the_slot_to_clear_is_the_slot_it_must_hold() {
    assert_eq!(
        done("actually take the miso cod off sunday"),
        [Act::PlanRemove {
            days: vec!["sunday".into()],
            meal: None,
            recipe: vec!["miso".into(), "cod".into()],
        }]
    );
}

#[test]
fn which_of_two_there_is_more_of_looks_both_up() {
    assert_eq!(
        done("the rice which one is more, basmati or the jasmin?"),
        [Act::HowMuch {
            items: vec!["basmati rice".into(), "jasmine rice".into()]
        }]
    );
    // In a change, an "or" is a choice: not done as both.
    not_done("add milk or eggs");
}

#[test]
fn a_buy_said_as_done_is_stock_and_one_to_do_is_the_lists() {
    assert!(matches!(
        done("and yesterday i was buy 1 kilo of chicken wings and 6 egg")[..],
        [Act::InventoryAdd { .. }]
    ));
    assert!(matches!(done("buy eggs")[..], [Act::ShoppingAdd { .. }]));
}

#[test]
fn a_family_names_the_stock_of_that_family() {
    assert_eq!(
        done("Would you kindly tell me whether we have any fish in the house at present?"),
        [Act::HowMuch {
            items: vec!["cod fillet".into()]
        }]
    );
}

#[test]
fn where_a_thing_comes_out_of_is_not_where_it_goes() {
    assert_eq!(
        done("take the cod out of the freezer into the fridge"),
        [Act::StockMove {
            rows: vec!["cod fillet".into()],
            to: "fridge".into()
        }]
    );
    not_done("take the naan out of the freezer");
    // In the basket: bought.
    assert_eq!(
        done("thai basil n tomatoes in the basket too"),
        [Act::ShoppingBought {
            rows: vec!["thai basil".into(), "tomato".into()]
        }]
    );
}

#[test]
fn whether_a_food_has_run_out_is_looked_up_not_removed() {
    assert_eq!(
        done("hang on are we out of eggs?? like zero?"),
        [Act::HowMuch {
            items: vec!["eggs".into()]
        }]
    );
}

#[test]
fn a_reason_said_beside_a_request_is_not_left_unread() {
    assert_eq!(
        done("take the thai basil off the list, the shop never has it"),
        vec![Act::ShoppingRemove {
            rows: vec!["thai basil".into()]
        }]
    );
    // A taking back, or a request's verb, is no reason.
    not_done("add milk to the list, dont bother");
    not_done("add milk to the list, actually dont");
}

#[test]
fn foods_parted_by_commas_are_each_an_item() {
    let item = |n: &str| ItemSaid {
        name: n.into(),
        quantity: None,
        unit: None,
    };
    assert_eq!(
        done("we need eggs, bread and chillies"),
        vec![Act::ShoppingAdd {
            items: vec![item("eggs"), item("bread"), item("chillies")]
        }]
    );
    // "some" before a food to buy is no share of a row.
    assert_eq!(
        done("add eggs and some green chillies to the list"),
        vec![Act::ShoppingAdd {
            items: vec![item("eggs"), item("green chillies")]
        }]
    );
}

#[test]
fn what_a_recipe_needs_is_what_is_missing_for_it() {
    assert_eq!(
        done("what do i need for pad see ew"),
        vec![Act::RecipeMissing {
            recipe: "Thai Pad See Ew".into(),
            servings: None
        }]
    );
}

#[test]
fn a_saved_recipe_the_user_says_they_will_cook_on_a_day_is_planned() {
    let plan = |day: &str, meal: Option<&str>, servings: Option<u32>| Act::PlanPut {
        recipe: "Air Fryer Paneer Tikka".into(),
        days: vec![day.into()],
        meal: meal.map(str::to_string),
        servings,
    };
    assert_eq!(
        done("im making the paneer tikka on friday"),
        vec![plan("friday", None, None)]
    );
    assert_eq!(
        done("cooking the paneer tikka tomorrow night"),
        vec![plan("tomorrow", Some("dinner"), None)]
    );
    assert_eq!(
        done("put the paneer tikka on sunday dinner, we are 4 person"),
        vec![plan("sunday", Some("dinner"), Some(4))]
    );
    // What was cooked is no plan (what it used comes out of the stock); a
    // change to a recipe names no day.
    assert_eq!(
        done("i cooked the paneer tikka yesterday"),
        [Act::RecipeCooked {
            recipe: "Air Fryer Paneer Tikka".into(),
            servings: None
        }]
    );
    not_done("make it spicier");
}

#[test]
fn a_row_said_to_go_in_a_place_is_moved_there() {
    assert_eq!(
        done("ginger goes in the fridge now"),
        vec![Act::StockMove {
            rows: vec!["ginger".into()],
            to: "fridge".into()
        }]
    );
    assert!(matches!(
        done("what goes in the pad see ew").as_slice(),
        [Act::ShowRecipe { .. }]
    ));
}

#[test]
fn rows_said_apart_by_commas_are_each_ticked() {
    assert_eq!(
        done("got thai basil, chinese broccoli, 4 tomatoes, olive oil. tick them"),
        vec![Act::ShoppingBought {
            rows: vec![
                "thai basil".into(),
                "chinese broccoli".into(),
                "tomato".into(),
                "olive oil".into()
            ]
        }]
    );
}

#[test]
fn a_use_of_a_row_the_list_also_names_is_a_use_of_the_stock() {
    // "greek yogurt" is on the list and in the fridge: a use is of the
    // fridge's.
    assert!(matches!(
        done("used 100g of the greek yogurt and 1 onion").as_slice(),
        [Act::StockUse { items }] if items.len() == 2
    ));
}

#[test]
fn a_task_said_as_a_reminder_to_make_is_added() {
    for m in [
        "and a task to thaw the wings friday night",
        "ok can u make a todo to take the chicken out of the freezer tmrw morning",
    ] {
        assert!(
            matches!(done(m).as_slice(), [Act::TaskAdd { day: Some(_), .. }]),
            "{m}"
        );
    }
}

#[test]
fn when_a_named_row_goes_off_is_looked_up() {
    assert_eq!(
        done("when does the paneer go off"),
        vec![Act::ExpiryOf {
            items: vec!["paneer".into()]
        }]
    );
}

#[test]
fn a_day_or_meal_ruled_out_is_no_slot() {
    let plan = |recipe: &str, day: &str, meal: &str| Act::PlanPut {
        recipe: recipe.into(),
        days: vec![day.into()],
        meal: Some(meal.into()),
        servings: None,
    };
    assert_eq!(
        done("put the wings on sunday lunch instead of dinner"),
        vec![plan("Dry Rub Wings", "sunday", "lunch")]
    );
    assert_eq!(
        done("Friday I'm out. Saturday breakfast the chai french toast."),
        vec![plan("Chai French Toast", "saturday", "breakfast")]
    );
    assert_eq!(
        done("put the wings on sunday lunch, we're out sunday night"),
        vec![plan("Dry Rub Wings", "sunday", "lunch")]
    );
}

#[test]
fn a_no_said_first_answers_the_last_reply_and_the_request_is_read() {
    assert_eq!(
        done("hmm no take the miso cod off friday"),
        vec![Act::PlanRemove {
            days: vec!["friday".into()],
            meal: None,
            recipe: vec!["miso".into(), "cod".into()],
        }]
    );
    // A negation of the verb itself still turns it around.
    not_done("dont take the miso cod off friday");
}

#[test]
fn one_recipe_added_to_a_day_is_planned_there() {
    assert_eq!(
        done("ok ad chickn tika bites to thrusday dinenr"),
        vec![Act::PlanPut {
            recipe: "Chicken Tikka Bites".into(),
            days: vec!["thursday".into()],
            meal: Some("dinner".into()),
            servings: None,
        }]
    );
}

#[test]
fn what_a_recipe_is_missing_is_bought_for_the_recipe_named_or_planned() {
    assert_eq!(
        done("put what i need for the pad see ew on the list"),
        vec![Act::ShoppingMissing {
            recipe: "Thai Pad See Ew".into()
        }]
    );
    let acts = done("put the wings on friday and the paneer on saturday, and add whats missing");
    assert!(
        acts.contains(&Act::ShoppingMissing {
            recipe: "Air Fryer Paneer Tikka".into()
        }) && acts.contains(&Act::ShoppingMissing {
            recipe: "Dry Rub Wings".into()
        }),
        "{acts:?}"
    );
}

#[test]
fn an_amount_said_afresh_of_one_row_is_set() {
    assert_eq!(
        done("the yogurt is more like 240g"),
        vec![Act::StockSet {
            row: "greek yogurt".into(),
            quantity: 240.0,
            unit: Some("g".into()),
        }]
    );
    // No row named and none just shown: nothing to set.
    writes_nothing("its like 400. fix");
}

#[test]
fn what_to_make_is_narrowed_by_time_stock_and_heat() {
    use super::acts::MakeFilter;
    assert_eq!(
        done("ok quick one what can i make tonight thats under 30 min, kids eat at 6"),
        vec![Act::WhatCanIMake {
            within: MakeFilter {
                minutes: Some(30),
                ..MakeFilter::default()
            }
        }]
    );
    assert_eq!(
        done("what can i cook w/o buying anything, nothing spicy"),
        vec![Act::WhatCanIMake {
            within: MakeFilter {
                stocked: true,
                mild: true,
                ..MakeFilter::default()
            }
        }]
    );
}

#[test]
fn it_after_a_part_naming_one_recipe_is_that_recipe() {
    assert_eq!(
        done("Is that enough for the Assam Pedas? And what would I need to buy for it?"),
        vec![Act::RecipeMissing {
            recipe: "Cod Assam Pedas".into(),
            servings: None
        }]
    );
}

#[test]
fn nearly_out_is_low_not_gone() {
    let acts = done("also add milk and bananas to the list, we're nearly out of milk");
    assert!(
        acts.iter().all(|a| matches!(a, Act::ShoppingAdd { .. })),
        "{acts:?}"
    );
}

#[test]
fn a_later_clause_that_only_changes_the_day_replaces_it() {
    assert_eq!(
        done("put kerala cod curry on friday. my wife says saturday. ok saturday"),
        vec![Act::PlanPut {
            recipe: "Kerala Cod Curry".into(),
            days: vec!["saturday".into()],
            meal: None,
            servings: None,
        }]
    );
    // A list of days is every one of them.
    let d = decide("put the wings on friday, saturday and sunday");
    let Move::Do(r) = d else {
        panic!("{d:?}");
    };
    assert_eq!(r.acts.len(), 3, "{:?}", r.acts);
}

#[test]
fn a_weekday_after_a_later_weeks_date_is_that_weeks() {
    let acts = done("Next Wednesday the 21st: thai yellow curry, and Thursday lunch from it.");
    let days = first_days(&acts);
    assert_eq!(days, ["dated_wednesday_21", "dated_thursday_22"]);
}

#[test]
fn a_reminder_with_only_a_day_is_no_task_and_a_measure_is_no_food() {
    writes_nothing("yes please make a reminder for thursday evening");
    let d = decide(
        "put away: 12 eggs in the fridge, bag of shallots, 1kg chicken wings in the freezer",
    );
    assert!(!matches!(d, Move::Do(_)), "two places, one add: {d:?}");
    if let Move::Confirm { reading, .. } = d {
        assert!(
            !format!("{:?}", reading.acts).contains("\"bag\""),
            "{:?}",
            reading.acts
        );
    }
    // "double it" is not a remark.
    not_done("sunday ill do the yellow curry, double it");
}

#[test]
fn a_day_said_alone_after_a_task_in_a_list_is_that_tasks() {
    assert_eq!(
        done("add tasks: water the plants (sunday), call the plumber (friday)"),
        [
            Act::TaskAdd {
                title: "Water the plants".into(),
                day: Some("sunday".into())
            },
            Act::TaskAdd {
                title: "Call the plumber".into(),
                day: Some("friday".into())
            }
        ]
    );
    // "(next weekend)" says more than a day: not written as undated.
    writes_nothing("add: descale the kettle (saturday), defrost the freezer (next weekend)");
}

#[test]
fn words_side_by_side_name_one_recipe_and_a_meal_after_days_is_every_days() {
    // "chicken" and "curry" name no one recipe together: asked, never two
    // recipes put in one slot.
    not_done("put the chicken curry thing on thursday dinner");
    // "the fillets": the one row whose name ends in it, moved.
    assert_eq!(
        done("put the fillets in the fridge"),
        [Act::StockMove {
            rows: vec!["cod fillet".into()],
            to: "fridge".into()
        }]
    );
    let acts = done("put chicken tikka bites on wednesday, thursday and friday lunch");
    assert!(
        matches!(acts.as_slice(), [Act::PlanPut { days, meal: Some(m), .. }] if days.len() == 3 && m == "lunch")
            || acts.len() == 3
                && acts
                    .iter()
                    .all(|a| matches!(a, Act::PlanPut { meal: Some(m), .. } if m == "lunch")),
        "{acts:?}"
    );
    // A meal with more said of it is that day's only.
    let acts = done("put the yellow curry on thurs and friday lunch can be the leftovers");
    assert!(
        acts.iter()
            .any(|a| matches!(a, Act::PlanPut { days, meal, .. } if days == &["thursday"] && meal.as_deref() != Some("lunch"))),
        "{acts:?}"
    );
    // Days a clause keeps are not taken off with the one dropped.
    writes_nothing("ok just do wed and thu then, drop friday");
}

#[test]
fn a_correction_amends_the_amount_and_a_share_of_a_row_is_read() {
    let acts = done("add too bags of frozen peas to the list no sorry one bag");
    assert!(
        matches!(acts.as_slice(), [Act::ShoppingAdd { items }] if items[0].quantity == Some(1.0)),
        "{acts:?}"
    );
    let acts = done("use half of the milk");
    assert!(
        matches!(acts.as_slice(), [Act::StockUse { items }]
            if items[0].quantity == Some(0.5) && items[0].unit.as_deref() == Some("share")),
        "{acts:?}"
    );
    // A "no" left unread beside a write: asked, not done.
    not_done("add lemons to the list no idea how many tho");
}

#[test]
fn the_night_before_a_day_is_the_day_before_it() {
    assert_eq!(
        done("and a task to marinate chicken the night before sunday dinner"),
        [Act::TaskAdd {
            title: "Marinate chicken".into(),
            day: Some("saturday".into())
        }]
    );
}

#[test]
fn put_down_for_a_day_is_a_plan() {
    assert!(matches!(
        done("can u put the wings down for tmrw then lol").as_slice(),
        [Act::PlanPut { recipe, .. }] if recipe == "Dry Rub Wings"
    ));
}

/// Each plan put's days, in the order said.
fn plan_days(m: &str) -> Vec<String> {
    done(m)
        .into_iter()
        .filter_map(|a| match a {
            Act::PlanPut { days, .. } => Some(days),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn bare_weekdays_fall_in_the_week_the_talk_is_about() {
    let days_after = |earlier: &str, m: &str| -> Vec<String> {
        let before = Before {
            user: earlier.into(),
            ..Before::default()
        };
        match read_after(m, &before).decision {
            Move::Do(r) => r
                .acts
                .into_iter()
                .filter_map(|a| match a {
                    Act::PlanPut { days, .. } => Some(days),
                    _ => None,
                })
                .flatten()
                .collect(),
            other => panic!("{m:?}: {other:?}"),
        }
    };
    // The week set by the last message, a dated day: each weekday in it.
    assert_eq!(
        days_after(
            "lets plan sunday the 18th to saturday the 24th",
            "sun the yellow curry, wed the tikka bites"
        ),
        ["dated_sunday_18", "dated_wednesday_21"]
    );
    assert_eq!(
        days_after("planning next week now", "put the pad see ew on tuesday"),
        ["next_tuesday"]
    );
    // With no week in the talk, each is the next such day.
    assert_eq!(
        plan_days("put the wings on monday and the paneer tikka on wed"),
        ["monday", "wednesday"]
    );
    // Read back from its own words.
    assert_eq!(
        plan_days("put the wings on monday after friday"),
        ["after_friday_3"]
    );
}

#[test]
fn a_day_said_inside_a_task_is_its_due_day_not_its_words() {
    let task = |m: &str| match &done(m)[..] {
        [Act::TaskAdd { title, day }] => (title.clone(), day.clone()),
        other => panic!("{m:?}: {other:?}"),
    };
    assert_eq!(
        task("remind me nxt thurs to wipe down the hob"),
        ("Wipe down the hob".into(), Some("next_thursday".into()))
    );
    assert_eq!(
        task("add a task to check the freezer door seal in 3 weeks"),
        (
            "Check the freezer door seal".into(),
            Some("in_days_21".into())
        )
    );
    assert_eq!(
        task("remind me to sort the spice drawer sometime at the weekend"),
        ("Sort the spice drawer".into(), Some("saturday".into()))
    );
    // A time it cannot date is not written undated.
    writes_nothing("remind me to descale the kettle sometime soon");
    writes_nothing("add a task to clean the oven every week");
}

#[test]
fn a_count_of_portions_in_words_is_the_plans_servings() {
    let servings = |m: &str| match &done(m)[..] {
        [Act::PlanPut { servings, .. }] => *servings,
        other => panic!("{m:?}: {other:?}"),
    };
    assert_eq!(
        servings("put the pad see ew on thursday, just the one portion"),
        Some(1)
    );
    assert_eq!(servings("plan the paneer tikka saturday for one"), Some(1));
    assert_eq!(servings("plan the wings on friday"), None);
}

#[test]
fn a_part_of_a_row_is_not_moved_whole() {
    for m in [
        "move one of the cod fillets to the fridge",
        "put half the paneer in the freezer",
    ] {
        let d = decide(m);
        assert!(
            !matches!(&d, Move::Do(r) | Move::Confirm { reading: r, .. }
                if r.acts.iter().any(|a| matches!(a, Act::StockMove { .. }))),
            "{m:?} moved the whole row: {d:?}"
        );
    }
    assert!(matches!(
        done("move the cod fillets to the fridge")[..],
        [Act::StockMove { .. }]
    ));
}

#[test]
fn a_planned_meal_named_while_the_plan_is_talked_of_comes_off_whatever_its_day() {
    use crate::context::Table;
    let before = Before {
        written: vec!["meal_plan_1".into()],
        ..Before::default()
    };
    let labels = [(
        "meal_plan_1",
        Table::MealPlans,
        "Fri Jan 16 dinner: Thai Yellow Curry",
    )];
    let Move::Do(r) = read_with("hmm take the curry off", &before, &labels).decision else {
        panic!("taken off the plan");
    };
    assert!(
        matches!(&r.acts[..], [Act::PlanRemove { days, recipe, .. }] if days.is_empty() && recipe == &["curry".to_string()]),
        "{:?}",
        r.acts
    );
    // With no plan in the talk, a name alone says nothing about the plan.
    writes_nothing("hmm take the curry off");
}

#[test]
fn a_pointer_into_the_list_shown_with_a_day_is_a_plan() {
    use crate::context::Table;
    let before = Before {
        listed: vec!["recipe_1".into(), "recipe_2".into()],
        touched: vec!["recipe_1".into(), "recipe_2".into()],
        ..Before::default()
    };
    let labels = [
        ("recipe_1", Table::Recipes, "Kerala Cod Curry"),
        ("recipe_2", Table::Recipes, "Thai Yellow Curry"),
    ];
    for m in [
        "put the first one on sunday",
        "the first one on sunday",
        "and that first one on sunday",
        "the second one for friday",
    ] {
        let out = read_with(m, &before, &labels);
        let Move::Do(r) = out.decision else {
            panic!("{m:?}: {:?}", out.readings);
        };
        assert!(
            matches!(&r.acts[..], [Act::PlanPut { .. }]),
            "{m:?}: {:?}",
            r.acts
        );
    }
}

#[test]
fn a_kind_said_in_the_plural_lists_the_recipes_of_that_kind() {
    assert_eq!(
        done("show me the curries"),
        [Act::FindRecipes {
            word: "curry".into()
        }]
    );
    // Said once, one of them is meant: which is asked.
    assert!(matches!(
        decide("show me the curry"),
        Move::Choose { .. } | Move::Pass
    ));
}

#[test]
fn a_task_ticked_with_complete_and_a_morning_meal_are_read() {
    assert!(matches!(
        &done("k and complete the paneer task")[..],
        [Act::TaskDone { tasks }] if tasks == &["Use up the paneer before it expires".to_string()]
    ));
    assert!(matches!(
        &done("chai french toast tomorrow morning then")[..],
        [Act::PlanPut { meal: Some(m), .. }] if m == "breakfast"
    ));
}

#[test]
fn whether_to_buy_more_asked_is_answered_with_what_there_is() {
    for m in [
        "do we need milk",
        "should i buy more rice",
        "do i need to buy eggs",
    ] {
        assert!(
            matches!(&done(m)[..], [Act::HowMuch { .. }]),
            "{m:?}: {:?}",
            decide(m)
        );
    }
    // Said, not asked: it goes on the list.
    assert!(matches!(
        &done("i need eggs")[..],
        [Act::ShoppingAdd { .. }]
    ));
    // Asked of a recipe: what the recipe takes.
    assert!(matches!(
        &done("do i need eggs for the pad see ew")[..],
        [Act::RecipeAmount { .. }]
    ));
}

#[test]
fn a_question_put_the_negative_way_round_asks_the_same() {
    assert!(matches!(
        &done("wait isnt the brioche going off soon")[..],
        [Act::ExpiryOf { .. }]
    ));
    assert!(matches!(
        &done("will the milk still be ok by friday")[..],
        [Act::ExpiryOf { .. }]
    ));
    // A change said with a negation is still not done.
    not_done("dont add milk to the list");
}

#[test]
fn a_request_read_whole_beside_a_question_nothing_reads_is_done_and_the_question_said_back() {
    let out = read_after(
        "put the paneer tikka on tonight. kids wont eat it if its too spicy tho can i skip the chili powder",
        &Before::default(),
    );
    let Move::Do(r) = out.decision else {
        panic!("{:?}", out.decision);
    };
    assert!(matches!(&r.acts[..], [Act::PlanPut { .. }]), "{:?}", r.acts);
    assert!(
        r.unanswered
            .as_deref()
            .is_some_and(|q| q.contains("skip the chili powder")),
        "{:?}",
        r.unanswered
    );
    // A question that names a day may change the request: not done.
    not_done("put the wings on friday. or would saturday be better for it?");
}

#[test]
fn how_the_user_lives_with_a_thing_beside_a_request_is_a_remark() {
    assert!(matches!(
        &done("move the butter to the freezer, we barely use it")[..],
        [Act::StockMove { .. }]
    ));
    assert!(matches!(
        &done("take the olive oil off the list, ill just use veg oil")[..],
        [Act::ShoppingRemove { .. }]
    ));
}

#[test]
fn a_day_said_after_a_tasks_title_ends_reads_without_a_fault() {
    for m in [
        "remind me to defrost the chicken and put the wings on friday",
        "add a task to clean the oven and then plan the pad see ew for next saturday",
        "remind me to buy eggs, and the curry on sunday",
    ] {
        let _ = decide(m);
    }
}

#[test]
fn a_message_after_a_decline_is_read_afresh_not_as_its_answer() {
    use crate::context::{Dialogue, Question, QuestionKind};
    let before = Before {
        user: "hmm take the curry off".into(),
        dialogue: Dialogue {
            question: Some(Question {
                kind: QuestionKind::Confirm,
                text: "I couldn't read “hmm take the curry off” as something I can do here. I can do “how much yellow curry paste have i got” — want that?".into(),
                request: "how much yellow curry paste have i got".into(),
                candidates: Vec::new(),
            }),
            ..Dialogue::default()
        },
        ..Before::default()
    };
    let scene = Scene {
        names: names(),
        before: &before,
        labels: HashMap::new(),
    };
    let d = super::decline::decline(
        "take the wings off",
        &scene,
        super::decline::Answered::Nothing,
    )
    .expect("declined");
    assert!(d.asked.is_none(), "{d:?}");
    assert!(!d.reply().contains("I asked"), "{}", d.reply());
}

#[test]
fn a_recipe_and_a_day_beside_a_question_word_are_not_a_plan() {
    writes_nothing("thai tomorrow which");
    writes_nothing("the wings friday what");
    writes_nothing("thai tomorrow that");
    // Said plainly, they are.
    assert!(matches!(
        &done("thai yellow curry tomorrow")[..],
        [Act::PlanPut { .. }]
    ));
}

#[test]
fn punctuation_said_aloud_ends_the_sentence_it_closes() {
    // Dictated: "full stop" closes the plan; the add after it is read on
    // its own.
    let acts = done("put the wings on friday full stop add 2 limes to the list full stop");
    assert!(
        matches!(&acts[..], [Act::PlanPut { days, .. }, Act::ShoppingAdd { items }]
            if days == &["friday"] && items[0].quantity == Some(2.0)),
        "{acts:?}"
    );
    // "question mark" asks; a word that only sounds like one stays.
    let lex = super::lexicon::lexicon();
    let closed = std::collections::HashSet::new();
    let n = super::normalize::normalize("is it on there question mark", lex, &closed);
    assert!(
        n.question && n.words() == ["is", "it", "on", "there"],
        "{n:?}"
    );
    let n = super::normalize::normalize("comma the marks question", lex, &closed);
    assert!(!n.question && n.words()[0] == "comma", "{n:?}");
}

#[test]
fn words_joined_by_a_hyphen_are_read_as_the_names_split_them() {
    let acts = done("push the chinese broccoli pick-up to friday");
    assert!(
        matches!(&acts[..], [Act::TaskMove { task, day }]
            if task == "Pick up Chinese broccoli and Thai basil" && day == "friday"),
        "{acts:?}"
    );
}

#[test]
fn a_plan_for_just_me_is_for_one() {
    for m in [
        "put the pad see ew on tomorrow, just me",
        "put the pad see ew on tomorrow only for me",
        "put the pad see ew on tomorrow for myself",
    ] {
        let acts = done(m);
        assert!(
            matches!(
                &acts[..],
                [Act::PlanPut {
                    servings: Some(1),
                    ..
                }]
            ),
            "{m}: {acts:?}"
        );
    }
}

#[test]
fn two_said_as_to_or_too_after_a_verb_is_an_amount() {
    let acts = done("i used too cans of the chickpeas");
    assert!(
        matches!(&acts[..], [Act::StockUse { items }]
            if items[0].quantity == Some(2.0) && items[0].unit.as_deref() == Some("can")),
        "{acts:?}"
    );
    // Never the "to" of a place.
    let acts = done("move the naan to the freezer");
    assert!(matches!(&acts[..], [Act::StockMove { .. }]), "{acts:?}");
}

#[test]
fn a_take_back_said_mid_sentence_amends_or_drops_what_it_follows() {
    let acts = done("put the wings on saturday no sorry sunday");
    assert!(
        matches!(&acts[..], [Act::PlanPut { days, .. }] if days == &["sunday"]),
        "{acts:?}"
    );
    // Nothing said in its place: the add is not made.
    writes_nothing("add milk to the list wait no we have milk");
    writes_nothing("remind me to defrost the chicken friday no wait scratch that");
}

#[test]
fn an_amount_is_not_carried_into_a_later_sentences_food() {
    // The 500 ml is the milk's, said in another sentence than the limes:
    // never "500 ml lime".
    let d = decide("milks more like 500ml now. and put the limes on the counter");
    let Move::Do(r) = &d else {
        panic!("{d:?}");
    };
    assert!(
        matches!(&r.acts[..], [Act::StockSet { row, quantity, .. }, Act::StockMove { rows, .. }]
            if row == "milk" && *quantity == 500.0 && rows == &["lime"]),
        "{d:?}"
    );
    // An amount nothing in its sentence can take is left unread, not
    // given to the next sentence's food.
    let d = decide("about 500ml. and put the limes on the counter");
    assert!(
        !matches!(&d, Move::Do(r) if r.writes()),
        "a write with an amount it could not place is not done: {d:?}"
    );
    let acts = done("add 2 limes, 3 lemons and bread to the list");
    let [Act::ShoppingAdd { items }] = acts.as_slice() else {
        panic!("{acts:?}");
    };
    let amounts: Vec<Option<f64>> = items.iter().map(|i| i.quantity).collect();
    assert_eq!(amounts, [Some(2.0), Some(3.0), None]);
}

#[test]
fn a_verb_inside_a_recipes_name_is_no_verb() {
    // "see" of "pad see ew": the recipe and its day, with no verb said.
    let acts = done("pad see ew thursday");
    assert!(
        matches!(&acts[..], [Act::PlanPut { recipe, days, .. }]
            if recipe == "Thai Pad See Ew" && days == &["thursday"]),
        "{acts:?}"
    );
}

#[test]
fn one_count_for_every_dish_is_read_as_their_servings() {
    for m in [
        "put the wings on friday lunch and the paneer tikka saturday dinner, 4 servings each",
        "plan the miso cod for friday dinner, 4 servings, and the wings for saturday lunch, also 4",
    ] {
        let acts = done(m);
        assert!(
            acts.len() == 2
                && acts.iter().all(|a| matches!(
                    a,
                    Act::PlanPut {
                        servings: Some(4),
                        ..
                    }
                )),
            "{m}: {acts:?}"
        );
    }
}

#[test]
fn what_is_missing_for_it_after_a_plan_is_for_the_dish_just_planned() {
    // The talk was about the yellow curry; "it" is the dish this message
    // plans.
    let before = Before {
        last_recipe: Some("recipe_5".into()),
        ..Before::default()
    };
    let labels = [(
        "recipe_5",
        crate::context::Table::Recipes,
        "Thai Yellow Curry",
    )];
    let out = read_with(
        "and pad see ew saturday, then add whatevers missing for it to the list",
        &before,
        &labels,
    );
    let Move::Do(r) = out.decision else {
        panic!("{:?}", out.decision);
    };
    assert!(
        r.acts
            .iter()
            .any(|a| matches!(a, Act::ShoppingMissing { recipe } if recipe == "Thai Pad See Ew")),
        "{:?}",
        r.acts
    );
}

#[test]
fn what_a_row_holds_said_as_news_sets_it() {
    for (m, row, q) in [
        ("the jasmine rice is down to 300g", "jasmine rice", 300.0),
        ("yogurt more like 200g now", "greek yogurt", 200.0),
        ("we only have 2 cod fillets", "cod fillet", 2.0),
    ] {
        let acts = done(m);
        assert!(
            matches!(&acts[..], [Act::StockSet { row: r, quantity, .. }] if r == row && *quantity == q),
            "{m}: {acts:?}"
        );
    }
}

#[test]
fn a_request_taken_back_at_its_end_is_not_carried_out() {
    for m in [
        "remind me to buy rice tomorrow no wait ive got rice havent i scratch that",
        "remind me to order more eggs friday oh wait never mind",
        "add eggs to the list, nvm",
    ] {
        writes_nothing(m);
    }
    // The title stops where the take-back starts.
    let d = decide("remind me to order more eggs friday oh wait never mind");
    let Move::Confirm { reading, .. } = &d else {
        panic!("asked about, not done: {d:?}");
    };
    assert!(
        matches!(&reading.acts[..], [Act::TaskAdd { title, .. }] if title == "Order more eggs"),
        "{d:?}"
    );
}

#[test]
fn who_a_plan_is_for_said_after_it_is_its_servings() {
    for m in [
        "put the wings on saturday no sorry sunday, just me",
        "put the wings on sunday, just me",
    ] {
        let acts = done(m);
        assert!(
            matches!(&acts[..], [Act::PlanPut { servings: Some(1), days, .. }] if days == &["sunday"]),
            "{m}: {acts:?}"
        );
    }
}

#[test]
fn a_word_in_a_list_of_names_is_never_a_remark() {
    // "zorbles" is an item the reader could not read: asked about, naming
    // it, never dropped while "limes" is added.
    let Move::Confirm { question, .. } = decide("add zorbles and limes to the list") else {
        panic!("asked about");
    };
    assert!(question.contains("zorbles"), "{question}");
}

/// The last exchange after a reply that showed one recipe's card and
/// offered "Want to put it on the plan, or tweak it?".
fn card_shown(recipe_ref: &str) -> Before {
    use crate::context::{Dialogue, Offer, OfferKind, Shown};
    Before {
        user: "show me the cod".into(),
        dialogue: Dialogue {
            presented: vec![Shown::new(recipe_ref, "")],
            offer: Some(Offer {
                kind: OfferKind::PutOnPlan,
                items: Vec::new(),
            }),
            ..Dialogue::default()
        },
        presented: vec![recipe_ref.into()],
        last_recipe: Some(recipe_ref.into()),
        ..Before::default()
    }
}

#[test]
fn an_answer_to_an_offer_to_plan_plans_the_recipe_on_the_day_it_says() {
    use crate::context::Table;
    let before = card_shown("recipe_5");
    let labels = [("recipe_5", Table::Recipes, "Kerala Cod Curry")];
    for (m, day, meal, servings) in [
        ("sure, thursday", "thursday", None, None),
        (
            "yeah go on, sat lunch for 3",
            "saturday",
            Some("lunch"),
            Some(3),
        ),
        ("ok friday for 4", "friday", None, Some(4)),
    ] {
        match read_with(m, &before, &labels).decision {
            Move::Do(r) => assert_eq!(
                r.acts,
                [Act::PlanPut {
                    recipe: "Kerala Cod Curry".into(),
                    days: vec![day.into()],
                    meal: meal.map(str::to_string),
                    servings,
                }],
                "{m:?}"
            ),
            other => panic!("{m:?} was not done: {other:?}"),
        }
    }
    // Turned around, hedged or asked, or a request of its own: not an
    // answer that plans.
    for m in [
        "no not thursday",
        "maybe thursday",
        "thursday?",
        "add milk to the list",
    ] {
        let d = read_with(m, &before, &labels).decision;
        assert!(
            !matches!(&d, Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::PlanPut { .. }))),
            "{m:?} planned: {d:?}"
        );
    }
}

#[test]
fn a_plan_with_no_day_asks_for_the_day_and_the_answer_completes_it() {
    use crate::context::{Dialogue, Question, QuestionKind};
    let question = match decide("plan the tikka bites") {
        Move::Choose { question, reading } => {
            assert!(
                matches!(reading.acts.as_slice(), [Act::PlanPut { days, .. }] if days.is_empty())
            );
            question
        }
        other => panic!("not asked: {other:?}"),
    };
    assert_eq!(question, "Which day should Chicken Tikka Bites go on?");
    // Cooking said with no day is not a plan at all.
    not_done("im making the tikka bites");
    let asked = Before {
        user: "plan the tikka bites".into(),
        dialogue: Dialogue {
            question: Some(Question {
                kind: QuestionKind::Open,
                text: question,
                request: "plan the tikka bites".into(),
                candidates: Vec::new(),
            }),
            ..Dialogue::default()
        },
        ..Before::default()
    };
    match read_after("wednesday for 4", &asked).decision {
        Move::Do(r) => assert_eq!(
            r.acts,
            [Act::PlanPut {
                recipe: "Chicken Tikka Bites".into(),
                days: vec!["wednesday".into()],
                meal: None,
                servings: Some(4),
            }]
        ),
        other => panic!("not done: {other:?}"),
    }
}

#[test]
fn swap_them_after_two_meals_were_planned_trades_their_days() {
    use crate::context::Table;
    let before = Before {
        user: "plan pad see ew monday and the tikka bites thursday".into(),
        written: vec!["meal_1".into(), "meal_2".into()],
        touched: vec!["meal_1".into(), "meal_2".into()],
        ..Before::default()
    };
    let labels = [
        ("meal_1", Table::MealPlans, "Mon Jan 19 [dinner]"),
        ("meal_2", Table::MealPlans, "Thu Jan 15 [dinner]"),
    ];
    match read_with("actually swap them", &before, &labels).decision {
        Move::Do(r) => assert_eq!(
            r.acts,
            [Act::PlanExchange {
                days: vec!["dated_monday_19".into(), "dated_thursday_15".into()],
                meal: Some("dinner".into()),
            }]
        ),
        other => panic!("not done: {other:?}"),
    }
    // Two different meals, or one meal only: nothing to trade by pointer.
    let one = [("meal_1", Table::MealPlans, "Mon Jan 19 [dinner]")];
    let d = read_with("swap them", &before, &one).decision;
    assert!(!matches!(d, Move::Do(_)), "swapped one: {d:?}");
}

#[test]
fn a_use_by_date_said_is_set_and_one_asked_is_answered() {
    let set = |m: &str, row: &str, day: &str| {
        assert_eq!(
            done(m),
            [Act::ExpirySet {
                row: row.into(),
                day: day.into()
            }],
            "{m:?}"
        );
    };
    set("the milk goes off on the 14th", "milk", "of_month_14");
    set(
        "set the coriander's expiry to 2026-01-14",
        "coriander",
        "in_month_1_14",
    );
    set(
        "greek yogurt is good till jan 20",
        "greek yogurt",
        "in_month_1_20",
    );
    set(
        "the brioche expires tomorrow actually",
        "brioche",
        "tomorrow",
    );
    // Asked, it is answered; a plan's day is no use-by date.
    assert_eq!(
        done("when does the paneer go off"),
        [Act::ExpiryOf {
            items: vec!["paneer".into()]
        }]
    );
    writes_nothing("is the yogurt still good till the 20th?");
    let d = decide("change the curry to friday");
    assert!(
        !matches!(&d, Move::Do(r) | Move::Confirm { reading: r, .. } | Move::Choose { reading: r, .. }
            if r.acts.iter().any(|a| matches!(a, Act::ExpirySet { .. }))),
        "{d:?}"
    );
}

#[test]
fn an_amount_moved_is_part_of_the_row_and_an_amount_binned_is_a_use() {
    assert_eq!(
        done("moved 2 cod fillets to the fridge"),
        [Act::StockMovePart {
            row: "cod fillet".into(),
            quantity: 2.0,
            unit: None,
            to: "fridge".into()
        }]
    );
    assert_eq!(
        done("binned 2 limes, they went mouldy"),
        [Act::StockUse {
            items: vec![ItemSaid {
                name: "lime".into(),
                quantity: Some(2.0),
                unit: None
            }]
        }]
    );
    // "one of the fillets" is never the whole row moved.
    let d = decide("took one of the cod fillets out of the freezer into the fridge");
    assert!(
        !matches!(&d, Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::StockMove { .. }))),
        "{d:?}"
    );
}

#[test]
fn an_amount_of_the_last_words_is_read_without_running_past_the_end() {
    // "two of the" with nothing after it.
    for m in ["move two of the", "two of those", "take 2 of the"] {
        let _ = decide(m);
    }
}

#[test]
fn what_the_stock_holds_said_adds_it_or_sets_the_row_held() {
    assert_eq!(
        done("we have eggs actually, 6 of them, in the fridge"),
        [Act::InventoryAdd {
            items: vec![ItemSaid {
                name: "eggs".into(),
                quantity: Some(6.0),
                unit: None
            }],
            place: Some("fridge".into())
        }]
    );
    assert_eq!(
        done("ive got 300g of paneer"),
        [Act::StockSet {
            row: "paneer".into(),
            quantity: 300.0,
            unit: Some("g".into())
        }]
    );
    // Talk, not stock: nothing written.
    for m in [
        "i have a question about the curry",
        "i have 2 questions about the curry",
        "we have eggs",
        "do we need soy sauce? theres a deal on",
    ] {
        writes_nothing(m);
    }
}

#[test]
fn a_change_of_the_domain_on_screen_reads_before_one_of_another() {
    use crate::context::Table;
    let before = Before {
        user: "show my tasks".into(),
        touched: vec!["task_1".into(), "task_2".into()],
        presented: vec!["task_1".into(), "task_2".into()],
        ..Before::default()
    };
    let labels = [
        ("task_1", Table::Tasks, "Deep-clean the air fryer basket"),
        (
            "task_2",
            Table::Tasks,
            "Use up the paneer before it expires",
        ),
    ];
    match read_with("push the air fryer one to friday", &before, &labels).decision {
        Move::Do(r) => assert_eq!(
            r.acts,
            [Act::TaskMove {
                task: "Deep-clean the air fryer basket".into(),
                day: "friday".into()
            }]
        ),
        other => panic!("not done: {other:?}"),
    }
}

#[test]
fn adding_those_after_a_shortfall_was_shown_adds_the_shortfall() {
    let after = |last: &str| Before {
        user: last.into(),
        ..Before::default()
    };
    let missing = after("what do i need for the pad see ew");
    for m in ["add those to the list", "ok add them too", "add them pls"] {
        match read_after(m, &missing).decision {
            Move::Do(r) => assert_eq!(
                r.acts,
                [Act::ShoppingMissing {
                    recipe: "Thai Pad See Ew".into()
                }],
                "{m:?}"
            ),
            other => panic!("{m:?} was not done: {other:?}"),
        }
    }
    // "what do i need for it" of the recipe the talk is about.
    use crate::context::Table;
    let of_it = Before {
        user: "what do i need for it".into(),
        last_recipe: Some("recipe_8".into()),
        ..Before::default()
    };
    let labels = [("recipe_8", Table::Recipes, "Thai Pad See Ew")];
    match read_with("add those to the list", &of_it, &labels).decision {
        Move::Do(r) => assert_eq!(
            r.acts,
            [Act::ShoppingMissing {
                recipe: "Thai Pad See Ew".into()
            }]
        ),
        other => panic!("not done: {other:?}"),
    }
    // After anything else, "those" is not a shortfall; nor is an add that
    // names something of its own.
    let d = read_after("add those to the list", &after("show me the pad see ew")).decision;
    assert!(
        !matches!(&d, Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::ShoppingMissing { .. }))),
        "{d:?}"
    );
    let d = read_after("add those and milk", &missing).decision;
    assert!(
        !matches!(&d, Move::Do(r) if r.acts == [Act::ShoppingMissing { recipe: "Thai Pad See Ew".into() }]),
        "{d:?}"
    );
}

#[test]
fn a_reminder_about_it_names_the_food_said_and_keeps_the_day_part_out_of_its_title() {
    assert_eq!(
        done("cod's in the freezer right? remind me wed night to get it out"),
        [Act::TaskAdd {
            title: "Get the cod out".into(),
            day: Some("wednesday".into())
        }]
    );
    assert_eq!(
        done("remind me friday morning to defrost the wings"),
        [Act::TaskAdd {
            title: "Defrost the wings".into(),
            day: Some("friday".into())
        }]
    );
    // "them" with nothing said or shown to stand for: no task titled
    // "them".
    writes_nothing("remind me to get them out of the freezer the night before");
    // A pointer left unread is what the request is about, not a remark:
    // asked, never done.
    not_done("fine move em to the fridge ill do them tmrw after school");
}

#[test]
fn a_count_closing_a_plan_with_each_is_every_dishs_servings() {
    let acts = done("put the wings on sat lunch and the yellow curry on sun lunch, 2 each");
    assert!(
        acts.iter().all(|a| matches!(
            a,
            Act::PlanPut {
                servings: Some(2),
                ..
            }
        )),
        "{acts:?}"
    );
}

#[test]
fn a_plan_with_no_verb_after_a_word_of_approval_and_for_one() {
    for (m, recipe, servings) in [
        (
            "good. yellow curry sunday dinner, 3 person",
            "Thai Yellow Curry",
            Some(3),
        ),
        (
            "french toast tmrw for breakfast then, just for me",
            "Chai French Toast",
            Some(1),
        ),
        ("great. the wings friday", "Dry Rub Wings", None),
    ] {
        let acts = done(m);
        assert!(
            matches!(acts.as_slice(), [Act::PlanPut { recipe: r, servings: s, .. }] if r == recipe && *s == servings),
            "{m:?}: {acts:?}"
        );
    }
}

#[test]
fn a_clause_giving_the_requests_reason_is_not_read_against_it() {
    // "so …", "cause …" with a subject of its own, after the request.
    let acts = done("add 2 cans coconut milk to the list so im not left with nothing");
    assert!(
        matches!(&acts[..], [Act::ShoppingAdd { items }] if items.len() == 1 && items[0].quantity == Some(2.0)),
        "{acts:?}"
    );
    let acts = done("bin the coriander cause nobody will eat it");
    assert!(
        matches!(&acts[..], [Act::StockRemove { rows }] if rows == &["coriander"]),
        "{acts:?}"
    );
    // One that asks for more of its own is no reason.
    not_done("add lemons to the list because i need to remove the limes");
}

#[test]
fn a_verb_the_bin_shares_with_the_list_is_the_bins_unless_it_says_where() {
    let acts = done("coriander has gone slimy, chuck it");
    assert!(
        matches!(&acts[..], [Act::StockRemove { rows }] if rows == &["coriander"]),
        "{acts:?}"
    );
    let acts = done("chuck eggs on the list");
    assert!(matches!(&acts[..], [Act::ShoppingAdd { .. }]), "{acts:?}");
    // Said with where the things go, never a bin.
    let out = read_after("chuck a couple of lemons on as well", &Before::default());
    assert!(
        !out.readings
            .iter()
            .any(|r| r.acts.iter().any(|a| matches!(a, Act::StockRemove { .. }))),
        "{:?}",
        out.readings
    );
}

#[test]
fn a_kind_of_food_and_one_more_are_read_whole() {
    // "2kg chicken breast": one food, its amount said before the kind.
    let acts = done("add 30 eggs and 2kg chicken breast to the list");
    let [Act::ShoppingAdd { items }] = &acts[..] else {
        panic!("{acts:?}");
    };
    let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["eggs", "chicken breast"]);
    // "another block of", "one more": one, in its unit.
    let acts = done("add another block of paneer to the list and one more pepper");
    let [Act::ShoppingAdd { items }] = &acts[..] else {
        panic!("{acts:?}");
    };
    assert_eq!(items[0].quantity, Some(1.0));
    assert_eq!(items[0].unit.as_deref(), Some("block"));
    assert_eq!(items[1].quantity, Some(1.0));
}

#[test]
fn a_row_the_list_holds_asked_for_again_is_read_for_the_list_to_sort() {
    // Bought already, or still to buy: the list's own add decides (set
    // back to not bought, or "already on the list").
    let acts = done("add 500g greek yogurt to the list");
    assert!(
        matches!(&acts[..], [Act::ShoppingAdd { items }] if items[0].name == "greek yogurt"),
        "{acts:?}"
    );
}

#[test]
fn a_decline_offers_first_the_plan_its_words_read_in_part() {
    use super::decline::Answered;
    let d = declined(
        "ok: jonno cooks wed 14 (he said pad see ew), i cook thu 15 (wings). both for 2",
        Answered::Nothing,
    )
    .expect("declined");
    assert!(
        d.options
            .first()
            .is_some_and(|o| o.contains("Thai Pad See Ew") && o.contains("Dry Rub Wings")),
        "{:?}",
        d.options
    );
    // A change that takes rows away is never offered from part of the
    // words.
    let d = declined(
        "im on nights wed thu fri. need something i can batch cook tomorrow before my shift",
        Answered::Nothing,
    );
    assert!(
        d.iter()
            .flat_map(|d| &d.options)
            .all(|o| !o.contains("off the plan")),
        "{d:?}"
    );
}

#[test]
fn a_verb_that_starts_a_longer_one_is_read_as_the_longer() {
    // "get" of "get rid of": the list's removal, not an add.
    let out = read_after(
        "shopping list: get rid of the tomatoes and basil, keep the rest for when we're back",
        &Before::default(),
    );
    assert!(
        matches!(
            out.readings.first().map(|r| &r.acts[..]),
            Some([Act::ShoppingRemove { .. }])
        ),
        "{:?}",
        out.readings.first()
    );
}

#[test]
fn dishes_paired_with_days_said_apart_from_them_are_asked_about() {
    let Move::Confirm { question, .. } =
        decide("i want pad see ew, sam wants the yellow curry. we do both, one wed one sun")
    else {
        panic!("asked about");
    };
    assert!(
        question.contains("Thai Pad See Ew") && question.contains("order you said"),
        "{question}"
    );
    // Each dish said with its day is no guess.
    let acts = done("yellow curry on the sunday, tikka bites on the wed, 4 servings each");
    assert_eq!(acts.len(), 2, "{acts:?}");
}

#[test]
fn an_amount_after_another_changes_verb_is_that_changes() {
    // "is now 120 g" sets the ginger; the use said after it is not of 120 g.
    let out = read_after(
        "record that the ginger on the counter is now 120 g; i used 30 g yesterday",
        &Before::default(),
    );
    assert!(
        !out.readings.iter().any(|r| r.acts.iter().any(
            |a| matches!(a, Act::StockUse { items } if items.iter().any(|i| i.quantity == Some(120.0)))
        )),
        "{:?}",
        out.readings
    );
    assert!(
        matches!(out.readings.first().map(|r| &r.acts[..]), Some([Act::StockSet { quantity, .. }]) if *quantity == 120.0),
        "{:?}",
        out.readings.first()
    );
}

#[test]
fn a_use_said_of_all_of_a_row_needs_no_amount() {
    for m in [
        "used the last of the milk",
        "used all the coconut milk",
        "we used the rest of the yogurt",
    ] {
        let acts = done(m);
        assert!(
            matches!(&acts[..], [Act::StockUse { items }] if items.len() == 1 && items[0].quantity.is_none()),
            "{m}: {acts:?}"
        );
    }
    // Without a word that says all of it, how much is asked; "a whole
    // can" is one can, not the whole row.
    not_done("used the coconut milk");
    let acts = done("used a whole can of coconut milk");
    assert!(
        matches!(&acts[..], [Act::StockUse { items }] if items[0].quantity == Some(1.0) && items[0].unit.as_deref() == Some("can")),
        "{acts:?}"
    );
}

#[test]
fn whether_there_is_enough_for_a_recipe_is_asked_at_the_servings_said() {
    assert_eq!(
        done("got enough greek yogurt for the paneer tikka?"),
        [Act::RecipeAmount {
            recipe: "Air Fryer Paneer Tikka".into(),
            food: "greek yogurt".into(),
            servings: None
        }]
    );
    assert_eq!(
        done("is there enuf cod for the kerala curry for 8"),
        [Act::RecipeAmount {
            recipe: "Kerala Cod Curry".into(),
            food: "cod fillet".into(),
            servings: Some(8)
        }]
    );
    // Two foods: one question each.
    let acts = done("do we have enough rice noodles and egg for the pad see ew");
    assert_eq!(acts.len(), 2, "{acts:?}");
    assert_eq!(
        done("what am i missing for the tikka bites at 10 servings"),
        [Act::RecipeMissing {
            recipe: "Chicken Tikka Bites".into(),
            servings: Some(10)
        }]
    );
}

#[test]
fn how_many_a_plan_is_for_said_in_the_next_part_is_read_with_it() {
    let acts = done("sunday the miso cod, make it 3");
    assert!(
        matches!(&acts[..], [Act::PlanPut { servings: Some(3), days, .. }] if days == &["sunday"]),
        "{acts:?}"
    );
    let acts = done("put the pad see ew on monday. make that 5 please");
    assert!(
        matches!(
            &acts[..],
            [Act::PlanPut {
                servings: Some(5),
                ..
            }]
        ),
        "{acts:?}"
    );
    // Not a count: "make it spicy" is no servings.
    not_done("sunday the miso cod, make it spicy");
}

#[test]
fn recipes_named_by_a_kind_said_before_the_word_recipes_are_found_by_it() {
    assert_eq!(
        done("what are our chicken recipes"),
        [Act::FindRecipes {
            word: "chicken".into()
        }]
    );
    assert_eq!(
        done("got any quick recipes?"),
        [Act::FindRecipes {
            word: "quick".into()
        }]
    );
    // "thai" is a kind here, not the thai basil on the list.
    assert_eq!(
        done("list my thai recipes"),
        [Act::FindRecipes {
            word: "thai".into()
        }]
    );
    assert_eq!(done("show all my recipes"), [Act::ListRecipes]);
}

#[test]
fn the_plan_or_the_tasks_asked_after_by_a_question_word_are_shown() {
    assert!(matches!(
        &done("what's the meal plan")[..],
        [Act::ShowPlan { .. }]
    ));
    assert!(matches!(
        &done("how does the plan look")[..],
        [Act::ShowPlan { .. }]
    ));
    assert_eq!(done("what's due?"), [Act::ShowTasks]);
    // Enough, asked against a dish only the talk could name, is no stock
    // lookup.
    assert!(
        !read_after("is there enough rice for it", &Before::default())
            .readings
            .iter()
            .any(|r| matches!(&r.acts[..], [Act::HowMuch { .. }])),
    );
}

#[test]
fn a_saved_recipe_said_cooked_takes_what_it_used() {
    assert_eq!(
        done("we made the chicken tikka bites last night"),
        [Act::RecipeCooked {
            recipe: "Chicken Tikka Bites".into(),
            servings: None
        }]
    );
    assert_eq!(
        done("just cooked the pad see ew for 3"),
        [Act::RecipeCooked {
            recipe: "Thai Pad See Ew".into(),
            servings: Some(3)
        }]
    );
    // A dish word is the dish, never the row whose name holds the word.
    writes_nothing("i made a curry last night");
    let d = decide("i made a curry last night");
    assert!(matches!(d, Move::Choose { .. }), "{d:?}");
}

#[test]
fn a_list_after_another_places_word_and_a_colon_is_no_task_list() {
    writes_nothing("add to my prefs: goal is high protein, ~180g a day");
    assert_eq!(done("add: descale kettle sat, buy eggs").len(), 2);
}

#[test]
fn next_week_said_with_the_days_plans_them_in_next_week() {
    let acts = done("planning next wk's dinners: mon chicken tikka bites, tue paneer tikka");
    let days = first_days(&acts);
    assert_eq!(days, ["next_monday", "next_tuesday"], "{acts:?}");
}

#[test]
fn a_lack_said_before_the_add_is_its_reason_but_a_need_is_not() {
    for m in [
        "we dont have milk, put some on the list",
        "ive got no limes, add 3 to the list",
    ] {
        assert!(matches!(&done(m)[..], [Act::ShoppingAdd { .. }]), "{m:?}");
    }
    // "have to" is a need: nothing is added.
    writes_nothing("we dont have to buy eggs");
}

/// The rules `m` is read as keeping: each as "no TERM" or the diet kept.
fn rules_of(m: &str) -> Vec<String> {
    use crate::brain::offline::items::Refusal;
    let acts = done(m);
    match acts.as_slice() {
        [Act::RuleOut { rules }] => rules
            .iter()
            .map(|e| match e.how {
                Refusal::Requires => e.term.clone(),
                _ => format!("no {}", e.term),
            })
            .collect(),
        other => panic!("{m:?} was read as {other:?}"),
    }
}

#[test]
fn a_rule_said_as_one_is_read_with_what_it_rules_out() {
    assert_eq!(rules_of("no cod this week"), ["no cod"]);
    assert_eq!(
        rules_of("my sister is allergic to peanuts, keep that in mind"),
        ["no peanuts"]
    );
    assert_eq!(
        rules_of("sam cant have dairy, remember that for next time"),
        ["no dairy"]
    );
    assert_eq!(rules_of("we're vegetarian from now on"), ["vegetarian"]);
    assert_eq!(
        rules_of("no fish or meat for the rest of the week please"),
        ["no fish", "no meat"]
    );
    assert_eq!(rules_of("my husband doesnt eat pork"), ["no pork"]);
    assert_eq!(rules_of("nothing spicy for the kids pls"), ["no spicy"]);
}

#[test]
fn a_lack_a_question_or_an_answer_is_no_rule() {
    // What the kitchen holds or lacks is not what the household eats.
    not_done("we have no eggs");
    not_done("no milk left");
    // A question states no rule.
    not_done("is the curry dairy free?");
    not_done("can she have nuts?");
    // Words the closed world does not know are no term to rule out.
    not_done("no thanks");
    not_done("not now");
    // A plain "no X" while Alfred's question is open answers it.
    let before = confirm_asked("plan the cod", "plan Kerala Cod Curry tonight?");
    assert!(!matches!(
        read_after("no cod", &before).decision,
        Move::Do(r) if matches!(r.acts.as_slice(), [Act::RuleOut { .. }])
    ));
}

#[test]
fn a_lack_is_told_from_a_rule_clause_by_clause() {
    use super::rules::lack_said;
    let lex = super::lexicon::lexicon();
    assert!(lack_said("we have no eggs", lex));
    assert!(lack_said("no milk left", lex));
    assert!(!lack_said(
        "no wings tho thats a game day thing. which ones are left",
        lex
    ));
    assert!(!lack_said(
        "leave out anything with fish, and the breakfast one",
        lex
    ));
    assert!(!lack_said("she cant have dairy", lex));
}

#[test]
fn an_amount_or_a_date_of_a_row_both_tables_hold_is_the_stocks() {
    // Greek yogurt is in the fridge and on the list: a weight or a date is
    // only the stock's to hold.
    assert!(matches!(
        done("please set the greek yogurt to 480 g. i weighed the tub this morning").as_slice(),
        [Act::StockSet { row, quantity, .. }] if row == "greek yogurt" && *quantity == 480.0
    ));
    assert!(matches!(
        done("the greek yogurt goes off on the 20th").as_slice(),
        [Act::ExpirySet { row, .. }] if row == "greek yogurt"
    ));
}

#[test]
fn what_is_wanted_after_a_refusal_is_not_ruled_out() {
    // "just chicken": wanted, so the message is no rule of the reader's.
    let d = decide("ugh. ok nah no fish then, just stuff w chicken or that paneer");
    assert!(
        !matches!(&d, Move::Do(r) if r.acts.iter().any(|a| matches!(a, Act::RuleOut { rules } if rules.iter().any(|e| e.term == "chicken")))),
        "{d:?}"
    );
}

#[test]
fn a_taking_away_said_again_of_a_pointer_is_the_same_request() {
    assert!(matches!(
        done("we used the last of the naan last night so take them off").as_slice(),
        [Act::StockUse { .. } | Act::StockRemove { .. }]
    ));
    assert!(matches!(
        done("got the tomatoes and chinese broccoli. tick em").as_slice(),
        [Act::ShoppingBought { rows }] if rows.len() == 2
    ));
}

#[test]
fn a_task_title_holding_a_day_or_a_no_and_two_dishes_in_one_slot_are_never_written() {
    // The list was not parted where it should be: nothing written from it.
    writes_nothing(
        "set prep tasks: marinate the chicken wed night, thaw cod thu night and sat night",
    );
    writes_nothing(
        "add: defrost freezer sat / descale kettle, no date / sharpen knives wednesday next week",
    );
    // A slot holds one meal: two dishes read into it were paired wrongly.
    writes_nothing(
        "ok fine kerala it is. final answer. and put the miso cod tomorrow so i dont forget about it",
    );
    // A plain list still is one task each.
    assert_eq!(
        done("add: defrost cod thurs night, descale kettle sat, buy eggs").len(),
        3
    );
}
