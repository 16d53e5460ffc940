//! Reply for recipes: the recipes found, the best of a comparison, or the
//! answer about one recipe, from the analysis Act made.

use crate::context::Shown;

use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::text::{fmt_number, join_list, plural, stems};
use super::super::Said;
use super::act::{Card, Found, KIND, Line};
use super::{Ask, By, Detail, Find, Using};

/// The analysis of this turn.
fn found(c: &ReplyCtx<'_>) -> Option<Found> {
    c.req
        .data
        .iter()
        .rev()
        .find(|d| d.content.get("kind").and_then(|k| k.as_str()) == Some(KIND))
        .and_then(|d| serde_json::from_value(d.content.clone()).ok())
}

fn presented(cards: &[Card]) -> Vec<Shown> {
    cards
        .iter()
        .map(|k| Shown::new(&k.r#ref, &k.name))
        .collect()
}

fn minutes(k: &Card) -> String {
    format!("{} min", fmt_number(k.minutes))
}

/// "- Thai Yellow Curry (serves 2 · 40 min)".
fn entry(k: &Card) -> String {
    format!(
        "- {} (serves {} · {})",
        k.name,
        fmt_number(k.servings),
        minutes(k)
    )
}

/// The reply for a recipes ask.
pub fn reply(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    let Some(f) = found(c) else {
        return Said::text("I couldn't read your recipes just now, so I can't say.".into());
    };
    if let Some(p) = &f.problem {
        let mut p = p.clone();
        if let Some(first) = p.get(0..1) {
            p = format!("{}{}", first.to_uppercase(), &p[1..]);
        }
        let text = if p.ends_with('?') {
            p
        } else {
            format!("{p} — which recipe do you mean?")
        };
        return Said::text(text);
    }
    let said = match ask {
        Ask::Find(find) => found_list(find, &f),
        Ask::Compare { by, .. } => compared(*by, &f),
        Ask::About { what, servings, .. } => about(what, *servings, &f, &c.reading.words.words),
    };
    // Nothing left to show but something fits: say what and why, not
    // that nothing matches.
    if let (Ask::Find(_), true, false) = (ask, said.presented.is_empty(), f.kept_out.is_empty()) {
        let names: Vec<String> = f.kept_out.iter().map(|(n, _)| n.clone()).collect();
        let mut whys: Vec<String> = Vec::new();
        for (_, why) in &f.kept_out {
            if !whys.contains(why) {
                whys.push(why.clone());
            }
        }
        let (fit, it) = if names.len() > 1 {
            ("fit", "them")
        } else {
            ("fits", "it")
        };
        let said_as: Vec<String> = whys.iter().map(|w| format!("“{w}”")).collect();
        return Said::text(format!(
            "Only {} {fit}, and you ruled {it} out (you said {}). Want me to come up with \
             something new instead?",
            join_list(&names, "and"),
            join_list(&said_as, "and")
        ));
    }
    let left_out = if f.kept_out.is_empty() || said.presented.is_empty() {
        String::new()
    } else {
        let mut clauses: Vec<&str> = Vec::new();
        for (_, why) in &f.kept_out {
            if !clauses.contains(&why.as_str()) {
                clauses.push(why);
            }
        }
        let groups: Vec<String> = clauses
            .iter()
            .map(|why| {
                let names: Vec<String> = f
                    .kept_out
                    .iter()
                    .filter(|(_, w)| w == why)
                    .map(|(n, _)| n.clone())
                    .collect();
                let (fit, it) = if names.len() > 1 {
                    ("fit", "them")
                } else {
                    ("fits", "it")
                };
                format!(
                    "{} also {fit}, but you ruled {it} out (you said “{why}”).",
                    join_list(&names, "and")
                )
            })
            .collect();
        format!("\n\n{}", groups.join("\n"))
    };
    Said {
        text: format!("{}{left_out}", said.text),
        ..said
    }
}

fn found_list(find: &Find, f: &Found) -> Said {
    let mut what: Vec<String> = find
        .words
        .iter()
        .filter(|w| !f.unknown.contains(w))
        .cloned()
        .collect();
    what.extend(find.not.iter().map(|w| format!("not {w}")));
    let what = what.join(" ");
    if f.cards.is_empty() {
        let why = if what.is_empty() {
            "None of your saved recipes fit".to_string()
        } else {
            format!("Nothing in your saved recipes matches “{what}”")
        };
        let short = if f.short.is_empty() {
            String::new()
        } else {
            format!(
                " — {} would need more than one thing from the shops",
                join_list(&f.short, "and")
            )
        };
        return Said::text(format!(
            "{why}{short}. Want me to come up with a new one? Say what you'd like, e.g. “a quick chicken stir fry”."
        ));
    }
    let n = f.cards.len();
    let order = match find.by {
        Some(By::Quickest) => ", quickest first",
        Some(By::Slowest) => ", longest first",
        Some(By::ServesMost) => ", biggest first",
        Some(By::FewestMissing) => ", least shopping first",
        None => "",
    };
    let when = if find.dinner { " tonight" } else { "" };
    let head = if find.ready {
        format!("You can make these{when} from what's in the kitchen{order}:")
    } else if let Some(using) = find.using {
        let what = match using {
            Using::Shown => "those",
            Using::Expiring => "what's going off soon",
        };
        format!("{} use {what}:", plural(n, "recipe"))
    } else if what.is_empty() {
        format!("{}{when}{order}:", plural(n, "saved recipe"))
    } else {
        format!("Your “{what}” recipes ({n}){order}:")
    };
    let lines: Vec<String> = f
        .cards
        .iter()
        .map(|k| {
            let mut s = entry(k);
            if !k.uses.is_empty() {
                s.push_str(&format!(" — uses the {}", join_list(&k.uses, "and")));
            }
            if find.ready {
                match k.missing.first() {
                    Some(m) => s.push_str(&format!(" — short of {m} only")),
                    None => s.push_str(" — you have everything"),
                }
            }
            s
        })
        .collect();
    Said {
        text: format!(
            "{head}\n{}\n\nWant the full recipe for one, or to put one on the plan?",
            lines.join("\n")
        ),
        presented: presented(&f.cards),
        offer: None,
        confirm: None,
    }
}

fn compared(by: By, f: &Found) -> Said {
    let winners = &f.cards[..f.winners.max(1).min(f.cards.len())];
    let names: Vec<String> = winners.iter().map(|k| k.name.clone()).collect();
    let who = join_list(&names, "and");
    let first = &winners[0];
    let several = winners.len() > 1;
    let head = match by {
        By::Quickest if several => format!("{who} are the quickest — {} each.", minutes(first)),
        By::Quickest => format!("{who} is the quickest — {}.", minutes(first)),
        By::Slowest if several => format!("{who} take the longest — {} each.", minutes(first)),
        By::Slowest => format!("{who} takes the longest — {}.", minutes(first)),
        By::ServesMost if several => format!(
            "{who} serve the most — {} each.",
            fmt_number(first.servings)
        ),
        By::ServesMost => format!("{who} serves the most — {}.", fmt_number(first.servings)),
        By::FewestMissing if !f.kitchen => {
            "I couldn't check the kitchen, so I can't tell which needs less shopping.".to_string()
        }
        By::FewestMissing => {
            let need = |k: &Card| {
                if k.missing.is_empty() {
                    "nothing to buy".to_string()
                } else {
                    format!("just {}", join_list(&k.missing, "and"))
                }
            };
            if several {
                format!("{who} need the least shopping — {}.", need(first))
            } else {
                format!("{who} needs the least shopping — {}.", need(first))
            }
        }
    };
    let rest: Vec<String> = f.cards[winners.len()..]
        .iter()
        .map(|k| {
            let measure = match by {
                By::Quickest | By::Slowest => minutes(k),
                By::ServesMost => format!("serves {}", fmt_number(k.servings)),
                By::FewestMissing => format!("needs {}", plural(k.missing.len(), "thing")),
            };
            format!("{} ({measure})", k.name)
        })
        .collect();
    let then = if rest.is_empty() {
        String::new()
    } else {
        format!("\nThen: {}.", rest.join(", "))
    };
    Said {
        text: format!("{head}{then}"),
        presented: presented(winners),
        offer: None,
        confirm: None,
    }
}

/// The line of a card that is the item asked about.
fn line_of<'a>(k: &'a Card, item: &str) -> Option<&'a Line> {
    let want = stems(item);
    let exact = k.lines.iter().find(|l| stems(&l.name) == want);
    exact.or_else(|| {
        k.lines.iter().find(|l| {
            let have = stems(&l.name);
            want.iter().all(|w| have.contains(w))
        })
    })
}

