//! JSON Schemas for structured output in OpenAI's strict mode, generated
//! from the nodes' output types with schemars, and the decoding that undoes
//! what strict mode forced on the answer.
//!
//! Strict mode accepts a subset of JSON Schema: the root is an object, every
//! object lists all its properties as required and sets
//! `additionalProperties: false`, every subschema has a type, and `oneOf`,
//! `$schema`, `default` and numeric `format`s are not allowed. schemars emits
//! all of those, so [`StrictSchema::of`] rewrites its output:
//! - a root `oneOf` of tagged variants (Act's decision) becomes one flat
//!   object: the tag's values as an enum, every other property nullable;
//! - a `oneOf` of constant strings (an enum with documented variants) becomes
//!   a string enum;
//! - a property of any type (`serde_json::Value`: tool parameters, step data)
//!   becomes a string holding JSON text, which [`StrictSchema::decode`] turns
//!   back into a value before the answer is deserialized.
//!
//! Pure: no IO. The schemas are built once per brain.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

/// The note added to a property the model must send as JSON text.
const JSON_TEXT_NOTE: &str = "Write this value as JSON text inside the string, \
     e.g. \"{\\\"table\\\": \\\"recipes\\\"}\"; use \"null\" when there is nothing.";

/// A named strict schema and the properties that travel as JSON text.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictSchema {
    /// The `json_schema.name` sent to the server: `think_output`, …
    pub name: &'static str,
    /// The schema itself.
    pub schema: Value,
    /// Property names whose values are JSON text to decode.
    encoded: Vec<String>,
}

impl StrictSchema {
    /// The strict schema of `T`, named `name`.
    pub fn of<T: JsonSchema>(name: &'static str) -> Self {
        let generator = SchemaSettings::draft2020_12()
            .with(|s| {
                s.meta_schema = None;
                s.inline_subschemas = true;
            })
            .into_generator();
        let mut schema = generator.into_root_schema_for::<T>().to_value();
        flatten_tagged_root(&mut schema);
        let mut encoded = Vec::new();
        tighten(&mut schema, None, &mut encoded);
        encoded.sort();
        encoded.dedup();
        Self {
            name,
            schema,
            encoded,
        }
    }

    /// Checks an answer (before [`StrictSchema::decode`]) against the
    /// schema: every property present, of its type, within its enum and
    /// bounds. The error names each field that is wrong.
    pub fn check(&self, answer: &Value) -> Result<(), super::validate::SchemaProblems> {
        super::validate::check(&self.schema, answer, &self.encoded)
    }

    /// Turns the JSON-text properties of an answer back into values. Text that
    /// is not JSON stays a string (an analysis may answer in prose); a value
    /// that is already structured (json_object mode) is left as it is.
    pub fn decode(&self, answer: &mut Value) {
        match answer {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if self.encoded.iter().any(|e| e == key)
                        && let Value::String(text) = value
                        && let Ok(parsed) = serde_json::from_str::<Value>(text)
                    {
                        *value = parsed;
                    } else {
                        self.decode(value);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.decode(v)),
            _ => {}
        }
    }
}

/// Merges a root `oneOf`/`anyOf` of object variants into one object.
fn flatten_tagged_root(schema: &mut Value) {
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    let Some(Value::Array(variants)) = root.remove("oneOf").or_else(|| root.remove("anyOf")) else {
        return;
    };
    let mut properties = Map::new();
    let mut counts: Map<String, Value> = Map::new();
    let mut notes = Vec::new();
    for variant in &variants {
        let required: Vec<&str> = variant["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let Some(props) = variant["properties"].as_object() else {
            continue;
        };
        for (name, prop) in props {
            let tag = constant_of(prop);
            if let Some(tag) = &tag {
                let desc = variant["description"].as_str().unwrap_or("");
                notes.push(format!("{tag}: {desc}"));
            }
            match properties.get_mut(name) {
                Some(existing) if tag.is_some() => push_enum(existing, tag),
                Some(_) => {}
                None => {
                    let mut prop = prop.clone();
                    if let Some(tag) = tag {
                        prop = json!({"type": "string", "enum": [tag]});
                    }
                    properties.insert(name.clone(), prop);
                }
            }
            if required.contains(&name.as_str()) {
                let n = counts.get(name).and_then(Value::as_u64).unwrap_or(0);
                counts.insert(name.clone(), json!(n + 1));
            }
        }
    }
    for (name, prop) in properties.iter_mut() {
        let in_all = counts.get(name).and_then(Value::as_u64) == Some(variants.len() as u64);
        if !in_all {
            make_nullable(prop);
        }
    }
    let lead = root
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let description = format!("{lead}\n{}", notes.join("\n"));
    root.insert(
        "description".into(),
        Value::String(description.trim().into()),
    );
    root.insert("type".into(), json!("object"));
    root.insert("properties".into(), Value::Object(properties));
}

