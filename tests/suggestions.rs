//! Suggestions: every next message a turn's record suggests, across the
//! free-typed corpus, is one the offline reader carries out as it stands in
//! that context — never a question back, never a confirm. They are the
//! first minutes' guided tour, so a suggestion that is not understood is a
//! broken promise.

#[path = "support/scripts.rs"]
mod scripts;

use alfred::fixtures::Conversation;

#[test]
fn every_suggestion_across_the_corpus_is_read_as_a_confident_act() {
    let files = scripts::script_files("tests/corpus");
    assert!(files.len() >= 30, "the corpus is missing");
    let mut offered = 0;
    let mut turns = 0;
    let mut unread: Vec<String> = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a corpus file");
        let mut talk = Conversation::new();
        for message in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let record = talk.say(message).clone();
            turns += 1;
            assert!(
                record.suggestions.len() <= 3,
                "more than three suggestions: {:?}",
                record.suggestions
            );
            let names = talk.kitchen_names();
            for s in &record.suggestions {
                offered += 1;
                if !alfred::brain::offline::reads_as_an_act(&talk.state, &names, s) {
                    unread.push(format!(
                        "{} after {message:?}: {s:?}",
                        path.file_name().unwrap_or_default().to_string_lossy()
                    ));
                }
            }
        }
    }
    println!("{offered} suggestions over {turns} turns");
    // Nearly every turn offers some: the tour never goes quiet for long.
    assert!(offered >= turns, "{offered} suggestions over {turns} turns");
    assert!(
        unread.is_empty(),
        "{} of {offered} suggestions are not read as an act:\n{}",
        unread.len(),
        unread.join("\n")
    );
}
