//! This turn's step data sorted by what it is — options, recipes shown, a
//! plan, the inventory, drafts, rows written or read — as every reply over
//! results reads it.

use serde_json::Value;

use crate::pipeline::StepType;

use super::reply_ctx::{ReplyCtx, kind};

/// This turn's data, sorted by what it is.
#[derive(Default)]
pub struct Facts<'a> {
    pub options: Option<&'a Value>,
    pub show: Vec<&'a Value>,
    pub plan: Option<&'a Value>,
    pub inventory: Option<&'a Value>,
    pub recall: Option<&'a Value>,
    pub unsaved: Option<&'a Value>,
    pub new_recipes: Vec<&'a Value>,
    pub new_slots: Vec<&'a Value>,
    pub edited: Vec<(&'a str, &'a Value)>,
    pub read: Vec<(String, &'a [Value])>,
    pub written: Vec<(String, &'a [Value])>,
}

impl<'a> Facts<'a> {
    /// Sorts every data item of the request.
    pub fn gather(c: &ReplyCtx<'a>) -> Self {
        let mut f = Facts::default();
        for d in c.req.data {
            let sub = c.subdomain(d.step_index).to_string();
            match (c.step_type(d.step_index), &d.content) {
                (Some(StepType::Analyze), v) => match kind(v) {
                    Some("options") => f.options = Some(v),
                    Some("show") => f.show.extend(v["items"].as_array().into_iter().flatten()),
                    Some("plan") => f.plan = Some(v),
                    Some("inventory") => f.inventory = Some(v),
                    Some("recall") => f.recall = Some(v),
                    Some("unsaved") => f.unsaved = Some(v),
                    _ => {}
                },
                (Some(StepType::Generate), content) => f.add_generated(c, content),
                (Some(StepType::Read), Value::Array(rows)) => f.read.push((sub, rows)),
                (Some(StepType::Write), Value::Array(rows)) => f.written.push((sub, rows)),
                _ => {}
            }
        }
        f
    }
}

impl<'a> Facts<'a> {
    /// A generate step's data: the pipeline hands back each artifact with
    /// its gen ref under `id` (an array); an edit is one whose ref
    /// Understand resolved. The brain's own shape (`artifacts` plus gen-ref
    /// keys) is read too.
    fn add_generated(&mut self, c: &ReplyCtx<'_>, content: &'a Value) {
        let referenced = |r: &str| c.req.understand.referenced_entities.iter().any(|x| x == r);
        let mut push = |id: Option<&'a str>, v: &'a Value| {
            if v.get("date").is_some() {
                self.new_slots.push(v);
            } else if let Some(r) = id.filter(|r| referenced(r)) {
                self.edited.push((r, v));
            } else {
                self.new_recipes.push(v);
            }
        };
        match content {
            Value::Array(items) => {
                for v in items {
                    push(v.get("id").and_then(Value::as_str), v);
                }
            }
            Value::Object(m) => {
                for v in m
                    .get("artifacts")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(None, v);
                }
                for (k, v) in m.iter().filter(|(k, _)| k.starts_with("gen_")) {
                    push(Some(k.as_str()), v);
                }
            }
            _ => {}
        }
    }
}
