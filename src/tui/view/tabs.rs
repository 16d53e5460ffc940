//! The tab row of narrow terminals: "Chat | Entities | Narrative | History",
//! the pane on screen highlighted. A view: it reads which pane is shown.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::tui::model::Pane;
use crate::tui::theme::Theme;

/// The panes a tab can show, in order.
pub const TAB_PANES: [Pane; 4] = [Pane::Chat, Pane::Entities, Pane::Narrative, Pane::History];

/// The tab row.
pub struct PaneTabs<'a> {
    /// The pane on screen.
    pub shown: Pane,
    pub theme: &'a Theme,
}

impl Widget for PaneTabs<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let t = self.theme;
        let mut spans = Vec::new();
        for (i, pane) in TAB_PANES.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled("|", t.dim));
            }
            let label = format!(" {} ", pane.title());
            if *pane == self.shown {
                spans.push(Span::styled(
                    label,
                    t.title.add_modifier(Modifier::REVERSED),
                ));
            } else {
                spans.push(Span::styled(label, t.dim));
            }
        }
        buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    }
}
