//! Turns as OpenTelemetry traces, received by a fake collector over real
//! HTTP and decoded with the OTLP protobuf definitions: one trace per turn
//! with its node, chat, step and tool spans, the GenAI attributes and the
//! context layers under `alfred.`; nothing sent when telemetry is off; no
//! key or content unless asked; a collector that refuses costs the run
//! nothing but a warning.

#[path = "support/sandbox.rs"]
mod sandbox;
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Output;
use std::time::Duration;

use opentelemetry_proto::tonic::trace::v1::Span;
use sandbox::Sandbox;
use support::otlp::{Collector, attributes};
use support::{FakeOpenAi, KEY, SENT_KEY};

const WAIT: Duration = Duration::from_secs(10);

fn hex(id: &[u8]) -> String {
    id.iter().map(|b| format!("{b:02x}")).collect()
}

/// The spans grouped by trace.
fn traces(spans: &[Span]) -> BTreeMap<String, Vec<Span>> {
    let mut out: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for s in spans {
        out.entry(hex(&s.trace_id)).or_default().push(s.clone());
    }
    out
}

fn named<'a>(spans: &'a [Span], name: &str) -> Vec<&'a Span> {
    spans.iter().filter(|s| s.name == name).collect()
}

fn the_session(sandbox: &Sandbox) -> String {
    let dir = std::fs::read_dir(sandbox.sessions_dir()).expect("sessions folder");
    let ids: Vec<String> = dir
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    assert_eq!(ids.len(), 1, "{ids:?}");
    ids[0].clone()
}

/// `alfred run` with the offline brain on a new session (or the last, when
/// `new` is false), sending traces to `otlp` when given.
fn offline_run(sandbox: &Sandbox, otlp: Option<&str>, new: bool, messages: &[&str]) -> Output {
    let mut args: Vec<&str> = vec!["--llm", "offline"];
    if let Some(url) = otlp {
        args.extend(["--otlp", url]);
    }
    args.push("run");
    if new {
        args.push("--new");
    }
    for m in messages {
        args.extend(["-m", m]);
    }
    sandbox.run(&args)
}

