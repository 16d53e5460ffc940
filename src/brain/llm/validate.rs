//! Checks a model's answer against its strict schema before it is decoded,
//! so every mode enforces what `json_schema` mode enforces on the server:
//! every property present, every value of its type, enums and bounds kept.
//! In `json_object` mode (older Ollama and vLLM) nothing else would: `{}`
//! would deserialize into an empty answer.
//!
//! Each problem names the field by its path (`steps[1].group`) and quotes
//! what was found, so the repair request tells the model exactly what to
//! fix. Extra properties are ignored (serde ignores them too). Pure.

use serde_json::Value;

/// At most this many problems are quoted; the rest are counted.
const SHOWN: usize = 3;

/// The problems of `value` against `schema`, in one sentence part, or `Ok`.
/// Properties named in `encoded` travel as JSON text and may hold any value
/// (a `json_object` answer sends them structured).
pub fn check(schema: &Value, value: &Value, encoded: &[String]) -> Result<(), SchemaProblems> {
    let mut found = Vec::new();
    walk(schema, value, "", encoded, &mut found);
    if found.is_empty() {
        return Ok(());
    }
    let more = found.len().saturating_sub(SHOWN);
    found.truncate(SHOWN);
    Err(SchemaProblems { shown: found, more })
}

/// How an answer misses its schema: the first few fields that are wrong,
/// each in words, and how many more there are. Displayed as one sentence
/// part ("`steps[0].subdomain`: … ; … (and 2 more)").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblems {
    /// At most [`SHOWN`] problems, in the order found.
    pub shown: Vec<String>,
    /// The problems found beyond those.
    pub more: usize,
}

impl std::fmt::Display for SchemaProblems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown.join("; "))?;
        if self.more > 0 {
            write!(f, " (and {} more)", self.more)?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaProblems {}

fn walk(schema: &Value, value: &Value, path: &str, encoded: &[String], out: &mut Vec<String>) {
    let Some(s) = schema.as_object() else {
        return;
    };
    if let Some(branches) = s.get("anyOf").and_then(Value::as_array) {
        // Passes if one branch does; otherwise the first non-null branch
        // says what was wanted.
        let mut first = None;
        for b in branches {
            let mut found = Vec::new();
            walk(b, value, path, encoded, &mut found);
            if found.is_empty() {
                return;
            }
            if first.is_none() && b.get("type") != Some(&Value::String("null".into())) {
                first = Some(found);
            }
        }
        out.extend(first.unwrap_or_default());
        return;
    }
    if let Some(allowed) = s.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            out.push(format!(
                "{} is {}, not one of {}",
                field(path),
                quote(value),
                allowed.iter().map(quote).collect::<Vec<_>>().join(", ")
            ));
        }
        return;
    }
    let types = type_names(s);
    if !types.is_empty() && !types.iter().any(|t| is_type(value, t)) {
        out.push(format!(
            "{} is {}, expected {}",
            field(path),
            quote(value),
            expected(&types)
        ));
        return;
    }
    match value {
        Value::Number(n) => bounds(s, n, path, out),
        Value::Array(items) => {
            if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
                && items.len() as u64 > max
            {
                out.push(format!(
                    "{} has {} items, more than the {max} allowed",
                    field(path),
                    items.len()
                ));
            }
            if let Some(item) = s.get("items") {
                for (i, v) in items.iter().enumerate() {
                    walk(item, v, &format!("{path}[{i}]"), encoded, out);
                }
            }
        }
        Value::Object(map) => {
            let Some(props) = s.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (name, prop) in props {
                let at = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                match map.get(name) {
                    None => out.push(format!("{} is missing", field(&at))),
                    Some(_) if encoded.iter().any(|e| e == name) => {}
                    Some(v) => walk(prop, v, &at, encoded, out),
                }
            }
        }
        _ => {}
    }
}

fn bounds(
    s: &serde_json::Map<String, Value>,
    n: &serde_json::Number,
    path: &str,
    out: &mut Vec<String>,
) {
    let Some(x) = n.as_f64() else {
        return;
    };
    if let Some(min) = s.get("minimum").and_then(Value::as_f64)
        && x < min
    {
        out.push(format!("{} is {n}, below the minimum {min}", field(path)));
    }
    if let Some(max) = s.get("maximum").and_then(Value::as_f64)
        && x > max
    {
        out.push(format!("{} is {n}, above the maximum {max}", field(path)));
    }
}

fn type_names(s: &serde_json::Map<String, Value>) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => true,
    }
}

