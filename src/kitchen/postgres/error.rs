//! The Postgres store's errors, in words a user can act on: the server's
//! or the driver's message ([`PgError`]) and, for a first connection that
//! failed, what went wrong and what to do about it ([`ConnectCause`]).

use std::time::Duration;

/// How long connecting may take before the store says it cannot reach the
/// server.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A Postgres error, in words: the server's message (with its detail and
/// hint) or the driver's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PgError {
    pub message: String,
    /// The SQLSTATE code, when the server answered.
    pub code: Option<String>,
}

impl PgError {
    /// An error in words, without a SQLSTATE.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: None,
        }
    }

    /// True for integrity violations (SQLSTATE class 23): a unique,
    /// foreign-key, not-null or check constraint refused the change.
    pub fn is_constraint(&self) -> bool {
        self.code.as_deref().is_some_and(|c| c.starts_with("23"))
    }
}

impl From<tokio_postgres::Error> for PgError {
    fn from(e: tokio_postgres::Error) -> Self {
        match e.as_db_error() {
            Some(db) => {
                let mut message = db.message().to_string();
                if let Some(detail) = db.detail() {
                    message.push_str(&format!(" ({detail})"));
                }
                if let Some(hint) = db.hint() {
                    message.push_str(&format!("; {hint}"));
                }
                Self {
                    message,
                    code: Some(db.code().code().to_string()),
                }
            }
            None => {
                // The driver's words, with their causes ("error performing
                // TLS handshake: invalid peer certificate: UnknownIssuer").
                let mut message = e.to_string();
                let mut cause = std::error::Error::source(&e);
                while let Some(c) = cause {
                    message.push_str(&format!(": {c}"));
                    cause = c.source();
                }
                if message.contains("certificate") {
                    message.push_str(
                        " — the server's certificate is not trusted by this system: add its \
                         CA to the system's certificates, or put ?sslmode=disable on the URL \
                         on a network you trust",
                    );
                }
                Self::new(message)
            }
        }
    }
}

impl From<deadpool_postgres::PoolError> for PgError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        match e {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            other => Self::new(other.to_string()),
        }
    }
}

pub type PgResult<T> = std::result::Result<T, PgError>;

/// Why a connection to the server failed, each with what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectCause {
    /// Nothing listens at the address (the server is down, or the host or
    /// port is wrong).
    Refused { at: String },
    /// The server did not answer in time.
    Timeout { at: String },
    /// The host name does not resolve.
    UnknownHost { host: String },
    /// The server refused the password.
    WrongPassword { role: String },
    /// The server asks for a password and the URL gives none.
    NoPassword { role: String },
    /// The server has no such role.
    UnknownRole { role: String },
    /// The server has no such database.
    NoDatabase { name: String },
    /// The URL asks for TLS and the server does not offer it.
    TlsUnsupported,
    /// The server's certificate is not trusted here.
    Untrusted { detail: String },
    /// The server refused for another reason (its words).
    Refusal { reason: String },
}

impl std::fmt::Display for ConnectCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused { at } => write!(
                f,
                "nothing answers at {at} — start the Postgres server, or fix the host and \
                 port in the URL"
            ),
            Self::Timeout { at } => write!(
                f,
                "{at} did not answer within {} s — check that the host is up and reachable, \
                 or add ?connect_timeout=SECONDS to the URL",
                CONNECT_TIMEOUT.as_secs()
            ),
            Self::UnknownHost { host } => write!(
                f,
                "the host name {host} is not known — fix the host in the URL"
            ),
            Self::WrongPassword { role } => write!(
                f,
                "the server refused the password of role {role} — fix the password in the \
                 URL (--store or [store] url; percent-encode @, : and / in it)"
            ),
            Self::NoPassword { role } => write!(
                f,
                "the server asks for the password of role {role} and the URL gives none — \
                 write it in the URL (postgres://{role}:PASSWORD@host/db)"
            ),
            Self::UnknownRole { role } => write!(
                f,
                "the server has no role {role} — fix the user name in the URL, or create \
                 the role (CREATE ROLE {role} LOGIN PASSWORD '…')"
            ),
            Self::NoDatabase { name } => write!(
                f,
                "the server has no database {name} — fix its name in the URL, or create \
                 it (createdb {name}) and fill it with `alfred kitchen init`"
            ),
            Self::TlsUnsupported => write!(
                f,
                "the URL asks for TLS (sslmode=require) and the server does not offer it — \
                 turn TLS on at the server, or use sslmode=prefer or disable on a network \
                 you trust"
            ),
            Self::Untrusted { detail } => write!(
                f,
                "the server's certificate is not trusted by this system ({detail}) — add \
                 its CA to the system's certificates, or put ?sslmode=disable on the URL on \
                 a network you trust"
            ),
            Self::Refusal { reason } => write!(f, "{reason}"),
        }
    }
}

impl ConnectCause {
    /// Reads a failed first connection: the server's SQLSTATE when it
    /// answered, else the driver's words. `config` gives the role, the
    /// database and the address the URL named.
    pub(super) fn of(e: &PgError, config: &tokio_postgres::Config) -> Self {
        let role = config.get_user().unwrap_or("(none)").to_string();
        let name = config
            .get_dbname()
            .map(String::from)
            .unwrap_or_else(|| role.clone());
        let host = config
            .get_hosts()
            .first()
            .map(|h| match h {
                tokio_postgres::config::Host::Tcp(h) => h.clone(),
                tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .unwrap_or_else(|| "localhost".into());
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let at = format!("{host}:{port}");
        let text = e.message.to_lowercase();
        match e.code.as_deref() {
            Some("28P01") => return Self::WrongPassword { role },
            Some("3D000") => return Self::NoDatabase { name },
            Some("28000") if text.contains("role") && text.contains("does not exist") => {
                return Self::UnknownRole { role };
            }
            Some(_) => {
                return Self::Refusal {
                    reason: e.message.clone(),
                };
            }
            None => {}
        }
        if text.contains("server does not support tls") {
            Self::TlsUnsupported
        } else if text.contains("certificate") {
            Self::Untrusted {
                detail: e.message.clone(),
            }
        } else if text.contains("connection refused") {
            Self::Refused { at }
        } else if text.contains("timed out") || text.contains("timeout") {
            Self::Timeout { at }
        } else if text.contains("failed to lookup")
            || text.contains("name or service not known")
            || text.contains("no address")
        {
            Self::UnknownHost { host }
        } else if text.contains("password missing") {
            Self::NoPassword { role }
        } else {
            Self::Refusal {
                reason: e.message.clone(),
            }
        }
    }
}
