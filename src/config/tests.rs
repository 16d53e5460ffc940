//! Tests of the types and their defaults, read back through the parser.
//!
//! These cross the split: defaults from `mod.rs`, parsing from `load`, and
//! the shipped `config.example.toml`. Tests of one layer live beside it.

use std::collections::BTreeSet;

use super::locate;
use super::*;
use crate::context::{ContextPolicy, PolicyKind};

#[test]
fn defaults_follow_the_design() {
    let c = Config::default();
    assert_eq!(c.llm.backend, Backend::Auto);
    assert_eq!(c.llm.base_url, "https://api.openai.com/v1");
    assert_eq!(c.llm.api_key_env, "OPENAI_API_KEY");
    assert_eq!((c.llm.timeout_secs, c.llm.max_retries), (60, 3));
    assert_eq!(c.llm.context_window, 128_000);
    assert_eq!(c.llm.model_for(LlmNode::Think), "gpt-4.1");
    assert_eq!(c.llm.model_for(LlmNode::Reply), "gpt-4.1-mini");
    assert_eq!(c.llm.temperature_for(LlmNode::ActGenerate), 0.7);
    assert_eq!(
        c.llm.price_for("gpt-4.1").map(|p| p.output_per_mtok),
        Some(8.0)
    );
    assert_eq!(
        (c.pipeline.max_steps, c.pipeline.max_tool_calls_per_step),
        (8, 3)
    );
    assert_eq!((c.ui.theme, c.ui.mouse), (Theme::Dark, true));
    assert!(c.kitchen.seed_on_first_run);
    assert_eq!(c.context, ContextPolicy::default());
    c.validate().unwrap();
    assert_eq!(Config::from_toml("").unwrap(), c);
}

#[test]
fn partial_file_merges_over_defaults() {
    let c = Config::from_toml(
        "[llm]\ntimeout_secs = 5\n[llm.models]\nreply = \"tiny\"\n\
         [context]\nturn_retention_window = 4\n[ui]\ntheme = \"light\"\n",
    )
    .unwrap();
    assert_eq!(c.llm.timeout_secs, 5);
    assert_eq!(c.llm.max_retries, 3, "untouched key keeps its default");
    assert_eq!(c.llm.models.reply, "tiny");
    assert_eq!(
        c.llm.models.think, "gpt-4.1",
        "sibling of a set key keeps its default"
    );
    assert_eq!(c.context.turn_retention_window, 4);
    assert_eq!(c.context.full_detail_turns, 3);
    assert_eq!(c.ui.theme, Theme::Light);
    assert!(c.ui.mouse);
}

#[test]
fn prices_merge_with_the_defaults() {
    let c = Config::from_toml(
        "[llm.prices.\"gpt-4.1\"]\ninput_per_mtok = 1.0\noutput_per_mtok = 4.0\n\
         [llm.prices.local]\ninput_per_mtok = 0.0\noutput_per_mtok = 0.0\n",
    )
    .unwrap();
    let p = &c.llm.prices;
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!(
        p["gpt-4.1"],
        ModelPrice {
            input_per_mtok: 1.0,
            output_per_mtok: 4.0
        }
    );
    assert_eq!(
        p["gpt-4.1-mini"],
        default_prices()["gpt-4.1-mini"],
        "default kept"
    );
    assert_eq!(p["local"].input_per_mtok, 0.0);
}

#[test]
fn redacted_summary_hides_url_secrets() {
    let mut c = Config::default();
    c.llm.base_url = "https://user:s3cret@proxy.example/v1?api-key=s3cret".into();
    let s = c.redacted_summary();
    assert!(!s.contains("s3cret"), "{s}");
    assert!(s.contains("https://***@proxy.example/v1?***"), "{s}");
    assert!(s.contains("api_key_env=OPENAI_API_KEY"), "{s}");
    assert_eq!(
        redact_url("http://localhost:8080/v1"),
        "http://localhost:8080/v1"
    );
}

#[test]
fn model_override_applies_to_every_node() {
    let c = Config::from_toml("[llm]\nmodel = \"solo\"\n").unwrap();
    assert!(LlmNode::ALL.iter().all(|n| c.llm.model_for(*n) == "solo"));
    assert!(c.redacted_summary().contains("solo for every node"));
    assert_eq!(
        Config::default().llm.model_for(LlmNode::ActRead),
        "gpt-4.1-mini"
    );
}

/// Uncomments `# key = value` and `# [section]` lines, leaving prose alone.
fn uncomment(example: &str) -> String {
    let is_key_line = |rest: &str| {
        rest.split_once(" = ").is_some_and(|(key, _)| {
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.\"".contains(c))
        })
    };
    example
        .lines()
        .map(|line| match line.strip_prefix("# ") {
            Some(rest) if (rest.starts_with('[') && rest.ends_with(']')) || is_key_line(rest) => {
                rest
            }
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Dotted paths of every leaf key of a TOML table.
fn leaf_keys(table: &toml::Table, prefix: &str, out: &mut BTreeSet<String>) {
    for (key, value) in table {
        let path = format!("{prefix}{}", locate::key(key));
        match value {
            toml::Value::Table(inner) => leaf_keys(inner, &format!("{path}."), out),
            _ => {
                out.insert(path);
            }
        }
    }
}

#[test]
fn example_file_lists_every_key_with_its_default() {
    let example = include_str!("../../config.example.toml");
    let live = uncomment(example);
    assert_ne!(live, example, "nothing was uncommented");
    let parsed = Config::from_toml(&live).unwrap_or_else(|p| panic!("{p}\n{live}"));
    assert_eq!(parsed, Config::default());

    let mut in_example = BTreeSet::new();
    leaf_keys(&toml::from_str(&live).unwrap(), "", &mut in_example);
    let mut in_defaults = BTreeSet::new();
    let defaults = toml::to_string(&Config::default()).unwrap();
    leaf_keys(&toml::from_str(&defaults).unwrap(), "", &mut in_defaults);
    assert_eq!(
        in_example, in_defaults,
        "example and defaults differ in keys"
    );
    // `llm.model` has no default, so it is shown doubly commented.
    assert!(
        example.contains("\n## model = "),
        "llm.model is not documented"
    );
    // Nor have `store.url` and `store.user`.
    assert!(example.contains("\n## url = \"postgres://"));
    assert!(example.contains("\n## user = "));
    assert_eq!(PolicyKind::default(), parsed.context.policy);
}
