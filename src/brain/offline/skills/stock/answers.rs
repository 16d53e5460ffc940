//! Answers to the questions a use asks: "about 500g" after "You have 2 kg
//! of jasmine rice — roughly how much did you use?" is the use asked about
//! with that amount; "the paneer" after "200 g of what?" is 200 g of the
//! paneer. (An answer to "which rice did you use: …?" is read by the
//! reading as the request completed; `lower` narrows by its words.)

use super::super::super::dialogue::Before;
use super::super::super::items::bare_amount;
use super::super::super::quantity::{Quantity, lead};
use super::super::super::text::{Words, stems};
use super::super::Named;
use super::uses::Used;
use super::{Ask, read_use};

/// The use a message completes by answering the question a use asked.
pub fn refine(w: &Words, before: &Before) -> Option<Ask> {
    let q = before.dialogue.question.as_ref()?;
    let request = if q.request.trim().is_empty() {
        Words::new(&before.user)
    } else {
        Words::new(&q.request)
    };
    match read_use(&request)? {
        // "200 g of what?" — "the paneer".
        Ask::UsedWhat { said } => {
            let item: Vec<&str> = w
                .words
                .iter()
                .map(String::as_str)
                .skip_while(|x| matches!(*x, "of" | "the" | "my" | "it" | "was" | "its"))
                .collect();
            if item.is_empty() || item.len() > 4 {
                return None;
            }
            match read_use(&Words::new(&format!("used {said} of {}", item.join(" "))))? {
                ask @ Ask::Use { .. } => Some(ask),
                _ => None,
            }
        }
        // "… how much did you use?" — "about 500g", "all of it", "half".
        Ask::Use { mut items } if q.text.contains("did you use") => {
            let amount = amount_said(w)?;
            let asked = q.text.to_lowercase();
            let at = items
                .iter()
                .position(|u| named_in(&u.item, &asked))
                .or_else(|| items.iter().position(|u| !settled(u)))?;
            items[at].amount = amount;
            Some(Ask::Use { items })
        }
        _ => None,
    }
}

/// The amount a short answer says, if that is all it says.
fn amount_said(w: &Words) -> Option<Quantity> {
    if w.words.len() > 6 {
        return None;
    }
    let (said, skip) = lead(&w.words);
    let rest: Vec<&String> = w.words[skip..]
        .iter()
        .filter(|x| !matches!(x.as_str(), "it" | "them" | "of" | "that" | "maybe" | "ish"))
        .collect();
    match said {
        Quantity::Unsaid | Quantity::Vague { .. } => {
            let (quantity, unit) = bare_amount(&w.words[skip..])?;
            Some(Quantity::Amount { quantity, unit })
        }
        other if rest.is_empty() => Some(other),
        _ => None,
    }
}

/// True when the question names the item ("… of jasmine rice — how much
/// did you use?").
fn named_in(item: &Named, question: &str) -> bool {
    match item {
        Named::Item(x) => {
            let said = stems(question);
            stems(x).iter().all(|w| said.contains(w))
        }
        Named::Shown => false,
    }
}

/// True when a use's amount needs no answer.
fn settled(u: &Used) -> bool {
    matches!(
        u.amount,
        Quantity::All | Quantity::Unsaid | Quantity::Share { .. }
    )
}
