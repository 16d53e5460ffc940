//! Policy what-if on screen: window 1 tried on the real meal-planning
//! session at turn 4, the box over the chat, the comparison in Entities.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::test_support::render_frame;
use crate::tui::event::Event;
use crate::tui::keymap::Keymap;
use crate::tui::model::Pane;
use crate::tui::test_records;
use crate::tui::update::update;

#[test]
fn window_1_beside_window_2_with_what_moves_and_why() {
    let mut m = test_records::model(4, 120, 40);
    m.chrome.focus = Pane::Chat;
    let keymap = Keymap::default_keys();
    for code in [KeyCode::Char('w'), KeyCode::Left] {
        update(
            &mut m,
            &keymap,
            Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        );
    }
    let screen = render_frame(&m, 120, 40);
    insta::assert_snapshot!("whatif_window1_turn4_120x40", screen);
    assert!(screen.contains("What if… (policy)"), "{screen}");
    assert!(screen.contains("retention window"), "{screen}");
    assert!(screen.contains("◀    1     ▶ now 2"), "{screen}");
    assert!(screen.contains("What if · turn 4"), "{screen}");
    assert!(
        screen.contains("what if: windowed · window 1 ·"),
        "{screen}"
    );
    assert!(screen.contains("recent → background"), "{screen}");
    assert!(screen.contains("Enter apply · Esc discard"), "{screen}");

    // Narrow: the comparison is the pane shown, the box over its bottom.
    let screen = render_frame(&m, 70, 30);
    insta::assert_snapshot!("whatif_narrow_70x30", screen);
    assert!(screen.contains("What if · turn 4"), "{screen}");
    assert!(screen.contains("What if… (policy)"), "{screen}");
}
