//! Scenario scripts: user messages, one a line, with `#=` expectations about
//! the turn each follows (the language of `assets/scenarios/README.md`), and
//! the checks of those expectations against turn records (as JSON).
//!
//! Pure: no IO. The scenario tests, the offline brain's tests and the
//! evaluation arena all read scripts through here.

use serde_json::Value;

/// One `#=` line of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// 1-based line in the script.
    pub line: usize,
    /// The expectation, without `#=`.
    pub text: String,
}

/// One message of a script and the expectations about its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptTurn {
    pub message: String,
    pub expectations: Vec<Expectation>,
    /// The capability the turn exercises (`#= cap planning`): a label for
    /// grouping results, not something checked.
    pub cap: Option<String>,
}

/// Parses a script: one message a line; `#` comments and blank lines are
/// skipped; `#=` lines are expectations about the message above them (one
/// before the first message has no turn and is ignored).
pub fn parse_script(script: &str) -> Vec<ScriptTurn> {
    let mut turns: Vec<ScriptTurn> = Vec::new();
    for (i, raw) in script.lines().enumerate() {
        let line = raw.trim();
        if let Some(e) = line.strip_prefix("#=") {
            let e = e.trim();
            if let Some(last) = turns.last_mut() {
                match e.strip_prefix("cap ") {
                    Some(cap) => last.cap = Some(cap.trim().to_string()),
                    None => last.expectations.push(Expectation {
                        line: i + 1,
                        text: e.to_string(),
                    }),
                }
            }
        } else if !line.is_empty() && !line.starts_with('#') {
            turns.push(ScriptTurn {
                message: line.to_string(),
                expectations: Vec::new(),
                cap: None,
            });
        }
    }
    turns
}

fn lower(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_lowercase()
}

fn group<'a>(rec: &'a Value, state: &str) -> Vec<&'a Value> {
    rec["entities"][state]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn find_entity<'a>(rec: &'a Value, r: &str) -> Option<&'a Value> {
    ["recent", "retained", "pending", "excluded", "background"]
        .iter()
        .flat_map(|s| group(rec, s))
        .find(|e| e["ref"] == r)
}

fn in_group(rec: &Value, state: &str, r: &str) -> bool {
    if state == "dropped" {
        return rec["entities"]["dropped"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == r));
    }
    group(rec, state).iter().any(|e| e["ref"] == r)
}

