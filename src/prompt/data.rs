//! Step data as prompt text: each earlier step's rows as compact JSON, one row
//! per line, under a shared row cap; generated artifacts in full and marked
//! NOT YET SAVED; written rows marked SAVED.
//!
//! Used by Act (`data_to_analyze`) and Reply (`execution_results`). Pure.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Data an earlier step of this turn produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepData {
    /// 0-based index of the step in the plan.
    pub step_index: usize,
    pub description: String,
    /// Rows (an array) or one value (an analysis, an artifact).
    pub content: serde_json::Value,
}

/// Rows shown across all steps before the rest is only counted.
pub const DATA_ROW_CAP: usize = 200;

/// The status a step's data carries, from its step type.
fn marker(step_type: Option<&str>) -> &'static str {
    match step_type {
        Some("generate") => " — generated, NOT YET SAVED (shown in full)",
        Some("write") => " — SAVED",
        _ => "",
    }
}

/// The rows of a value: an array's items, or the value itself.
fn rows(content: &Value) -> Vec<&Value> {
    match content {
        Value::Array(items) => items.iter().collect(),
        Value::Null => Vec::new(),
        other => vec![other],
    }
}

/// Renders each step's data; `step_type(i)` gives the type of step `i`
/// (0-based), `empty` is the text when there is no data at all.
pub fn render_step_data<'a>(
    data: &[StepData],
    step_type: impl Fn(usize) -> Option<&'a str>,
    empty: &str,
) -> String {
    if data.is_empty() {
        return empty.to_string();
    }
    let mut budget = DATA_ROW_CAP;
    let mut out = Vec::new();
    for d in data {
        let kind = step_type(d.step_index);
        let rows = rows(&d.content);
        let count = match &d.content {
            Value::Array(_) => format!(
                " ({} row{})",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" }
            ),
            _ => String::new(),
        };
        out.push(format!(
            "### Step {}: {}{count}{}",
            d.step_index + 1,
            d.description.trim(),
            marker(kind)
        ));
        if rows.is_empty() {
            out.push("(no rows)".to_string());
        }
        // Generated artifacts are always shown whole: the reply must present
        // them in full and a following write step saves exactly them.
        let cap = if kind == Some("generate") {
            rows.len()
        } else {
            budget.min(rows.len())
        };
        out.extend(rows[..cap].iter().map(|r| compact(r)));
        if cap < rows.len() {
            let more = rows.len() - cap;
            out.push(format!(
                "…and {more} more row{}",
                if more == 1 { "" } else { "s" }
            ));
        }
        if kind != Some("generate") {
            budget -= cap;
        }
        out.push(String::new());
    }
    out.join("\n")
}

/// Fields the store sets that no step reasons about: left out of prompt rows.
const STORE_STAMPS: [&str; 2] = ["created_at", "updated_at"];

/// One value as compact JSON on one line, without null fields or the
/// store's timestamps (they cost tokens and change between runs).
pub fn compact(v: &Value) -> String {
    let slim = slim(v);
    serde_json::to_string(&slim).unwrap_or_else(|_| slim.to_string())
}

/// `v` with null object fields and store timestamps removed, at every depth.
fn slim(v: &Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, v)| !v.is_null() && !STORE_STAMPS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), slim(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(slim).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn step(i: usize, desc: &str, content: Value) -> StepData {
        StepData {
            step_index: i,
            description: desc.into(),
            content,
        }
    }

    #[test]
    fn rows_are_one_per_line_and_capped_across_steps() {
        let many: Vec<Value> = (1..=250)
            .map(|n| json!({"ref": format!("inv_{n}")}))
            .collect();
        let data = [
            step(0, "Read inventory", Value::Array(many)),
            step(1, "Read recipes", json!([{"ref": "recipe_1"}])),
        ];
        let text = render_step_data(&data, |_| Some("read"), "none");
        assert!(text.contains("### Step 1: Read inventory (250 rows)"));
        assert!(text.contains("{\"ref\":\"inv_200\"}\n…and 50 more rows"));
        assert!(!text.contains("inv_201\""));
        assert!(text.contains("### Step 2: Read recipes (1 row)\n…and 1 more row\n"));
    }

    #[test]
    fn generated_artifacts_are_whole_and_marked_unsaved() {
        let data = [
            step(
                0,
                "Draft a curry",
                json!({"name": "Thai Curry", "steps": ["a", "b"]}),
            ),
            step(
                1,
                "Save it",
                json!([{"ref": "gen_recipe_1", "saved": true}]),
            ),
        ];
        let types = ["generate", "write"];
        let text = render_step_data(&data, |i| types.get(i).copied(), "none");
        assert!(text.contains("Draft a curry — generated, NOT YET SAVED (shown in full)\n{\"name\":\"Thai Curry\",\"steps\":[\"a\",\"b\"]}"));
        assert!(text.contains("### Step 2: Save it (1 row) — SAVED"));
        assert_eq!(render_step_data(&[], |_| None, "No data."), "No data.");
    }

    #[test]
    fn rows_leave_out_nulls_and_store_timestamps_at_every_depth() {
        let row = json!({"ref": "recipe_3", "source_url": null, "created_at": "2026-11-29T05:44:30Z",
            "ingredients": [{"name": "paneer", "notes": null, "updated_at": "x"}], "tags": []});
        assert_eq!(
            compact(&row),
            r#"{"ingredients":[{"name":"paneer"}],"ref":"recipe_3","tags":[]}"#
        );
    }
}
