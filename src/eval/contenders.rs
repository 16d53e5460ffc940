//! The policies the arena compares: windows, `[context]` variations written
//! as `key=value` pairs, the tiered policy, and the naive baseline.

use crate::context::{ContextPolicy, PolicyKind};

/// One policy under test, with the name the report uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contender {
    pub name: String,
    pub policy: ContextPolicy,
    /// True for the naive baseline (full history, every entity active).
    pub baseline: bool,
}

/// The contenders for `--window` and `--policy`, built on the config's
/// `[context]`. With neither, windows 1, 2 and 3 and the tiered policy. The
/// config's own policy is always in, and the naive baseline always last.
pub fn contenders(
    config: &ContextPolicy,
    windows: &[u32],
    specs: &[String],
) -> Result<Vec<Contender>, String> {
    let mut out: Vec<Contender> = Vec::new();
    let mut push = |name: String, policy: ContextPolicy| {
        if !out.iter().any(|c| c.policy == policy) {
            out.push(Contender {
                name,
                policy,
                baseline: false,
            });
        }
    };
    let windowed = ContextPolicy {
        policy: PolicyKind::Windowed,
        ..config.clone()
    };
    let defaults = windows.is_empty() && specs.is_empty();
    let windows: Vec<u32> = if defaults {
        vec![1, 2, 3]
    } else {
        windows.to_vec()
    };
    for w in windows {
        push(
            format!("window {w}"),
            ContextPolicy {
                turn_retention_window: w,
                ..windowed.clone()
            },
        );
    }
    if defaults {
        push(
            "tiered".into(),
            ContextPolicy {
                policy: PolicyKind::Tiered,
                ..config.clone()
            },
        );
    }
    for spec in specs {
        push(spec.trim().to_string(), parse_spec(config, spec)?);
    }
    push("config".into(), config.clone());
    for c in &mut out {
        if c.policy == *config && c.name != "config" {
            c.name.push_str(" (config)");
        }
    }
    out.push(Contender {
        name: "naive".into(),
        policy: ContextPolicy::naive(),
        baseline: true,
    });
    Ok(out)
}

/// `"policy=tiered tiered.hot_turns=1"` applied to `base`. Keys are those of
/// `[context]` (`window` stands for `turn_retention_window`); values are TOML.
pub fn parse_spec(base: &ContextPolicy, spec: &str) -> Result<ContextPolicy, String> {
    let mut table = toml::Table::try_from(base).map_err(|e| e.to_string())?;
    let pairs: Vec<&str> = spec.split_whitespace().collect();
    if pairs.is_empty() {
        return Err("--policy needs at least one key=value pair".into());
    }
    for pair in pairs {
        let Some((key, raw)) = pair.split_once('=') else {
            return Err(format!(
                "--policy \"{spec}\": \"{pair}\" is not key=value (e.g. \"window=1 full_detail_turns=5\")"
            ));
        };
        let key = if key == "window" {
            "turn_retention_window"
        } else {
            key
        };
        let value = toml::from_str::<toml::Table>(&format!("v = {raw}"))
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(raw.to_string()));
        let mut at = &mut table;
        let mut parts: Vec<&str> = key.split('.').collect();
        let last = parts.pop().unwrap_or(key);
        for p in parts {
            at = at
                .get_mut(p)
                .and_then(toml::Value::as_table_mut)
                .ok_or_else(|| format!("--policy: context.{key} is not a [context] key"))?;
        }
        if !at.contains_key(last) {
            return Err(format!("--policy: context.{key} is not a [context] key"));
        }
        at.insert(last.to_string(), value);
    }
    let policy: ContextPolicy = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| format!("--policy \"{spec}\": {}", e.message()))?;
    policy
        .validate()
        .map_err(|e| format!("--policy \"{spec}\": {e}"))?;
    Ok(policy)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cs: &[Contender]) -> Vec<&str> {
        cs.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn defaults_are_three_windows_tiered_and_the_baseline() {
        let cs = contenders(&ContextPolicy::default(), &[], &[]).unwrap();
        assert_eq!(
            names(&cs),
            [
                "window 1",
                "window 2 (config)",
                "window 3",
                "tiered",
                "naive"
            ]
        );
        assert!(cs.last().unwrap().baseline);
        assert_eq!(cs[0].policy.turn_retention_window, 1);
    }

    #[test]
    fn the_config_policy_is_always_in() {
        let cs = contenders(&ContextPolicy::default(), &[4], &[]).unwrap();
        assert_eq!(names(&cs), ["window 4", "config", "naive"]);
    }

    #[test]
    fn specs_set_any_context_key() {
        let p = parse_spec(
            &ContextPolicy::default(),
            "window=1 full_detail_turns=5 tiered.hot_turns=1 compress_older_turns=false",
        )
        .unwrap();
        assert_eq!(p.turn_retention_window, 1);
        assert_eq!(p.full_detail_turns, 5);
        assert_eq!(p.tiered.hot_turns, 1);
        assert!(!p.compress_older_turns);
        let tiered = parse_spec(&ContextPolicy::default(), "policy=tiered").unwrap();
        assert_eq!(tiered.policy, PolicyKind::Tiered);
    }

    #[test]
    fn bad_specs_name_the_problem() {
        let base = ContextPolicy::default();
        let e = parse_spec(&base, "windw=1").unwrap_err();
        assert!(e.contains("context.windw is not a [context] key"), "{e}");
        let e = parse_spec(&base, "window").unwrap_err();
        assert!(e.contains("is not key=value"), "{e}");
        let e = parse_spec(&base, "full_detail_turns=0").unwrap_err();
        assert!(e.contains("full_detail_turns must be at least 1"), "{e}");
        let e = parse_spec(&base, "policy=sideways").unwrap_err();
        assert!(e.contains("sideways"), "{e}");
    }
}