/// Checks one expectation; `Err` says what was found instead.
pub fn check(rec: &Value, text: &str) -> Result<(), String> {
    let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
    let rest = rest.trim();
    match verb {
        "decision" => (rec["decision"] == rest)
            .then_some(())
            .ok_or(format!("decision was {}", rec["decision"])),
        "status" => (rec["status"] == rest)
            .then_some(())
            .ok_or(format!("status was {}", rec["status"])),
        "steps" => {
            let got: Vec<String> = rec["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| format!("{}:{}", lower(&s["step_type"]), lower(&s["subdomain"])))
                .collect();
            let want: Vec<String> = if rest == "none" {
                Vec::new()
            } else {
                rest.split(',').map(|s| s.trim().to_string()).collect()
            };
            (got == want)
                .then_some(())
                .ok_or(format!("steps were {got:?}"))
        }
        "no-read" => {
            let reads: Vec<String> = rec["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|s| s["tool_calls"].as_array().cloned().unwrap_or_default())
                .filter(|c| c["tool"] == "db_read")
                .map(|c| lower(&c["table"]))
                .collect();
            (!reads.iter().any(|t| t == rest))
                .then_some(())
                .ok_or(format!("db_read of {rest} happened ({reads:?})"))
        }
        "recent" | "retained" | "pending" | "excluded" | "background" | "dropped" => {
            let missing: Vec<&str> = rest
                .split_whitespace()
                .filter(|r| !in_group(rec, verb, r))
                .collect();
            missing.is_empty().then_some(()).ok_or_else(|| {
                let states: Vec<String> = missing
                    .iter()
                    .map(|r| format!("{r}: {}", state_of(rec, r)))
                    .collect();
                format!("not {verb}: {}", states.join(", "))
            })
        }
        "not-active" => {
            let active: Vec<&str> = rest
                .split_whitespace()
                .filter(|r| {
                    ["recent", "retained", "pending"]
                        .iter()
                        .any(|s| in_group(rec, s, r))
                })
                .collect();
            active
                .is_empty()
                .then_some(())
                .ok_or(format!("still active: {active:?}"))
        }
        "reason" => {
            let (r, needle) = rest.split_once('~').ok_or("reason needs `REF ~ TEXT`")?;
            let e = find_entity(rec, r.trim()).ok_or(format!("{} not found", r.trim()))?;
            let reason = lower(&e["reason"]);
            reason
                .contains(&needle.trim().to_lowercase())
                .then_some(())
                .ok_or(format!("reason was {:?}", e["reason"]))
        }
        "action" => {
            let (r, action) = rest.split_once(' ').ok_or("action needs `REF ACTION`")?;
            let e = find_entity(rec, r).ok_or(format!("{r} not found"))?;
            (e["action"] == action.trim())
                .then_some(())
                .ok_or(format!("action was {}", e["action"]))
        }
        "reply" => {
            let reply = lower(&rec["reply"]);
            if let Some(n) = rest.strip_prefix("!~") {
                (!reply.contains(&n.trim().to_lowercase()))
                    .then_some(())
                    .ok_or(format!("reply contains {:?}", n.trim()))
            } else if let Some(n) = rest.strip_prefix('~') {
                reply
                    .contains(&n.trim().to_lowercase())
                    .then_some(())
                    .ok_or(format!("reply was {:?}", rec["reply"]))
            } else {
                Err("reply needs `~ TEXT` or `!~ TEXT`".into())
            }
        }
        "writes" => check_writes(rec, rest),
        "understood" => {
            let reply = lower(&rec["reply"]);
            (!reply.contains(NOT_UNDERSTOOD))
                .then_some(())
                .ok_or(format!("not understood: {:?}", rec["reply"]))
        }
        "asks" => {
            let writes = writes_of(rec);
            let reply = rec["reply"].as_str().unwrap_or_default().trim_end();
            if !writes.is_empty() {
                Err(format!("wrote {writes:?} instead of asking"))
            } else if !reply.ends_with('?') {
                Err(format!("no question at the end: {:?}", rec["reply"]))
            } else {
                Ok(())
            }
        }
        "presents" | "not-presented" => {
            let shown = presented(rec);
            let needle = rest.to_lowercase();
            let stated = rec["narrative"]["turns"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|t| t["turn_number"] == rec["turn"] && t.get("dialogue").is_some());
            // A record from before dialogue states: the reply's list lines.
            let found = if stated {
                shown.iter().any(|l| l.to_lowercase().contains(&needle))
            } else {
                lower(&rec["reply"])
                    .lines()
                    .filter(|l| {
                        let l = l.trim_start();
                        l.starts_with("- ") || l.starts_with("• ") || l.starts_with("* ")
                    })
                    .any(|l| l.contains(&needle))
            };
            (found == (verb == "presents"))
                .then_some(())
                .ok_or(format!("presented {shown:?}"))
        }
        "active-count" => {
            let (ty, n) = rest.split_once(' ').ok_or("active-count needs `TYPE N`")?;
            let n: usize = n
                .trim()
                .parse()
                .map_err(|_| "active-count needs a number")?;
            let got = ["recent", "retained", "pending"]
                .iter()
                .flat_map(|s| group(rec, s))
                .filter(|e| e["type"] == ty)
                .count();
            (got == n).then_some(()).ok_or(format!("{got} active {ty}"))
        }
        other => Err(format!("unknown expectation `{other}`")),
    }
}

/// The words of the offline brain's last-resort reply, which the
/// `understood` expectation looks for.
pub const NOT_UNDERSTOOD: &str = "didn't catch that";

/// The labels the turn's reply presented, in order (its dialogue state in
/// the narrative).
pub fn presented(rec: &Value) -> Vec<String> {
    rec["narrative"]["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["turn_number"] == rec["turn"])
        .flat_map(|t| {
            t["dialogue"]["presented"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|s| s["label"].as_str().map(String::from))
        .collect()
}

/// Every write of a turn as `table:op` (`shopping_list:create`), in order.
pub fn writes_of(rec: &Value) -> Vec<String> {
    rec["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["tool_calls"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["error"].is_null())
        .filter_map(|c| {
            let op = c["tool"].as_str()?.strip_prefix("db_")?.to_string();
            (op != "read").then(|| format!("{}:{op}", lower(&c["table"])))
        })
        .collect()
}

/// `writes none`, or `writes TABLE:OP,…`: exactly these kinds of write
/// happened (each at least once, nothing else).
fn check_writes(rec: &Value, rest: &str) -> Result<(), String> {
    let got = writes_of(rec);
    let want: Vec<String> = if rest == "none" {
        Vec::new()
    } else {
        rest.split(',').map(|s| s.trim().to_lowercase()).collect()
    };
    let same = got.iter().all(|g| want.contains(g)) && want.iter().all(|w| got.contains(w));
    same.then_some(()).ok_or(format!("writes were {got:?}"))
}

fn state_of(rec: &Value, r: &str) -> String {
    [
        "recent",
        "retained",
        "pending",
        "excluded",
        "background",
        "dropped",
    ]
    .iter()
    .find(|s| in_group(rec, s, r))
    .map(|s| s.to_string())
    .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_parse_into_turns_with_their_expectations() {
        let turns = parse_script(
            "#= ignored\n# comment\nhello\n#= decision propose\n\nno cod\n#= steps none\n",
        );
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[0].message, "hello");
        assert_eq!(
            turns[0].expectations,
            vec![Expectation {
                line: 4,
                text: "decision propose".into()
            }]
        );
        assert_eq!(turns[1].expectations[0].line, 7);
        // A capability is the turn's label, not an expectation: checking
        // `cap` would always pass.
        let labelled = parse_script("plan my week\n#= cap planning\n#= steps none\n");
        assert_eq!(labelled[0].cap.as_deref(), Some("planning"));
        assert_eq!(labelled[0].expectations.len(), 1);
        assert!(check(&serde_json::json!({}), "cap planning").is_err());
    }

    #[test]
    fn expectations_pass_and_fail_as_they_should() {
        let rec: Value = serde_json::json!({"decision": "propose", "steps": [], "reply": "Got it",
            "entities": {"recent": [{"ref": "recipe_3", "type": "recipe", "action": "read"}], "excluded": [{"ref": "recipe_5", "reason": "user said no french toast"}], "dropped": []}});
        assert!(check(&rec, "decision propose").is_ok());
        assert!(check(&rec, "decision clarify").is_err());
        assert!(check(&rec, "steps none").is_ok());
        assert!(check(&rec, "reason recipe_5 ~ French Toast").is_ok());
        assert!(check(&rec, "reason recipe_5 ~ wings").is_err());
        assert!(check(&rec, "excluded recipe_5").is_ok());
        assert!(check(&rec, "recent recipe_5").is_err());
        assert!(check(&rec, "not-active recipe_5").is_ok());
        assert!(check(&rec, "active-count recipe 1").is_ok());
        assert!(check(&rec, "reply !~ hello").is_ok());
        assert!(check(&rec, "frobnicate x").is_err());
        assert!(check(&rec, "writes none").is_ok());
        assert!(check(&rec, "asks").is_err(), "no question mark");
        assert!(check(&rec, "understood").is_ok());
    }

    #[test]
    fn writes_and_questions_are_read_from_the_tool_calls() {
        let rec: Value = serde_json::json!({"reply": "Which one do you mean?", "steps": [
            {"tool_calls": [{"tool": "db_read", "table": "recipes", "rows": 9},
                            {"tool": "db_create", "table": "shopping_list", "rows": 2},
                            {"tool": "db_update", "table": "tasks", "rows": 0, "error": "no such column"}]}]});
        assert_eq!(writes_of(&rec), vec!["shopping_list:create"]);
        assert!(check(&rec, "writes shopping_list:create").is_ok());
        assert!(check(&rec, "writes none").is_err());
        assert!(check(&rec, "writes shopping_list:create,tasks:update").is_err());
        assert!(
            check(&rec, "asks").is_err(),
            "a turn that wrote did not only ask"
        );
        let asked: Value = serde_json::json!({"reply": "Which one do you mean?\n", "steps": []});
        assert!(check(&asked, "asks").is_ok());
        let shown: Value = serde_json::json!({"turn": 2, "narrative": {"turns": [
            {"turn_number": 1, "dialogue": {"presented": [{"ref": "recipe_9", "label": "Thai Yellow Curry"}]}},
            {"turn_number": 2, "dialogue": {"presented": [{"ref": "recipe_8", "label": "Thai Pad See Ew"}]}}]}});
        assert!(check(&shown, "presents pad see ew").is_ok());
        assert!(
            check(&shown, "not-presented yellow curry").is_ok(),
            "turn 1's list is not this turn's"
        );
        assert!(check(&shown, "not-presented Pad See Ew").is_err());
        let lost: Value = serde_json::json!({"reply": "Sorry, I didn't catch that.", "steps": []});
        assert!(check(&lost, "understood").is_err());
    }
}