/// The constant a property is fixed to (`{"const": "tool_call"}`), if any.
fn constant_of(prop: &Value) -> Option<String> {
    if let Some(c) = prop.get("const").and_then(Value::as_str) {
        return Some(c.to_string());
    }
    match prop.get("enum").and_then(Value::as_array) {
        Some(values) if values.len() == 1 => values[0].as_str().map(str::to_string),
        _ => None,
    }
}

fn push_enum(prop: &mut Value, tag: Option<String>) {
    if let (Some(values), Some(tag)) = (prop.get_mut("enum").and_then(Value::as_array_mut), tag) {
        values.push(Value::String(tag));
    }
}

/// Lets a schema also accept `null`.
fn make_nullable(prop: &mut Value) {
    if is_any_type(prop) {
        // Already accepts null; `tighten` turns it into JSON text.
        return;
    }
    let Some(obj) = prop.as_object_mut() else {
        return;
    };
    if let Some(values) = obj.get_mut("enum").and_then(Value::as_array_mut)
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match obj.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            obj.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if !types.contains(&json!("null")) => types.push(json!("null")),
        Some(_) => {}
        None => {
            let inner = std::mem::take(obj);
            *prop = json!({"anyOf": [Value::Object(inner), {"type": "null"}]});
        }
    }
}

/// Rewrites one subschema (and its children) into the strict subset.
fn tighten(node: &mut Value, property: Option<&str>, encoded: &mut Vec<String>) {
    if is_any_type(node) {
        let desc = node
            .get("description")
            .and_then(Value::as_str)
            .map(|d| format!("{d} {JSON_TEXT_NOTE}"))
            .unwrap_or_else(|| JSON_TEXT_NOTE.to_string());
        *node = json!({"type": "string", "description": desc});
        if let Some(p) = property {
            encoded.push(p.to_string());
        }
        return;
    }
    let Some(obj) = node.as_object_mut() else {
        return;
    };
    for key in [
        "$schema",
        "default",
        "examples",
        "title",
        "$defs",
        "definitions",
    ] {
        obj.remove(key);
    }
    let numeric = matches!(type_names(obj).as_slice(), t if t.iter().any(|t| *t == "number" || *t == "integer"));
    if numeric {
        obj.remove("format");
    }
    if let Some(Value::Array(branches)) = obj.remove("oneOf") {
        match string_constants(&branches) {
            Some((values, notes)) => {
                obj.insert("type".into(), json!("string"));
                obj.insert("enum".into(), Value::Array(values));
                let lead = obj.get("description").and_then(Value::as_str).unwrap_or("");
                let desc = format!("{lead} {}", notes.join(" "));
                obj.insert("description".into(), Value::String(desc.trim().into()));
            }
            None => {
                obj.insert("anyOf".into(), Value::Array(branches));
            }
        }
    }
    if let Some(Value::Array(branches)) = obj.get_mut("anyOf") {
        branches
            .iter_mut()
            .for_each(|b| tighten(b, property, encoded));
    }
    if let Some(items) = obj.get_mut("items") {
        tighten(items, None, encoded);
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            tighten(prop, Some(name), encoded);
        }
        let names: Vec<Value> = props.keys().cloned().map(Value::String).collect();
        obj.insert("required".into(), Value::Array(names));
        obj.insert("additionalProperties".into(), json!(false));
        obj.insert("type".into(), json!("object"));
    }
}

/// True for `true`, `{}` or a schema that only describes (any JSON value).
fn is_any_type(node: &Value) -> bool {
    match node {
        Value::Bool(true) => true,
        Value::Object(obj) => ![
            "type",
            "enum",
            "const",
            "anyOf",
            "oneOf",
            "allOf",
            "properties",
            "items",
            "$ref",
        ]
        .iter()
        .any(|k| obj.contains_key(*k)),
        _ => false,
    }
}

fn type_names(obj: &Map<String, Value>) -> Vec<&str> {
    match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The values and notes of a `oneOf` made only of constant strings.
fn string_constants(branches: &[Value]) -> Option<(Vec<Value>, Vec<String>)> {
    let mut values = Vec::new();
    let mut notes = Vec::new();
    for b in branches {
        let c = constant_of(b)?;
        if let Some(d) = b.get("description").and_then(Value::as_str) {
            notes.push(format!("{c}: {d}"));
        }
        values.push(Value::String(c));
    }
    Some((values, notes))
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
