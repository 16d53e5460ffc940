use serde_json::{Value, json};

use super::StrictSchema;
use crate::brain::llm::wire::CompressOutput;
use crate::pipeline::{ActAction, SummarizeOutput, ThinkOutput, UnderstandOutput};

fn all() -> Vec<StrictSchema> {
    vec![
        StrictSchema::of::<UnderstandOutput>("understand_output"),
        StrictSchema::of::<ThinkOutput>("think_output"),
        StrictSchema::of::<ActAction>("act_action"),
        StrictSchema::of::<SummarizeOutput>("summarize_output"),
        StrictSchema::of::<CompressOutput>("compress_output"),
    ]
}

/// Every rule of strict mode, checked on one subschema and its children.
fn violations(node: &Value, path: &str, out: &mut Vec<String>) {
    let Some(obj) = node.as_object() else {
        out.push(format!("{path}: not an object schema: {node}"));
        return;
    };
    for banned in ["oneOf", "$schema", "$ref", "default", "allOf"] {
        if obj.contains_key(banned) {
            out.push(format!("{path}: has {banned}"));
        }
    }
    let typed = obj.contains_key("type") || obj.contains_key("anyOf");
    if !typed {
        out.push(format!("{path}: no type"));
    }
    let types = match obj.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(String::from))
            .collect(),
        _ => vec![],
    };
    if types.iter().any(|t| t == "number" || t == "integer") && obj.contains_key("format") {
        out.push(format!("{path}: numeric format"));
    }
    // A grammar-enforcing server writes any integer the schema allows.
    if types.iter().any(|t| t == "integer")
        && !(obj.contains_key("minimum") && obj.contains_key("maximum"))
    {
        out.push(format!("{path}: an integer without both bounds"));
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        let required: Vec<&str> = obj["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for key in props.keys() {
            if !required.contains(&key.as_str()) {
                out.push(format!("{path}: {key} not required"));
            }
        }
        if obj.get("additionalProperties") != Some(&json!(false)) {
            out.push(format!("{path}: additionalProperties is not false"));
        }
        for (key, prop) in props {
            violations(prop, &format!("{path}.{key}"), out);
        }
    }
    if let Some(items) = obj.get("items") {
        violations(items, &format!("{path}[]"), out);
    }
    if let Some(branches) = obj.get("anyOf").and_then(Value::as_array) {
        for (i, b) in branches.iter().enumerate() {
            violations(b, &format!("{path}|{i}"), out);
        }
    }
}

#[test]
fn every_node_schema_is_in_the_strict_subset() {
    for s in all() {
        assert_eq!(
            s.schema["type"], "object",
            "{}: root must be an object",
            s.name
        );
        let mut found = Vec::new();
        violations(&s.schema, s.name, &mut found);
        assert!(
            found.is_empty(),
            "{}:\n{}\n{:#}",
            s.name,
            found.join("\n"),
            s.schema
        );
    }
}

#[test]
fn act_variants_become_one_object_with_the_action_as_an_enum() {
    let s = StrictSchema::of::<ActAction>("act_action");
    let action = &s.schema["properties"]["action"];
    assert_eq!(
        action["enum"],
        json!(["tool_call", "step_complete", "ask_user", "blocked"])
    );
    let desc = s.schema["description"].as_str().unwrap();
    assert!(desc.contains("tool_call: Call a CRUD tool"), "{desc}");
    // A field of one variant only may be null in the others.
    assert_eq!(
        s.schema["properties"]["question"]["type"],
        json!(["string", "null"])
    );
    // Free-form values travel as JSON text.
    assert_eq!(s.schema["properties"]["params"]["type"], "string");
    assert_eq!(s.schema["properties"]["data"]["type"], "string");
}

#[test]
fn json_text_fields_decode_back_into_the_value() {
    let s = StrictSchema::of::<ActAction>("act_action");
    let mut answer = json!({
        "action": "tool_call", "tool": "db_read",
        "params": "{\"table\": \"recipes\", \"limit\": 5}",
        "data": "null", "result_summary": null, "note_for_next_step": null,
        "question": null, "reason_code": null, "details": null
    });
    s.decode(&mut answer);
    let action: ActAction = serde_json::from_value(answer).unwrap();
    assert_eq!(
        action,
        ActAction::ToolCall {
            tool: "db_read".into(),
            params: json!({"table": "recipes", "limit": 5})
        }
    );
    // Prose stays prose; structured values (json_object mode) stay as they are.
    let mut prose = json!({"action": "step_complete", "result_summary": "ok", "data": "6 fit", "params": {"a": 1}});
    s.decode(&mut prose);
    assert_eq!(prose["data"], "6 fit");
    assert_eq!(prose["params"], json!({"a": 1}));
}

#[test]
fn documented_enums_become_string_enums_and_numbers_lose_their_format() {
    let s = StrictSchema::of::<ThinkOutput>("think_output");
    let decision = &s.schema["properties"]["decision"];
    assert_eq!(decision["type"], "string");
    assert_eq!(
        decision["enum"],
        json!(["plan_direct", "propose", "clarify"])
    );
    assert!(
        decision["description"]
            .as_str()
            .unwrap()
            .contains("propose: Propose first")
    );
    let group = &s.schema["properties"]["steps"]["items"]["properties"]["group"];
    assert_eq!(group["type"], "integer");
    assert!(group.get("format").is_none(), "{group}");
    assert_eq!(
        (&group["minimum"], &group["maximum"]),
        (&json!(0), &json!(7))
    );
    assert_eq!(s.schema["properties"]["steps"]["maxItems"], 8);
    // Schemas carry no row ids or anything but structure and descriptions.
    let text = s.schema.to_string();
    assert!(!text.contains("$schema") && !text.contains("\"default\""));
}
