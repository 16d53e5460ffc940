//! The seeds' meal-planning conversation (turns 1–3) as a model would
//! answer it, scripted on the fake server: the offline brain's decisions
//! written as model outputs, plus streamed replies. Shared by the pipeline
//! test and the bench.

use serde_json::{Value, json};

use super::{FakeOpenAi, Node};

/// The messages of the three turns.
pub const MESSAGES: [&str; 3] = [
    "can you help me plan some meals?",
    "let's not do cod this week",
    "let's not do the french toast or wings",
];

/// The reasons the excluded recipes carry: the user's clause, quoted.
pub const FRENCH_TOAST: &str = "“let's not do the french toast or wings”";
pub const WINGS: &str = FRENCH_TOAST;
pub const COD: &str = "“let's not do cod this week”";

fn options(refs: &[(&str, &str)]) -> Value {
    refs.iter()
        .map(|(r, name)| json!({"ref": r, "name": name}))
        .collect()
}

/// What the model answers, turn by turn (the offline brain's decisions, as
/// a model would write them).
pub fn script(fake: &FakeOpenAi) {
    // 1. "can you help me plan some meals?" → a proposal.
    fake.answer(
        Node::Understand,
        json!({"what_user_expressed": "wants help planning meals"}),
    );
    fake.answer(
        Node::Think,
        json!({
            "goal": "Plan meals for the week", "decision": "propose",
            "proposal_message": "Pick from your saved recipes, or try something new?"
        }),
    );
    fake.reply("You usually cook on Sundays and Wednesdays. Want to pick from your saved recipes (you have 9), or try something new?");
    // 2. "let's not do cod this week" → read both tables at once, then analyze.
    fake.answer(
        Node::Understand,
        json!({
            "constraints": {"add": [{"clause": "let's not do cod this week", "rule": "exclude",
                "kind": "ingredient", "value": "cod", "refs": []}], "lift": [], "except": []},
            "what_user_expressed": "wants to exclude cod"
        }),
    );
    fake.answer(Node::Think, json!({
        "goal": "Leave out cod and show what's left", "decision": "plan_direct",
        "steps": [
            {"description": "Read the saved recipes", "step_type": "read", "subdomain": "recipes", "group": 0},
            {"description": "Read the inventory", "step_type": "read", "subdomain": "inventory", "group": 0},
            {"description": "Leave out cod and show what's left", "step_type": "analyze", "subdomain": "recipes", "group": 1}
        ]
    }));
    fake.answer_act(
        "Read the saved recipes",
        vec![
            json!({"action": "tool_call", "tool": "db_read", "params": {"table": "recipes"}}),
            json!({"action": "step_complete", "result_summary": "Found 9 recipes"}),
        ],
    );
    fake.answer_act(
        "Read the inventory",
        vec![
            json!({"action": "tool_call", "tool": "db_read", "params": {"table": "inventory"}}),
            json!({"action": "step_complete", "result_summary": "Found 59 items"}),
        ],
    );
    fake.answer_act("Leave out cod", vec![json!({
        "action": "step_complete", "result_summary": "6 recipes fit without cod",
        "data": {
            "options": options(&[("recipe_3", "Air Fryer Paneer Tikka"), ("recipe_4", "Chicken Tikka Bites"),
                ("recipe_5", "Chai French Toast"), ("recipe_6", "Dry Rub Wings"),
                ("recipe_8", "Thai Pad See Ew"), ("recipe_9", "Thai Yellow Curry")]),
            "excluded": {"Kerala Cod Curry": COD, "Miso Glazed Air Fryer Cod": COD, "Cod Assam Pedas": COD}
        }
    })]);
    fake.reply("Got it — no cod this week. Here are the 6 options left:\n- Air Fryer Paneer Tikka\n- Chicken Tikka Bites\n- Chai French Toast\n- Dry Rub Wings\n- Thai Pad See Ew\n- Thai Yellow Curry\n\nWhich ones sound good?");
    // 3. "let's not do the french toast or wings" → two standing
    // constraints, analyze what is loaded.
    fake.answer(Node::Understand, json!({
        "entity_mentions": [
            {"text": "french toast", "resolution": "inferred", "resolved_ref": "recipe_5", "candidates": []},
            {"text": "wings", "resolution": "inferred", "resolved_ref": "recipe_6", "candidates": []}
        ],
        "constraints": {"add": [
            {"clause": "let's not do the french toast or wings", "rule": "exclude", "kind": "entity", "value": "", "refs": ["recipe_5"]},
            {"clause": "let's not do the french toast or wings", "rule": "exclude", "kind": "ingredient", "value": "wings", "refs": []}
        ], "lift": [], "except": []},
        "what_user_expressed": "wants to exclude french toast and wings"
    }));
    fake.answer(Node::Think, json!({
        "goal": "Leave out french toast and wings and show what's left", "decision": "plan_direct",
        "steps": [{"description": "Narrow the options without french toast and wings", "step_type": "analyze", "subdomain": "recipes", "group": 0}]
    }));
    fake.answer_act("Narrow the options", vec![json!({
        "action": "step_complete", "result_summary": "4 recipes fit without french toast or wings",
        "data": {
            "options": options(&[("recipe_3", "Air Fryer Paneer Tikka"), ("recipe_4", "Chicken Tikka Bites"),
                ("recipe_8", "Thai Pad See Ew"), ("recipe_9", "Thai Yellow Curry")]),
            "excluded": {"Chai French Toast": FRENCH_TOAST, "Dry Rub Wings": WINGS}
        }
    })]);
    fake.reply("Got it — no Chai French Toast or Dry Rub Wings this week.\n\nThat leaves 4 solid options:\n- Air Fryer Paneer Tikka\n- Chicken Tikka Bites\n- Thai Pad See Ew\n- Thai Yellow Curry\n\nWhich two should we put on Sunday and Wednesday?");
}
