//! Quitting: what every key handler does on the quit key, in one place
//! below them all (the running turn is aborted and still recorded; the loop
//! saves and leaves).

use super::effect::Effect;
use super::model::{Model, TurnState};

/// Marks the model as quitting; the effects that leave.
pub fn quit(m: &mut Model) -> Vec<Effect> {
    m.chrome.quitting = true;
    let mut effects = Vec::new();
    if let TurnState::Running { id, message, .. } = m.turn.state.clone() {
        let turn = m.session.context.turn + 1;
        effects.push(Effect::AbortTurn { id, turn, message });
    }
    effects.push(Effect::Quit);
    effects
}
