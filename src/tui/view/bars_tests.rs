//! The one-row bars at fixed widths: the pipeline bar (mid-turn, done,
//! failed), the title bar and the key hints.

use super::test_support::render_widget;
use super::{KeyHints, PipelineBarView, TitleBar};
use crate::pipeline::{Node, TurnId};
use crate::tui::model::{Level, NodeStatus, PipelineBar, SessionHeader, TurnState};
use crate::tui::theme::Theme;

fn bar_at(bar: &PipelineBar, turn: &TurnState, widths: &[u16]) -> String {
    let theme = Theme::dark();
    widths
        .iter()
        .map(|w| {
            let view = PipelineBarView {
                bar,
                turn,
                spinner: 0,
                now: None,
                retry_key: Some("r"),
                theme: &theme,
            };
            format!("{w:>3}|{}", render_widget(view, *w, 1))
        })
        .collect()
}

fn mid_turn() -> (PipelineBar, TurnState) {
    let mut bar = PipelineBar::default();
    bar.set(
        Node::Understand,
        NodeStatus::Done {
            ms: 3.2,
            tokens: 1800,
        },
    );
    bar.set(
        Node::Think,
        NodeStatus::Done {
            ms: 2.4,
            tokens: 1400,
        },
    );
    bar.set(Node::Act, NodeStatus::Running);
    bar.act_step = Some((2, 3));
    let turn = TurnState::Running {
        id: TurnId(4),
        message: "hi".into(),
        node: Some(Node::Act),
    };
    (bar, turn)
}

#[test]
fn pipeline_bar_mid_turn_fits_every_width() {
    let (bar, turn) = mid_turn();
    let out = bar_at(&bar, &turn, &[100, 80, 60, 50, 40, 30, 12]);
    insta::assert_snapshot!("pipeline_bar_mid_turn", out);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains(
            "Understand ✓ 3ms → Think ✓ 2ms → Act 2/3 ⠋ → Reply → Summarize   total 6ms · 3.2k tok"
        ),
        "{}",
        lines[0]
    );
    assert!(lines[..6].iter().all(|l| l.contains('⠋')), "{out}");
    assert!(
        !lines[2].contains("3ms") && lines[2].contains("Act 2/3 ⠋"),
        "times go first: {}",
        lines[2]
    );
}

#[test]
fn a_running_node_and_the_turn_count_up_while_it_runs() {
    let (mut bar, turn) = mid_turn();
    let now = std::time::Instant::now();
    bar.node_since = Some(now - std::time::Duration::from_millis(14_200));
    bar.turn_since = Some(now - std::time::Duration::from_millis(20_050));
    let theme = Theme::dark();
    let line = |now| {
        let view = PipelineBarView {
            bar: &bar,
            turn: &turn,
            spinner: 0,
            now,
            retry_key: None,
            theme: &theme,
        };
        render_widget(view, 110, 1)
    };
    let live = line(Some(now));
    assert!(
        live.contains("Act 2/3 ⠋ 14.2s → Reply") && live.contains("total 20.1s · 3.2k tok"),
        "{live}"
    );
    let later = line(Some(now + std::time::Duration::from_secs(3)));
    assert!(
        later.contains("Act 2/3 ⠋ 17.2s") && later.contains("total 23.1s"),
        "{later}"
    );
}

#[test]
fn pipeline_bar_after_a_turn_and_after_a_failure() {
    let mut bar = PipelineBar::default();
    for (node, ms) in [
        (Node::Understand, 3.0),
        (Node::Think, 2.0),
        (Node::Act, 6.0),
        (Node::Reply, 2.5),
    ] {
        bar.set(node, NodeStatus::Done { ms, tokens: 800 });
    }
    bar.set(Node::Summarize, NodeStatus::Skipped);
    bar.total_ms = Some(14.2);
    bar.total_tokens = 3210;
    let idle = bar_at(&bar, &TurnState::Idle, &[100, 60]);
    let failed = TurnState::Failed {
        reason: "LLM request timed out after 30s (gpt-4.1-mini @ localhost:11434)".into(),
        message: "plan my week".into(),
    };
    let fail = bar_at(&bar, &failed, &[100, 60, 30]);
    insta::assert_snapshot!("pipeline_bar_done_and_failed", format!("{idle}{fail}"));
    assert!(idle.contains("total 14ms · 3.2k tok"), "{idle}");
    assert!(fail.contains("✗ failed: LLM request timed out after 30s (gpt-4.1-mini @ localhost:11434) — press r to retry"), "{fail}");
    assert!(
        fail.lines()
            .nth(1)
            .is_some_and(|l| l.ends_with("— press r to retry")),
        "{fail}"
    );
}

