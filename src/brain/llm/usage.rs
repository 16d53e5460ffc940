//! Tokens and cost of one call: the server's count when it sends one
//! (`Reported`), else the tokenizer's count of what was sent and received
//! (`Estimated`), priced from `[llm.prices]` when the model has a price.

use async_openai::types::chat::CompletionUsage;

use crate::config::ModelPrice;
use crate::pipeline::{Usage, UsageSource};
use crate::prompt::count_tokens;

use super::wire::Message;

/// The usage of one call to `model`.
pub fn usage_of(
    reported: Option<&CompletionUsage>,
    sent: &[Message],
    answer: &str,
    price: Option<&ModelPrice>,
) -> Usage {
    let (prompt_tokens, completion_tokens, source) = match reported {
        Some(u) => (
            u64::from(u.prompt_tokens),
            u64::from(u.completion_tokens),
            UsageSource::Reported,
        ),
        None => {
            let prompt: usize = sent
                .iter()
                .map(|m| match m {
                    Message::System(t) | Message::User(t) | Message::Assistant(t) => {
                        count_tokens(t)
                    }
                })
                .sum();
            (
                prompt as u64,
                count_tokens(answer) as u64,
                UsageSource::Estimated,
            )
        }
    };
    Usage {
        prompt_tokens,
        completion_tokens,
        source,
        cost_usd: price.map(|p| {
            (prompt_tokens as f64 * p.input_per_mtok + completion_tokens as f64 * p.output_per_mtok)
                / 1_000_000.0
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_tokens_are_priced_per_million() {
        let reported = CompletionUsage {
            prompt_tokens: 1_000,
            completion_tokens: 500,
            total_tokens: 1_500,
            prompt_tokens_details: None,
            completion_tokens_details: None,
        };
        let price = ModelPrice {
            input_per_mtok: 2.0,
            output_per_mtok: 8.0,
        };
        let u = usage_of(Some(&reported), &[], "", Some(&price));
        assert_eq!((u.prompt_tokens, u.completion_tokens), (1_000, 500));
        assert_eq!(u.source, UsageSource::Reported);
        let cost = u.cost_usd.unwrap();
        assert!((cost - 0.006).abs() < 1e-12, "{cost}");
    }

    #[test]
    fn without_a_report_the_tokenizer_counts_and_unpriced_models_cost_nothing_known() {
        let sent = [
            Message::System("You are Alfred.".into()),
            Message::User("hello world".into()),
        ];
        let u = usage_of(None, &sent, "hello world", None);
        assert_eq!(u.source, UsageSource::Estimated);
        assert_eq!(
            u.prompt_tokens,
            (count_tokens("You are Alfred.") + count_tokens("hello world")) as u64
        );
        assert_eq!(u.completion_tokens, 2);
        assert_eq!(u.cost_usd, None);
    }
}
