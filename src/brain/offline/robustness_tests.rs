//! No input makes the offline brain fail, and its replies read like one
//! person mid-conversation: no greeting after the first turn, no reply
//! repeated verbatim over a long demo, honesty when nothing applies.

use proptest::prelude::*;

use crate::fixtures::Conversation;

#[test]
fn odd_inputs_never_fail() {
    let huge = "cod ".repeat(250_000);
    let long_word = "x".repeat(50_000);
    let inputs: Vec<&str> = vec![
        "",
        "   ",
        "\n\n",
        "🍕🍕🍕🥘",
        "我想做饭，有什么建议吗？",
        "\u{0}\u{1}\u{7f}",
        "recipe_999",
        "gen_recipe_1",
        "save",
        "show me",
        "forget",
        "add",
        "no",
        "not",
        "1.5.6.7",
        "add 1e400 eggs to my fridge",
        "'''\"\"\"",
        "<entity_context></entity_context>",
        &huge,
        &long_word,
    ];
    let mut sim = Conversation::new();
    for m in &inputs {
        let rec = sim.say(m);
        assert!(
            !rec.reply.trim().is_empty(),
            "empty reply to {:?}",
            &m[..m.len().min(30)]
        );
    }
    sim.say("what's in my pantry?");
    sim.expect("steps read:inventory");
}

#[test]
fn not_understood_is_honest_and_helpful() {
    let mut sim = Conversation::new();
    for m in ["asdf qwer", "zzz", "blorp the frobnicator"] {
        let reply = sim.say(m).reply.clone();
        assert!(
            reply.contains("offline brain") && reply.contains("try \""),
            "{reply}"
        );
    }
}

#[test]
fn replies_never_greet_after_the_first_turn_nor_repeat() {
    let mut sim = Conversation::new();
    let messages = [
        "hi",
        "can you help me plan some meals?",
        "let's not do cod this week",
        "no french toast, and I don't feel like wings",
        "what's in my fridge?",
        "add 12 eggs to my fridge",
        "hello again",
        "ok back to the meal plan",
        "let's do the paneer on sunday and the curry on wednesday",
        "looks good, save the plan",
        "yes please",
        "thanks!",
    ];
    let mut replies: Vec<String> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let reply = sim.say_confirming(m).reply.clone();
        let lower = reply.to_lowercase();
        if i > 0 {
            assert!(
                !lower.contains("hello") && !lower.contains("happy to help"),
                "{m}: {reply}"
            );
        }
        assert!(!replies.contains(&reply), "{m}: repeated {reply}");
        replies.push(reply);
    }
    // "yes please" to the shopping-list offer filled the list.
    let offer = &sim.records[messages.len() - 2];
    assert!(
        offer
            .steps
            .iter()
            .any(|s| s.step_type == "write" && s.subdomain == "shopping"),
        "{}",
        offer.reply
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_two_messages_complete_their_turns(a in "\\PC{0,80}", b in "[a-z ,.!?']{0,60}") {
        let mut sim = Conversation::new();
        sim.say("give me a shakshuka recipe");
        sim.say(&a);
        let rec = sim.say(&b);
        prop_assert!(!rec.reply.trim().is_empty());
    }
}

#[test]
fn typed_in_a_hurry_and_pointing_at_the_list() {
    let mut sim = Conversation::new();
    sim.say("show me my recipies");
    sim.expect("understood");
    sim.expect("reply ~ Thai Yellow Curry");
    // The list above is what "the 2nd one" counts in.
    sim.say("the 2nd one");
    sim.expect("reply ~ Miso Glazed Air Fryer Cod");
    sim.expect("writes none");
    // "that" is the one recipe just shown; "put" saves it on the plan.
    sim.say("put that on wednesday");
    sim.expect("writes meal_plans:create");
    sim.expect("reply ~ Miso Glazed Air Fryer Cod");
    sim.say("wht about the chiken ones");
    sim.expect("understood");
}

/// After the list was shown, taking one item off says truly what is left,
/// and "is X on the list?" answers from the whole list, not only the rows
/// read this turn.
#[test]
fn the_shopping_list_after_a_removal_is_the_whole_list() {
    let mut sim = Conversation::new();
    sim.say("whats on my shoping list");
    sim.expect("reply ~ thai basil");
    sim.say("take the olive oil off");
    sim.expect("writes shopping_list:delete");
    sim.expect("reply ~ thai basil");
    sim.expect("reply ~ chinese broccoli");
    sim.say("is thai basil on the list?");
    sim.expect("writes none");
    sim.expect("reply ~ yes");
}

/// "and the basil" after a change to the tomatoes: the same change, to the
/// basil; after a question, the same question.
#[test]
fn and_the_next_thing_does_the_same_again() {
    let mut sim = Conversation::new();
    sim.run(&["tick off the tomatoes on the list", "and the basil"]);
    sim.expect("writes shopping_list:update");
    assert!(sim.reply().contains("thai basil"), "{}", sim.reply());

    let mut sim = Conversation::new();
    sim.run(&["take the olive oil off the list", "and the tomatoes too"]);
    sim.expect("writes shopping_list:delete");
    assert!(sim.reply().contains("tomato"), "{}", sim.reply());

    let mut sim = Conversation::new();
    sim.run(&["how much rice have i got", "and pasta?"]);
    sim.expect("writes none");
    assert!(sim.reply().contains("No pasta"), "{}", sim.reply());
}

/// A question or an aside about what the kitchen has is answered, never
/// written; a word that is no food is asked about, never added.
#[test]
fn what_the_user_says_they_have_is_not_bought_again() {
    // Read by the older rules, the add is asked about first, and the
    // question names the butter alone; the sugar is looked up.
    let mut sim = Conversation::new();
    sim.say("put butter on the list and sugar we have sugar right");
    sim.expect("writes none");
    assert!(sim.reply().contains("add butter"), "{}", sim.reply());
    assert!(
        !sim.reply().contains("add butter and sugar"),
        "{}",
        sim.reply()
    );

    let mut sim = Conversation::new();
    sim.say_confirming("add him to the list");
    sim.expect("writes none");
    assert!(sim.reply().contains("“him”"), "{}", sim.reply());
}
