//! A message of the chat: who wrote it, its text, its turn, and the
//! revision cached layouts key on. Below both the model that holds the
//! messages and the layout cache that draws them.

/// Who wrote a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Alfred,
    /// A failed turn, shown inline in red with the reason.
    Error,
    /// A note from the app (a slash command's answer, a `why`).
    Note,
}

/// One message of the chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMessage {
    pub role: Role,
    pub text: String,
    /// The turn it belongs to (0 for notes before the first turn).
    pub turn: u32,
    /// Bumped whenever the text changes, so cached layouts know to redo it.
    pub revision: u64,
}
