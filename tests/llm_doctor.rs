//! `alfred doctor` (the built binary) against the fake server: every check
//! ok with the endpoint's latency and models, a 1-token completion when
//! `/models` is not served, a fix for a missing key, an unlisted model or an
//! unreachable server — and the key never printed.

mod support;

use std::process::Command;

use support::doctor::{doctor, line};
use support::{FakeOpenAi, KEY, Node, Persona};

#[test]
fn every_check_passes_against_a_working_server() {
    let fake = FakeOpenAi::start();
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    for what in [
        "config", "data", "kitchen", "sessions", "llm", "key", "endpoint", "models",
    ] {
        assert!(line(&report, what).starts_with("ok "), "{report}");
    }
    assert!(line(&report, "key").contains("OPENAI_API_KEY is set (not shown)"));
    let endpoint = line(&report, "endpoint");
    assert!(
        endpoint.contains("answered GET /models in ")
            && endpoint.ends_with("ms; it lists 2 models"),
        "{endpoint}"
    );
    assert!(
        fake.requests().is_empty(),
        "GET /models is not a chat request"
    );
}

#[test]
fn a_server_without_models_gets_a_one_token_completion() {
    let fake = FakeOpenAi::start();
    fake.hide_models();
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        line(&report, "endpoint").contains("answered a 1-token completion in "),
        "{report}"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].node, Node::Other);
    assert_eq!(requests[0].body["max_tokens"], 1);
    assert_eq!(requests[0].body["model"], "gpt-4.1-mini");
}

#[test]
fn problems_come_with_a_fix_and_exit_1() {
    let fake = FakeOpenAi::start();
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "llama3.1:8b"]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let models = line(&report, "models");
    assert!(
        models.starts_with("FIX")
            && models.contains("llama3.1:8b")
            && models.contains("one it lists (gpt-4.1, gpt-4.1-mini)"),
        "{models}"
    );

    let (out, report) = doctor(&fake.base_url(), None, &[]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let key = line(&report, "key");
    assert!(
        key.starts_with("FIX") && key.contains("export OPENAI_API_KEY="),
        "{key}"
    );

    let (out, report) = doctor("http://127.0.0.1:9/v1", Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let endpoint = line(&report, "endpoint");
    assert!(
        endpoint.starts_with("FIX") && endpoint.contains("cannot reach the model server"),
        "{endpoint}"
    );
}

#[test]
fn the_offline_backend_needs_no_network() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_alfred"))
        .env_clear()
        .env("HOME", home.path())
        .env("ALFRED_HOME", home.path())
        .args(["--llm", "offline", "doctor"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        line(&report, "llm").ends_with("offline brain — no network needed"),
        "{report}"
    );
    assert_eq!(report.lines().count(), 5, "{report}");
}

#[test]
fn a_llama_cpp_server_with_a_small_context_is_caught_with_its_flag() {
    let fake = FakeOpenAi::start();
    fake.pretend(Persona::LlamaCpp { n_ctx: 512 });
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "gemma3-270m"]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert_eq!(
        line(&report, "server"),
        "ok   server    llama.cpp (version b9999-fake), context 512 tokens (/props n_ctx)"
    );
    let context = line(&report, "context");
    assert!(
        context.starts_with("FIX")
            && context.contains("512 tokens (llama.cpp) is too small")
            && context.contains("restart llama-server with a larger -c")
            && context.contains("(at least 16,384)"),
        "{context}"
    );
    // llama.cpp answers to any name: no `ollama pull` advice.
    let models = line(&report, "models");
    assert!(
        models.starts_with("ok") && models.contains("whatever name is asked"),
        "{models}"
    );
    let endpoint = line(&report, "endpoint");
    assert!(!endpoint.contains(" 0 ms"), "{endpoint}");

    fake.pretend(Persona::LlamaCpp { n_ctx: 16384 });
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(line(&report, "context").starts_with("ok   context   16,384 tokens (llama.cpp) hold"));
}

#[test]
fn ollama_and_vllm_get_advice_that_fits_them() {
    let fake = FakeOpenAi::start();
    fake.pretend(Persona::Ollama {
        num_ctx: Some(8192),
        loaded: None,
    });
    let (_, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "llama3.1:8b"]);
    assert_eq!(
        line(&report, "server"),
        "ok   server    Ollama (version 0.9.9), context 8,192 tokens (num_ctx)"
    );
    assert!(line(&report, "context").contains("num_ctx"), "{report}");
    assert!(
        line(&report, "models").contains("run `ollama pull llama3.1:8b`"),
        "{report}"
    );

    // A loaded model: what Ollama really gave it (OLLAMA_CONTEXT_LENGTH
    // included) wins over the model's own num_ctx.
    fake.pretend(Persona::Ollama {
        num_ctx: Some(8192),
        loaded: Some(32768),
    });
    let (_, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "gpt-4.1"]);
    assert_eq!(
        line(&report, "server"),
        "ok   server    Ollama (version 0.9.9), context 32,768 tokens (/api/ps context_length)"
    );
    assert!(line(&report, "context").starts_with("ok"), "{report}");

    // Nothing published: Ollama's default would cut the prompts silently.
    fake.pretend(Persona::Ollama {
        num_ctx: None,
        loaded: None,
    });
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "gpt-4.1"]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let context = line(&report, "context");
    assert!(
        context.starts_with("FIX")
            && context.contains("4,096")
            && context.contains("OLLAMA_CONTEXT_LENGTH=16384"),
        "{context}"
    );

    fake.pretend(Persona::Vllm {
        max_model_len: 32768,
    });
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "gpt-4.1"]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(
        line(&report, "server"),
        "ok   server    vLLM, context 32,768 tokens (/v1/models max_model_len)"
    );
}

/// `doctor` checks contexts against the seed conversation's largest
/// prompt; it is measured here, so the constant cannot go stale.
#[test]
fn the_seed_conversations_largest_prompt_is_what_doctor_assumes() {
    let home = tempfile::tempdir().unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/meal-planning.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_alfred"))
        .env_clear()
        .env("HOME", home.path())
        .env("ALFRED_HOME", home.path())
        .args([
            "--llm", "offline", "run", "--new", "--json", "--script", script,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut largest = 0;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let prompts = &record["prompts"];
        let mut all = vec![&prompts["understand"], &prompts["think"], &prompts["reply"]];
        all.extend(prompts["act"].as_array().into_iter().flatten());
        all.extend(prompts["summarize"].as_array().into_iter().flatten());
        for p in all {
            largest = largest.max(p["total_tokens"].as_u64().unwrap_or(0));
        }
    }
    let assumed = u64::from(alfred::brain::llm::SEED_LARGEST_PROMPT);
    assert!(
        largest.abs_diff(assumed) * 50 <= assumed,
        "the largest prompt is {largest} tokens; SEED_LARGEST_PROMPT says {assumed}"
    );
}