/// "a string or null", "an integer".
fn expected(types: &[&str]) -> String {
    let named: Vec<&str> = types
        .iter()
        .map(|t| match *t {
            "null" => "null",
            "boolean" => "true or false",
            "string" => "a string",
            "array" => "an array",
            "object" => "an object",
            "number" => "a number",
            "integer" => "a whole number",
            other => other,
        })
        .collect();
    named.join(" or ")
}

/// The field's name as the model wrote it; the answer itself at the root.
fn field(path: &str) -> String {
    if path.is_empty() {
        "the answer".into()
    } else {
        format!("\"{path}\"")
    }
}

/// A value as quoted back: short, on one line.
fn quote(value: &Value) -> String {
    let text = match value {
        Value::Object(m) if m.is_empty() => return "an empty object {}".into(),
        Value::Object(_) => return "an object".into(),
        Value::Array(a) if a.is_empty() => return "an empty array []".into(),
        Value::Array(_) => return "an array".into(),
        other => other.to_string(),
    };
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn think_like() -> Value {
        json!({
            "type": "object",
            "properties": {
                "goal": {"type": "string"},
                "decision": {"type": "string", "enum": ["plan_direct", "propose", "clarify"]},
                "proposal_message": {"type": ["string", "null"]},
                "steps": {
                    "type": "array", "maxItems": 2,
                    "items": {
                        "type": "object",
                        "properties": {
                            "group": {"type": "integer", "minimum": 0, "maximum": 7},
                            "params": {"type": "string"}
                        }
                    }
                }
            }
        })
    }

    #[test]
    fn an_empty_answer_names_every_missing_field() {
        let problems = check(&think_like(), &json!({}), &[]).unwrap_err();
        assert_eq!((problems.shown.len(), problems.more), (3, 1));
        let e = problems.to_string();
        assert_eq!(
            e,
            "\"decision\" is missing; \"goal\" is missing; \"proposal_message\" is missing \
             (and 1 more)"
        );
        let e = check(&think_like(), &json!({"type": "string"}), &[])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("\"decision\" is missing"), "{e}");
    }

    #[test]
    fn bounds_enums_and_types_quote_the_field_and_the_value() {
        let s = think_like();
        let answer = |group: Value, decision: &str| {
            json!({"goal": "g", "decision": decision, "proposal_message": null,
                   "steps": [{"group": 0, "params": "{}"}, {"group": group, "params": "{}"}]})
        };
        assert_eq!(check(&s, &answer(json!(3), "propose"), &[]), Ok(()));
        assert_eq!(
            check(&s, &answer(json!(4501269387021u64), "propose"), &[])
                .unwrap_err()
                .to_string(),
            "\"steps[1].group\" is 4501269387021, above the maximum 7"
        );
        assert_eq!(
            check(&s, &answer(json!(-1), "propose"), &[])
                .unwrap_err()
                .to_string(),
            "\"steps[1].group\" is -1, below the minimum 0"
        );
        assert_eq!(
            check(&s, &answer(json!(1.5), "propose"), &[])
                .unwrap_err()
                .to_string(),
            "\"steps[1].group\" is 1.5, expected a whole number"
        );
        assert_eq!(
            check(&s, &answer(json!(1), "planning"), &[])
                .unwrap_err()
                .to_string(),
            "\"decision\" is \"planning\", not one of \"plan_direct\", \"propose\", \"clarify\""
        );
        let mut long = answer(json!(1), "propose");
        long["steps"]
            .as_array_mut()
            .unwrap()
            .push(json!({"group": 0, "params": "{}"}));
        assert_eq!(
            check(&s, &long, &[]).unwrap_err().to_string(),
            "\"steps\" has 3 items, more than the 2 allowed"
        );
        let mut nulls = answer(json!(1), "propose");
        nulls["proposal_message"] = json!(7);
        assert_eq!(
            check(&s, &nulls, &[]).unwrap_err().to_string(),
            "\"proposal_message\" is 7, expected a string or null"
        );
    }

    #[test]
    fn json_text_fields_may_come_structured_and_extras_are_ignored() {
        let s = think_like();
        let answer = json!({"goal": "g", "decision": "clarify", "proposal_message": null,
            "steps": [{"group": 0, "params": {"table": "recipes"}}], "extra": 1});
        assert!(check(&s, &answer, &[]).is_err());
        assert_eq!(check(&s, &answer, &["params".into()]), Ok(()));
        assert_eq!(
            check(&s, &json!([]), &[]).unwrap_err().to_string(),
            "the answer is an empty array [], expected an object"
        );
    }
}