#[test]
fn title_bar_right_aligns_the_status() {
    let theme = Theme::dark();
    let header = meal_planning(None);
    let status = (
        Level::Warn,
        "no API key — using the offline brain".to_string(),
    );
    let bar = || TitleBar {
        header: &header,
        turn: 3,
        running: None,
        viewing: None,
        status: Some(&status),
        theme: &theme,
    };
    let wide = render_widget(bar(), 100, 1);
    let narrow = render_widget(bar(), 50, 1);
    insta::assert_snapshot!("title_bar", format!("{wide}{narrow}"));
    assert!(wide.starts_with("alfred · Meal planning · turn 3 · offline"));
    assert!(
        wide.trim_end()
            .ends_with("no API key — using the offline brain")
    );
    assert!(
        narrow.trim_end().ends_with('…') || narrow.contains("no API"),
        "{narrow}"
    );
}

#[test]
fn title_bar_names_a_postgres_kitchen_after_the_brain() {
    let theme = Theme::dark();
    let header = meal_planning(Some("pg alfred · user 8d1c0d5e"));
    let bar = TitleBar {
        header: &header,
        turn: 3,
        running: None,
        viewing: None,
        status: None,
        theme: &theme,
    };
    let line = render_widget(bar, 100, 1);
    assert!(
        line.starts_with("alfred · Meal planning · turn 3 · offline · pg alfred · user 8d1c0d5e"),
        "{line}"
    );
}

#[test]
fn key_hints_drop_whole_hints_when_narrow() {
    let theme = Theme::dark();
    let hints = [
        ("Enter", "send"),
        ("Tab", "focus"),
        ("?", "help"),
        ("Esc", "cancel"),
        ("Ctrl-C", "quit"),
    ];
    let line = || KeyHints {
        hints: &hints,
        theme: &theme,
    };
    let wide = render_widget(line(), 80, 1);
    let narrow = render_widget(line(), 34, 1);
    assert_eq!(
        wide.trim(),
        "Enter send · Tab focus · ? help · Esc cancel · Ctrl-C quit"
    );
    assert_eq!(narrow.trim(), "Enter send · Tab focus · ? help");
    // Narrower, the help hint stays and the others go first.
    assert_eq!(render_widget(line(), 20, 1).trim(), "Enter send · ? help");
    assert_eq!(render_widget(line(), 12, 1).trim(), "? help");
    let help_last = [("Enter", "send"), ("Alt+Enter", "new line"), ("F1", "help")];
    let line = KeyHints {
        hints: &help_last,
        theme: &theme,
    };
    assert_eq!(render_widget(line, 30, 1).trim(), "Enter send · F1 help");
}

#[test]
fn title_bar_names_the_turn_under_way_from_the_moment_it_is_sent() {
    let theme = Theme::dark();
    let header = meal_planning(None);
    let bar = TitleBar {
        header: &header,
        turn: 3,
        running: Some(4),
        viewing: None,
        status: None,
        theme: &theme,
    };
    let line = render_widget(bar, 100, 1);
    assert!(
        line.starts_with("alfred · Meal planning · turn 4 (running) · offline"),
        "{line}"
    );
}

/// The header of the session "Meal planning" on the offline brain.
fn meal_planning(kitchen: Option<&str>) -> SessionHeader {
    SessionHeader {
        id: "s-1".into(),
        title: "Meal planning".into(),
        llm: "offline".into(),
        kitchen: kitchen.map(str::to_string),
    }
}
