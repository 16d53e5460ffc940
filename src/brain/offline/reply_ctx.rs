//! What every part of the reply reads: the request (this turn's plan, data
//! and snapshot), the message's reading and the turn, with the lookups the
//! replies share (labels, pending drafts, the cooking days, step types).

use serde_json::Value;

use crate::context::OfferKind;
use crate::pipeline::{ReplyRequest, StepType};

use super::lexicon::Intent;
use super::reading::Reading;
use super::text::join_list;

/// What a reply may look up: the request and the message's reading.
pub struct ReplyCtx<'a> {
    pub req: &'a ReplyRequest<'a>,
    pub reading: Reading,
    pub turn: u32,
}

impl<'a> ReplyCtx<'a> {
    /// The standing constraints the snapshot holds with this status.
    pub fn constraints(
        &self,
        status: crate::context::ConstraintStatus,
    ) -> impl Iterator<Item = &'a crate::context::ConstraintView> {
        self.req
            .input
            .snapshot
            .constraints
            .iter()
            .filter(move |k| k.status == status)
    }

    /// The label of a ref in the snapshot (dropped ones included).
    pub fn label(&self, r: &str) -> String {
        let s = self.req.input.snapshot;
        if let Some((_, v)) = s.entities.find(r) {
            return v.label.clone();
        }
        s.entities
            .dropped_detail
            .iter()
            .find(|d| d.r#ref == r)
            .map_or_else(|| r.to_string(), |d| d.label.clone())
    }

    /// The label of the first ref Understand resolved ("" when none): what
    /// an edit changed.
    pub fn first_referenced_label(&self) -> String {
        self.req
            .understand
            .referenced_entities
            .first()
            .map(|r| self.label(r))
            .unwrap_or_default()
    }

    /// True when a ref is still a pending artifact after Act.
    pub fn is_pending(&self, r: &str) -> bool {
        self.req
            .input
            .snapshot
            .entities
            .pending
            .iter()
            .any(|v| v.r#ref == r)
    }

    /// The user's cooking days, as Think wrote them into a step.
    pub fn days(&self) -> String {
        let days: Vec<u8> = self
            .req
            .think
            .steps
            .iter()
            .flat_map(|s| super::plan::days_in(&s.description))
            .collect();
        let mut names: Vec<String> = Vec::new();
        for d in days {
            let n = super::text::weekday_name(d).to_string();
            if !names.contains(&n) {
                names.push(n);
            }
        }
        join_list(&names, "and")
    }

    /// True when the conversation is about planning the week: Alfred
    /// proposed a plan, or the user asked for one, in the recent exchanges.
    pub fn planning(&self) -> bool {
        let snapshot = self.req.input.snapshot;
        let plans = |user: &str| {
            matches!(
                super::lexicon::classify(
                    &super::text::Words::new(user),
                    super::lexicon::Cues::default()
                ),
                Intent::PlanMeals | Intent::Assign | Intent::ShowPlan
            )
        };
        let proposed = snapshot.narrative.turns.iter().any(|t| {
            t.dialogue
                .offer
                .as_ref()
                .is_some_and(|o| o.kind == OfferKind::PlanFromSaved)
        });
        proposed
            || snapshot.conversation.recent.iter().any(|t| plans(&t.user))
            || matches!(
                self.reading.intent,
                Intent::PlanMeals | Intent::Assign | Intent::ShowPlan
            )
    }

    /// The step type of a data item.
    pub fn step_type(&self, index: usize) -> Option<StepType> {
        self.req.think.steps.get(index).map(|s| s.step_type)
    }

    /// The subdomain of a data item.
    pub fn subdomain(&self, index: usize) -> &str {
        self.req
            .think
            .steps
            .get(index)
            .map_or("", |s| s.subdomain.as_str())
    }
}

/// The value of a data item's `kind` field.
pub fn kind(v: &Value) -> Option<&str> {
    v.get("kind").and_then(Value::as_str)
}