/// Which of a recipe's lines belong to a family of foods ("dairy": the
/// milk and the butter), and a word on the made things whose labels say
/// more than their names (a paste, a sauce, a stock).
fn family_in(k: &Card, family: &str) -> String {
    use crate::context::taxonomy::ingredient_matches;
    let family = family.trim();
    let has: Vec<String> = k
        .lines
        .iter()
        .filter(|l| ingredient_matches(&l.name, family))
        .map(|l| format!("{} {}", l.amount, l.name).trim().to_string())
        .collect();
    let made: Vec<String> = k
        .lines
        .iter()
        .filter(|l| {
            let last = l.name.rsplit(' ').next().unwrap_or_default();
            matches!(last, "paste" | "sauce" | "stock" | "mix" | "seasoning")
                && !ingredient_matches(&l.name, family)
        })
        .map(|l| l.name.clone())
        .collect();
    let label = if made.is_empty() {
        String::new()
    } else {
        format!(
            " Check the label of the {} — what's in {} isn't in the recipe.",
            join_list(&made, "and"),
            if made.len() > 1 { "them" } else { "it" }
        )
    };
    if has.is_empty() {
        format!("{} has no {family} among its ingredients.{label}", k.name)
    } else {
        format!(
            "{} has {family}: {}.{label}",
            k.name,
            join_list(&has, "and")
        )
    }
}

