//! System prompt templates, one per node: embedded from `assets/prompts/`,
//! overridable file by file from the user's prompts folder.

use std::path::Path;

/// The system prompt of every node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemPrompts {
    pub understand: String,
    pub think: String,
    pub act: String,
    pub reply: String,
    pub summarize: String,
    pub compress: String,
}

const BUILTIN: [(&str, &str); 6] = [
    (
        "understand",
        include_str!("../../assets/prompts/understand.md"),
    ),
    ("think", include_str!("../../assets/prompts/think.md")),
    ("act", include_str!("../../assets/prompts/act.md")),
    ("reply", include_str!("../../assets/prompts/reply.md")),
    (
        "summarize",
        include_str!("../../assets/prompts/summarize.md"),
    ),
    ("compress", include_str!("../../assets/prompts/compress.md")),
];

impl Default for SystemPrompts {
    fn default() -> Self {
        Self::builtin()
    }
}

impl SystemPrompts {
    /// The templates shipped in the binary.
    pub fn builtin() -> Self {
        let get = |name: &str| {
            BUILTIN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| t.trim().to_string())
                .unwrap_or_default()
        };
        Self {
            understand: get("understand"),
            think: get("think"),
            act: get("act"),
            reply: get("reply"),
            summarize: get("summarize"),
            compress: get("compress"),
        }
    }

    /// The built-in templates with any `<node>.md` in `dir` taking their place.
    /// Returns the overrides used and warnings for files that could not be read.
    pub fn load(dir: &Path) -> (Self, Vec<String>, Vec<String>) {
        let mut prompts = Self::builtin();
        let (mut used, mut warnings) = (Vec::new(), Vec::new());
        for (name, _) in BUILTIN {
            let path = dir.join(format!("{name}.md"));
            if !path.is_file() {
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(text) if !text.trim().is_empty() => {
                    *prompts.slot(name) = text.trim().to_string();
                    used.push(path.display().to_string());
                }
                Ok(_) => warnings.push(format!(
                    "{} is empty; using the built-in {name} prompt",
                    path.display()
                )),
                Err(e) => warnings.push(format!(
                    "cannot read {}: {e}; using the built-in {name} prompt",
                    path.display()
                )),
            }
        }
        (prompts, used, warnings)
    }

    fn slot(&mut self, name: &str) -> &mut String {
        match name {
            "understand" => &mut self.understand,
            "think" => &mut self.think,
            "act" => &mut self.act,
            "reply" => &mut self.reply,
            "summarize" => &mut self.summarize,
            _ => &mut self.compress,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_present_and_overrides_replace_them() {
        let b = SystemPrompts::builtin();
        assert!(b.understand.contains("memory manager"));
        assert!(b.reply.contains("Never greet"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("reply.md"), "Be terse.\n").unwrap();
        std::fs::write(dir.path().join("think.md"), "   ").unwrap();
        let (p, used, warnings) = SystemPrompts::load(dir.path());
        assert_eq!(p.reply, "Be terse.");
        assert_eq!(p.think, b.think);
        assert_eq!(used.len(), 1);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("think.md is empty"), "{warnings:?}");
    }
}
