//! A Postgres store URL as the config, the CLI and the kitchen read it:
//! whether a string is one, and how to show it without its password. Pure.

/// True when `store` names a Postgres database rather than a file.
pub fn is_postgres_url(store: &str) -> bool {
    store.starts_with("postgres://") || store.starts_with("postgresql://")
}

/// The URL without a password: `postgres://alice@db.example/kitchen`. The
/// user part ends at the last `@` before the query, so a password with an
/// unencoded `@` or `/` is hidden whole, never shown in part.
pub fn shown_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (before_query, query) = match rest.find('?') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    // A password may also come as a parameter (`?password=…`).
    let query: Vec<&str> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && !p.to_ascii_lowercase().starts_with("password="))
        .collect();
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{}", query.join("&"))
    };
    match before_query.rsplit_once('@') {
        Some((auth, host)) => {
            let user = auth.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{host}{query}")
        }
        None => format!("{scheme}://{before_query}{query}"),
    }
}
