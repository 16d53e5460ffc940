//! Colours by meaning, in dark and light variants that stay readable on a
//! 16-colour terminal (only the basic ANSI colours are used).

use ratatui::style::{Color, Modifier, Style};

use crate::config::Theme as ThemeName;
use crate::context::{ChangeKind, EntityState};

/// The palette the views draw with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub text: Style,
    pub dim: Style,
    pub title: Style,
    pub border: Style,
    pub border_focused: Style,
    pub user: Style,
    pub alfred: Style,
    pub error: Style,
    pub note: Style,
    pub accent: Style,
    pub heading: Style,
    pub code: Style,
    pub recent: Style,
    pub retained: Style,
    pub pending: Style,
    pub excluded: Style,
    pub background: Style,
    pub dropped: Style,
    pub new: Style,
    pub promoted: Style,
    pub demoted: Style,
    pub status_bar: Style,
}

impl Theme {
    /// The theme named in config.
    pub fn named(name: ThemeName) -> Self {
        match name {
            ThemeName::Dark => Self::dark(),
            ThemeName::Light => Self::light(),
        }
    }

    /// Light text on a dark terminal.
    pub fn dark() -> Self {
        let fg = |c: Color| Style::new().fg(c);
        Self {
            text: Style::new(),
            dim: fg(Color::DarkGray),
            title: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            border: fg(Color::DarkGray),
            border_focused: fg(Color::Cyan),
            user: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            alfred: fg(Color::Green).add_modifier(Modifier::BOLD),
            error: fg(Color::Red),
            note: fg(Color::Magenta),
            accent: fg(Color::Yellow),
            heading: fg(Color::Yellow).add_modifier(Modifier::BOLD),
            code: fg(Color::LightBlue),
            recent: fg(Color::Green),
            retained: fg(Color::Cyan),
            pending: fg(Color::Yellow),
            excluded: fg(Color::Red),
            background: fg(Color::DarkGray),
            dropped: fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            new: fg(Color::Green).add_modifier(Modifier::BOLD),
            promoted: fg(Color::Magenta).add_modifier(Modifier::BOLD),
            demoted: fg(Color::Red).add_modifier(Modifier::BOLD),
            status_bar: Style::new().fg(Color::Black).bg(Color::Cyan),
        }
    }

    /// Dark text on a light terminal.
    pub fn light() -> Self {
        let fg = |c: Color| Style::new().fg(c);
        Self {
            text: Style::new(),
            dim: fg(Color::DarkGray),
            title: fg(Color::Blue).add_modifier(Modifier::BOLD),
            border: fg(Color::Gray),
            border_focused: fg(Color::Blue),
            user: fg(Color::Blue).add_modifier(Modifier::BOLD),
            alfred: fg(Color::Green).add_modifier(Modifier::BOLD),
            error: fg(Color::Red),
            note: fg(Color::Magenta),
            accent: fg(Color::Magenta),
            heading: fg(Color::Blue).add_modifier(Modifier::BOLD),
            code: fg(Color::Blue),
            recent: fg(Color::Green),
            retained: fg(Color::Blue),
            pending: fg(Color::Magenta),
            excluded: fg(Color::Red),
            background: fg(Color::DarkGray),
            dropped: fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            new: fg(Color::Green).add_modifier(Modifier::BOLD),
            promoted: fg(Color::Magenta).add_modifier(Modifier::BOLD),
            demoted: fg(Color::Red).add_modifier(Modifier::BOLD),
            status_bar: Style::new().fg(Color::White).bg(Color::Blue),
        }
    }

    /// The colour of an entity state.
    pub fn state(&self, state: EntityState) -> Style {
        match state {
            EntityState::Recent => self.recent,
            EntityState::Retained => self.retained,
            EntityState::Pending => self.pending,
            EntityState::Excluded => self.excluded,
            EntityState::Background => self.background,
            EntityState::Dropped => self.dropped,
        }
    }

    /// The colour of a change mark.
    pub fn change(&self, kind: ChangeKind) -> Style {
        match kind {
            ChangeKind::New | ChangeKind::Activated => self.new,
            ChangeKind::Promoted => self.promoted,
            ChangeKind::Excluded | ChangeKind::Demoted | ChangeKind::Dropped => self.demoted,
            ChangeKind::AgedOut => self.dim,
            ChangeKind::Moved | ChangeKind::Written => self.accent,
        }
    }
}