#[test]
fn each_offline_turn_arrives_as_one_trace_with_its_nodes_steps_and_layers() {
    let collector = Collector::start();
    let sandbox = Sandbox::new();
    let run = offline_run(
        &sandbox,
        Some(&collector.url()),
        true,
        &[
            "what can i make with the paneer",
            "put the first one on friday dinner",
        ],
    );
    assert!(run.status.success(), "{}", sandbox::stderr(&run));
    let session = the_session(&sandbox);
    let spans = collector.wait_for(12, WAIT);
    let traces = traces(&spans);
    assert_eq!(
        traces.len(),
        2,
        "one trace per turn: {:?}",
        spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    let mut turns = BTreeSet::new();
    for (_, trace) in traces {
        let roots = named(&trace, "invoke_agent alfred");
        let [root] = roots[..] else {
            panic!("one root per trace: {trace:?}")
        };
        assert!(root.parent_span_id.is_empty(), "the turn is the root");
        let a = attributes(root);
        assert_eq!(a["gen_ai.operation.name"], "invoke_agent");
        assert_eq!(a["gen_ai.conversation.id"], session);
        assert_eq!(a["gen_ai.provider.name"], "alfred.offline");
        assert!(a.contains_key("alfred.context.recent"), "{a:?}");
        assert!(a.contains_key("alfred.narrative.entry"), "{a:?}");
        turns.insert(a["alfred.turn"].clone());
        // Every node that ran is a child of the turn.
        for node in ["understand", "think", "act", "reply", "summarize"] {
            let n = named(&trace, node);
            assert_eq!(
                n.len(),
                1,
                "{node} in {:?}",
                trace.iter().map(|s| &s.name).collect::<Vec<_>>()
            );
            assert_eq!(n[0].parent_span_id, root.span_id, "{node} under the turn");
            assert!(n[0].start_time_unix_nano >= root.start_time_unix_nano);
        }
        let act = named(&trace, "act")[0];
        let steps: Vec<&Span> = trace
            .iter()
            .filter(|s| s.name.starts_with("step "))
            .collect();
        assert!(!steps.is_empty(), "Act's steps");
        assert!(steps.iter().all(|s| s.parent_span_id == act.span_id));
        let tools: Vec<&Span> = trace
            .iter()
            .filter(|s| s.name.starts_with("execute_tool "))
            .collect();
        assert!(!tools.is_empty(), "the tool calls");
        for t in &tools {
            let ta = attributes(t);
            assert_eq!(ta["gen_ai.operation.name"], "execute_tool");
            assert!(ta["gen_ai.tool.name"].starts_with("db_"), "{ta:?}");
            assert!(
                steps.iter().any(|s| s.span_id == t.parent_span_id),
                "a tool under its step"
            );
        }
    }
    assert_eq!(turns, BTreeSet::from(["1".to_string(), "2".to_string()]));
    // The second turn wrote the plan: its tool span says so, and the
    // turn's changes name the new row.
    let all = collector.spans();
    let writes: Vec<_> = all
        .iter()
        .filter(|s| {
            attributes(s)
                .get("gen_ai.tool.name")
                .is_some_and(|t| t == "db_create")
        })
        .collect();
    assert!(!writes.is_empty(), "the plan's db_create");
    let second = all
        .iter()
        .find(|s| s.name == "invoke_agent alfred" && attributes(s)["alfred.turn"] == "2")
        .expect("turn 2");
    assert!(
        attributes(second)["alfred.changes.new"].contains("meal_"),
        "{:?}",
        attributes(second)
    );
    // Content stays home unless asked: neither message nor reply is in
    // anything sent.
    for body in collector.bodies() {
        let text = String::from_utf8_lossy(&body);
        assert!(!text.contains("what can i make with the paneer"));
        assert!(!text.contains("Paneer Tikka"), "a label is content");
    }
}

/// With no endpoint set, nothing goes out, not even to the address an
/// OTLP/HTTP exporter uses by default (localhost:4318), where the collector
/// listens.
#[test]
fn nothing_is_sent_when_telemetry_is_off() {
    let collector = Collector::start_on(4318);
    let sandbox = Sandbox::new();
    let run = offline_run(&sandbox, None, true, &["what's in my fridge"]);
    assert!(run.status.success(), "{}", sandbox::stderr(&run));
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(collector.posts(), 0);
}

#[test]
fn a_model_turn_has_chat_spans_with_the_genai_attributes_and_never_the_key() {
    let fake = FakeOpenAi::start();
    let collector = Collector::start();
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.path().join("cfg")).unwrap();
    let config = sandbox.path().join("cfg/config.toml");
    std::fs::write(&config, "[telemetry]\ncapture_content = true\n").unwrap();
    let run = sandbox
        .bare()
        .env("OPENAI_API_KEY", KEY)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url())
        .arg("--data-dir")
        .arg(sandbox.data_dir())
        .arg("--config")
        .arg(&config)
        .args(["--llm", "openai", "--base-url", &fake.base_url()])
        .args(["run", "--new", "-m", "what can I cook tonight?"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", sandbox::stderr(&run));
    let spans = collector.wait_for(8, WAIT);
    let chats: Vec<&Span> = spans
        .iter()
        .filter(|s| s.name.starts_with("chat "))
        .collect();
    assert!(
        chats.len() >= 3,
        "a chat span per model call: {:?}",
        spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    for c in &chats {
        let a = attributes(c);
        assert_eq!(a["gen_ai.operation.name"], "chat");
        assert_eq!(a["gen_ai.provider.name"], "openai");
        assert!(!a["gen_ai.request.model"].is_empty());
        assert!(
            a["gen_ai.usage.input_tokens"].parse::<u64>().unwrap() > 0,
            "{a:?}"
        );
        assert!(a.contains_key("gen_ai.usage.output_tokens"));
        // Asked for: the messages go too.
        assert!(
            a["gen_ai.input.messages"].contains("\"role\":\"user\""),
            "{a:?}"
        );
        assert!(a.contains_key("gen_ai.output.messages"));
        assert!(a.contains_key("gen_ai.system_instructions"));
        // The node span above it holds the prompt's sections.
        let parent = spans
            .iter()
            .find(|s| s.span_id == c.parent_span_id)
            .expect("a parent");
        let pa = attributes(parent);
        assert!(
            pa.keys()
                .any(|k| k.starts_with("alfred.prompt.") && k.ends_with(".sections")),
            "{pa:?}"
        );
    }
    let root = spans
        .iter()
        .find(|s| s.name == "invoke_agent alfred")
        .expect("the turn");
    assert_eq!(
        attributes(root)["alfred.user_message"],
        "what can I cook tonight?"
    );
    for body in collector.bodies() {
        let text = String::from_utf8_lossy(&body);
        assert!(
            !text.contains(KEY) && !text.contains(SENT_KEY),
            "no key in any span"
        );
    }
}

#[test]
fn a_collector_that_refuses_costs_the_run_a_warning_only() {
    let collector = Collector::start();
    collector.refuse();
    let sandbox = Sandbox::new();
    let run = offline_run(
        &sandbox,
        Some(&collector.url()),
        true,
        &["what's in my fridge"],
    );
    let stderr = sandbox::stderr(&run);
    assert!(run.status.success(), "{stderr}");
    assert!(
        sandbox::stdout(&run).contains("alfred> "),
        "the turn was answered"
    );
    assert!(
        stderr.contains("warning:") && stderr.contains("/v1/traces"),
        "{stderr}"
    );
    assert!(collector.posts() >= 1, "it did try");
    // Down altogether: the same.
    let down = offline_run(
        &sandbox,
        Some("http://127.0.0.1:9"),
        false,
        &["and my pantry?"],
    );
    let stderr = sandbox::stderr(&down);
    assert!(down.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning:") && stderr.contains("127.0.0.1:9"),
        "{stderr}"
    );
}

#[test]
fn a_saved_session_is_sent_with_its_original_times() {
    let sandbox = Sandbox::new();
    let run = offline_run(
        &sandbox,
        None,
        true,
        &["what's in my fridge", "add milk to my shopping list"],
    );
    assert!(run.status.success(), "{}", sandbox::stderr(&run));
    let id = the_session(&sandbox);
    let saved: serde_json::Value = serde_json::from_slice(
        &sandbox
            .run(&["sessions", "export", &id, "--format", "json"])
            .stdout,
    )
    .expect("the session as JSON");
    let collector = Collector::start();
    let sent = sandbox.run(&[
        "sessions",
        "export",
        &id,
        "--format",
        "otlp",
        "--to",
        &collector.url(),
    ]);
    assert!(sent.status.success(), "{}", sandbox::stderr(&sent));
    assert!(
        sandbox::stdout(&sent).contains(&format!("Sent 2 turns of session {id}")),
        "{}",
        sandbox::stdout(&sent)
    );
    let spans = collector.spans();
    let roots = named(&spans, "invoke_agent alfred");
    assert_eq!(roots.len(), 2);
    for (root, turn) in roots
        .iter()
        .zip(saved["transcript"].as_array().expect("turns"))
    {
        let started: jiff::Timestamp = turn["started_at"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            root.start_time_unix_nano as i128,
            started.as_nanosecond(),
            "the turn's own start"
        );
    }
    // No collector: a clear error.
    let none = sandbox.run(&["sessions", "export", &id, "--format", "otlp"]);
    assert!(!none.status.success());
    assert!(
        sandbox::stderr(&none).contains("--to URL"),
        "{}",
        sandbox::stderr(&none)
    );
}