fn about(what: &Detail, servings: Option<u32>, f: &Found, words: &[String]) -> Said {
    // "At 6 servings, ": the amounts below are scaled to it.
    let at = servings.map_or(String::new(), |n| format!("At {n} servings, "));
    if f.cards.is_empty() {
        return Said::text("I couldn't tell which recipe you mean — which one?".into());
    }
    let mut parts = Vec::new();
    for k in &f.cards {
        parts.push(match what {
            Detail::Ingredients => {
                let lines: Vec<String> = k
                    .lines
                    .iter()
                    .map(|l| {
                        let lack = if f.kitchen && k.missing.contains(&l.name) {
                            " — not in the kitchen"
                        } else {
                            ""
                        };
                        format!("- {} {}{lack}", l.amount, l.name).replace("-  ", "- ")
                    })
                    .collect();
                format!(
                    "**{}** (serves {} · {}) needs:\n{}{}",
                    k.name,
                    fmt_number(k.servings),
                    minutes(k),
                    lines.join("\n"),
                    missing_line(k, f.kitchen)
                )
            }
            // "does it have dairy", "any nuts in it": a family is answered
            // by what belongs to it, never by a row named like it.
            Detail::AmountOf(item)
                if line_of(k, item).is_none() && crate::context::taxonomy::is_family(item) =>
            {
                family_in(k, item)
            }
            Detail::AmountOf(item) => match line_of(k, item) {
                Some(l) => {
                    let double = words.iter().any(|w| w.starts_with("doubl"));
                    let mut s = format!("{at}{} takes {} {}", k.name, counted(&l.amount), l.name);
                    if double
                        && let Some((n, unit)) = l.amount.split_once(' ')
                        && let Ok(n) = n.parse::<f64>()
                    {
                        s.push_str(&format!(" ({} {unit} if you double it)", fmt_number(n * 2.0)));
                    }
                    let have = l.have.as_deref().map(counted);
                    match (&have, f.kitchen) {
                        (Some(h), _) => s.push_str(&match l.enough {
                            Some(true) => format!(" — you have {h}, so that's enough."),
                            Some(false) => format!(" — you have only {h}, not enough."),
                            None => format!(" — you have {h}."),
                        }),
                        (None, true) => s.push_str(&format!(" — you have no {} in.", l.name)),
                        (None, false) => s.push('.'),
                    }
                    s
                }
                None => format!("{} doesn't use any {item}.", k.name),
            },
            Detail::Time => format!("{} takes {}, start to finish.", k.name, minutes(k)),
            Detail::Serves => format!(
                "{} serves {} as written — say \"make it for 6\" to scale it.",
                k.name,
                fmt_number(k.servings)
            ),
            Detail::Spicy => {
                let lines_where = |keep: fn(&Line) -> bool| -> Vec<String> {
                    k.lines
                        .iter()
                        .filter(|l| keep(l))
                        .map(|l| format!("{} {}", l.amount, l.name).trim().to_string())
                        .collect()
                };
                let hot = lines_where(|l| l.hot);
                let warm = lines_where(|l| l.warm);
                let (gentle, them) = if warm.len() > 1 {
                    ("both gentle", "them")
                } else {
                    ("which is gentle", "it")
                };
                if hot.is_empty() && !warm.is_empty() {
                    format!(
                        "{} is mild — its only heat is {}, {gentle}. Leave {them} out for none at all.",
                        k.name,
                        join_list(&warm, "and"),
                    )
                } else if hot.is_empty() {
                    format!("{} isn't spicy — there's no chili or pepper heat in it.", k.name)
                } else {
                    format!(
                        "{} has some heat: {}. Use less of {} for a milder one.",
                        k.name,
                        join_list(&hot, "and"),
                        if hot.len() > 1 { "them" } else { "it" }
                    )
                }
            }
            Detail::Missing => {
                if !f.kitchen {
                    format!("I couldn't check the kitchen for {}.", k.name)
                } else if k.missing.is_empty() {
                    // "what do i need for it": what it takes, all in.
                    let needs: Vec<String> = k
                        .lines
                        .iter()
                        .map(|l| {
                            if l.amount.is_empty() {
                                l.name.clone()
                            } else {
                                format!("{} {}", l.amount, l.name)
                            }
                        })
                        .collect();
                    let frozen: Vec<String> = k
                        .lines
                        .iter()
                        .filter(|l| l.have.as_deref().is_some_and(|h| h.contains("freezer")))
                        .map(|l| l.name.clone())
                        .collect();
                    let thaw = if frozen.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " The {} is in the freezer, so thaw it first.",
                            join_list(&frozen, "and")
                        )
                    };
                    let you = if at.is_empty() {
                        "You".to_string()
                    } else {
                        format!("{at}you")
                    };
                    if needs.is_empty() {
                        format!("{you} have everything for {}.", k.name)
                    } else {
                        format!(
                            "{you} have everything for {} — it takes {}.{thaw}",
                            k.name,
                            join_list(&needs, "and")
                        )
                    }
                } else {
                    format!(
                        "{at}{} you'd need to buy: {}.",
                        if at.is_empty() {
                            format!("For {}", k.name)
                        } else {
                            format!("for {}", k.name)
                        },
                        join_list(&k.missing, "and")
                    )
                }
            }
        });
    }
    Said {
        text: parts.join("\n\n"),
        presented: presented(&f.cards),
        offer: None,
        confirm: None,
    }
}

fn missing_line(k: &Card, kitchen: bool) -> String {
    if !kitchen {
        String::new()
    } else if k.missing.is_empty() {
        "\n\nYou have everything for it.".to_string()
    } else {
        format!("\n\nYou'd need to buy: {}.", join_list(&k.missing, "and"))
    }
}

/// An amount as said: "1 pcs" is "1", "3 can in the pantry" is "3 cans in
/// the pantry".
fn counted(amount: &str) -> String {
    let mut words: Vec<String> = amount.split(' ').map(str::to_string).collect();
    let n = words.first().and_then(|w| w.parse::<f64>().ok());
    match (n, words.get(1).map(String::as_str)) {
        (Some(_), Some("pcs" | "pc")) => {
            words.remove(1);
        }
        (Some(n), Some(u))
            if n != 1.0
                && matches!(
                    u,
                    "can"
                        | "jar"
                        | "pack"
                        | "bag"
                        | "bottle"
                        | "clove"
                        | "tin"
                        | "slice"
                        | "tub"
                        | "block"
                        | "bunch"
                        | "box"
                        | "loaf"
                ) =>
        {
            words[1] = crate::brain::offline::text::plural_noun(u);
        }
        _ => {}
    }
    words.join(" ")
}
