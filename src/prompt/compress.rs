//! Prompts for the compressions Summarize runs: folding older turns into the
//! earlier summary of the narrative or the conversation, and the one-sentence
//! summary of a long reply.
//!
//! Pure text from a [`FoldRequest`] or a reply; the brain runs them and the
//! context library applies the result (and caps it again).

use crate::context::fold::{FoldKind, FoldRequest};

use super::section::{Prompt, PromptNode, Section};

/// Section names of a fold prompt, in order.
/// The instructions first: they change with the policy only, so a server's
/// prompt cache keeps them from one fold to the next.
pub const FOLD_SECTIONS: [&str; 3] = ["instructions", "earlier_summary", "turns_to_fold"];

/// Section names of a reply-summary prompt, in order.
/// The instructions first, as a fold's.
pub const REPLY_SUMMARY_SECTIONS: [&str; 3] = ["instructions", "entity_names", "reply"];

/// Builds the prompt that merges `req.items` into `req.earlier`.
pub fn build_fold(req: &FoldRequest, system: &str) -> Prompt {
    let node = match req.kind {
        FoldKind::Narrative => PromptNode::CompressNarrative,
        FoldKind::Conversation => PromptNode::CompressConversation,
    };
    let earlier = if req.earlier.trim().is_empty() {
        "(empty — nothing has been folded yet)".to_string()
    } else {
        req.earlier.trim().to_string()
    };
    let turns = req
        .turns
        .iter()
        .zip(&req.items)
        .map(|(t, text)| format!("### Turn {t}\n{}", text.trim()))
        .collect::<Vec<_>>()
        .join("\n\n");
    let sections = vec![
        Section::new("instructions", &fold_instructions(req)),
        Section::new("earlier_summary", &earlier),
        Section::new("turns_to_fold", &turns),
    ];
    Prompt::new(node, system, sections)
}

fn fold_instructions(req: &FoldRequest) -> String {
    let what = match req.kind {
        FoldKind::Narrative => "what was done each turn and what it concluded",
        FoldKind::Conversation => "what was said",
    };
    let mut out = vec![
        format!(
            "Merge the turns below (turns_to_fold) into the earlier summary and answer with the new summary only \
             — {what}, oldest first."
        ),
        format!("- At most {} characters.", req.max_chars),
        "- Keep the user's constraints, commitments, open goals and the exact names of things \
         (recipes, dishes, ingredients)."
            .to_string(),
        "- Past tense, plain sentences; no headings, no lists of every step.".to_string(),
        "- Drop small talk and anything already said in the earlier summary.".to_string(),
    ];
    out.push(match req.kind {
        FoldKind::Conversation => {
            "- No refs or ids (recipe_3, gen_meal_1): use the names.".to_string()
        }
        FoldKind::Narrative => {
            "- Name things by their names; a ref may follow a name in parentheses.".to_string()
        }
    });
    out.join("\n")
}

/// Builds the prompt for a one-sentence summary of a long reply.
pub fn build_reply_summary(reply: &str, entity_labels: &[String], system: &str) -> Prompt {
    let names = if entity_labels.is_empty() {
        "(none)".to_string()
    } else {
        entity_labels
            .iter()
            .map(|l| format!("- {}", l.trim()))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let instructions = [
        "Summarize the reply below in one sentence, past tense, as what Alfred told the user.",
        "- Use the exact names listed in entity_names for anything the reply mentions.",
        "- A proposal, a draft or a question is not a done action: say \"proposed\", \
         \"drafted (not saved)\" or \"asked\", never \"saved\" or \"added\" unless the reply says so.",
        "- Answer with the sentence only.",
    ]
    .join("\n");
    let sections = vec![
        Section::new("instructions", &instructions),
        Section::new("entity_names", &names),
        Section::new("reply", reply),
    ];
    Prompt::new(PromptNode::SummarizeReply, system, sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kind: FoldKind) -> FoldRequest {
        FoldRequest {
            kind,
            earlier: String::new(),
            turns: vec![1, 2],
            items: vec![
                "User: plan meals\nAlfred: sure".into(),
                "User: no cod".into(),
            ],
            lines: vec![],
            max_chars: 1200,
        }
    }

    #[test]
    fn fold_prompt_lists_each_turn_and_the_cap() {
        let p = build_fold(&request(FoldKind::Conversation), "sys");
        assert_eq!(p.node, PromptNode::CompressConversation);
        assert_eq!(p.section_names(), FOLD_SECTIONS);
        let turns = &p.section("turns_to_fold").unwrap().text;
        assert!(turns.starts_with("### Turn 1\nUser: plan meals"));
        assert!(turns.contains("### Turn 2\nUser: no cod"));
        let ins = &p.section("instructions").unwrap().text;
        assert!(ins.contains("At most 1200 characters"));
        assert!(ins.contains("No refs or ids"));
        assert!(
            p.section("earlier_summary")
                .unwrap()
                .text
                .contains("nothing has been folded")
        );
    }

    #[test]
    fn narrative_fold_allows_refs_beside_names() {
        let p = build_fold(&request(FoldKind::Narrative), "sys");
        assert_eq!(p.node, PromptNode::CompressNarrative);
        let ins = &p.section("instructions").unwrap().text;
        assert!(!ins.contains("No refs or ids"));
        assert!(ins.contains("what was done each turn"));
    }

    #[test]
    fn reply_summary_names_entities_and_guards_proposals() {
        let p = build_reply_summary(
            "Here's a draft <b>Thai Curry</b>. Want me to save it?",
            &["Thai Yellow Curry".to_string()],
            "sys",
        );
        assert_eq!(p.node, PromptNode::SummarizeReply);
        assert_eq!(p.section_names(), REPLY_SUMMARY_SECTIONS);
        assert!(
            p.section("reply")
                .unwrap()
                .text
                .contains("&lt;b>Thai Curry&lt;/b>")
        );
        assert_eq!(
            &*p.section("entity_names").unwrap().text,
            "- Thai Yellow Curry"
        );
        assert!(
            p.section("instructions")
                .unwrap()
                .text
                .contains("not a done action")
        );
    }
}
