//! A small food taxonomy for standing constraints: which ingredient a word
//! names ("fish" covers cod and salmon, "shellfish" covers shrimp), which
//! words are cuisines, recipe kinds (tags) and diets, and what each diet
//! rules out.
//!
//! Pure data and word matching; no IO. Words are compared lowercase and
//! singular ("prawns" is "prawn"), as whole words in order ("sea bass"
//! inside "fresh sea bass fillet").

/// A family of ingredients one word can name.
struct Family {
    /// The names a user gives the family: "fish", "seafood".
    names: &'static [&'static str],
    /// Ingredient names in the family (matched as whole words).
    members: &'static [&'static str],
    /// Ingredients that look like members but are not ("fish sauce" is not
    /// a fish for "no fish"; "coconut milk" is not dairy).
    not: &'static [&'static str],
}

const FISH: &[&str] = &[
    "fish",
    "cod",
    "salmon",
    "tuna",
    "haddock",
    "mackerel",
    "sardine",
    "anchovy",
    "tilapia",
    "trout",
    "halibut",
    "sea bass",
    "basa",
    "pollock",
    "swordfish",
    "snapper",
    "catfish",
    "hake",
    "monkfish",
    "sole",
    "bream",
];
const SHELLFISH: &[&str] = &[
    "shellfish",
    "shrimp",
    "prawn",
    "crab",
    "lobster",
    "mussel",
    "clam",
    "oyster",
    "scallop",
    "crayfish",
    "crawfish",
    "langoustine",
    "cockle",
];
const OTHER_SEAFOOD: &[&str] = &["squid", "calamari", "octopus", "cuttlefish", "seafood"];
const POULTRY: &[&str] = &["chicken", "turkey", "duck", "goose", "quail", "poultry"];
const PORK: &[&str] = &[
    "pork",
    "bacon",
    "ham",
    "chorizo",
    "pancetta",
    "prosciutto",
    "salami",
    "pepperoni",
    "sausage",
    "lard",
];
const RED_MEAT: &[&str] = &[
    "beef", "steak", "lamb", "mutton", "goat", "veal", "venison", "brisket", "mince", "oxtail",
];
const MEAT_WORDS: &[&str] = &["meat"];
const DAIRY: &[&str] = &[
    "dairy",
    "milk",
    "cheese",
    "butter",
    "yogurt",
    "yoghurt",
    "cream",
    "paneer",
    "ghee",
    "feta",
    "mozzarella",
    "parmesan",
    "cheddar",
    "ricotta",
    "halloumi",
    "mascarpone",
    "buttermilk",
    "creme fraiche",
];
const DAIRY_NOT: &[&str] = &[
    "coconut milk",
    "coconut cream",
    "almond milk",
    "oat milk",
    "soy milk",
    "rice milk",
    "peanut butter",
    "almond butter",
    "cocoa butter",
    "cream of tartar",
];
const NUTS: &[&str] = &[
    "nut",
    "peanut",
    "almond",
    "cashew",
    "walnut",
    "pecan",
    "pistachio",
    "hazelnut",
    "macadamia",
    "pine nut",
];
const NUTS_NOT: &[&str] = &["nutmeg", "butternut", "coconut", "nutritional yeast"];
const GLUTEN: &[&str] = &[
    "gluten",
    "wheat",
    "flour",
    "bread",
    "brioche",
    "naan",
    "pasta",
    "spaghetti",
    "couscous",
    "breadcrumb",
    "panko",
    "pita",
    "barley",
    "egg noodle",
];
const GLUTEN_NOT: &[&str] = &[
    "rice flour",
    "rice noodle",
    "corn flour",
    "cornflour",
    "gluten free",
    "chickpea flour",
];
/// Ingredients that make a dish hot (mild chili powders and green chilies
/// in a mild curry do not count).
const CHILI_HEAT: &[&str] = &[
    "cayenne",
    "dried red chili",
    "chili flake",
    "chilli flake",
    "red pepper flake",
    "chili oil",
    "sriracha",
    "jalapeno",
    "habanero",
    "bird eye chili",
    "birds eye chili",
    "scotch bonnet",
    "gochujang",
    "sambal",
    "hot sauce",
    "chipotle",
    "harissa",
];
const MUSHROOM: &[&str] = &[
    "mushroom",
    "shiitake",
    "portobello",
    "enoki",
    "porcini",
    "chanterelle",
];
const EGG: &[&str] = &["egg"];

const FAMILIES: &[Family] = &[
    Family {
        names: &["fish"],
        members: FISH,
        not: &["fish sauce", "fish stock"],
    },
    Family {
        names: &["shellfish"],
        members: SHELLFISH,
        not: &[],
    },
    Family {
        names: &["seafood", "sea food"],
        members: &[],
        not: &[],
    },
    Family {
        names: &["poultry"],
        members: POULTRY,
        not: &["chicken stock", "chicken broth"],
    },
    Family {
        names: &["pork"],
        members: PORK,
        not: &[],
    },
    Family {
        names: &["red meat"],
        members: RED_MEAT,
        not: &[],
    },
    Family {
        names: &["meat"],
        members: &[],
        not: &[],
    },
    Family {
        names: &["dairy"],
        members: DAIRY,
        not: DAIRY_NOT,
    },
    Family {
        names: &["nut", "tree nut"],
        members: NUTS,
        not: NUTS_NOT,
    },
    Family {
        names: &["gluten", "wheat"],
        members: GLUTEN,
        not: GLUTEN_NOT,
    },
    Family {
        names: &["mushroom"],
        members: MUSHROOM,
        not: &[],
    },
    Family {
        names: &["egg"],
        members: EGG,
        not: &["eggplant"],
    },
];

/// The lowercase singular words of `text`.
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(singular)
        .collect()
}

/// A word's singular form, by the usual English endings.
pub fn singular(w: &str) -> String {
    let n = w.chars().count();
    if n <= 3 || !w.is_ascii() {
        return w.to_string();
    }
    // "chillies" is a chilli, not a "chilly".
    if matches!(w, "chillies" | "chilies" | "chilis" | "chillis") {
        return w[..w.len() - w.strip_suffix("ies").map_or(1, |_| 2)].to_string();
    }
    if let Some(s) = w.strip_suffix("ies") {
        return format!("{s}y");
    }
    // "curry leaves" is a leaf ("leave" is a verb); olives and cloves keep
    // their e.
    if let Some(s) = w.strip_suffix("ves")
        && matches!(s, "lea" | "loa" | "hal" | "shel" | "kni")
    {
        return if s == "kni" {
            "knife".to_string()
        } else {
            format!("{s}f")
        };
    }
    for suffix in ["oes", "ches", "shes", "xes"] {
        if w.ends_with(suffix) {
            return w[..w.len() - 2].to_string();
        }
    }
    if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") {
        return w.to_string();
    }
    w.strip_suffix('s').unwrap_or(w).to_string()
}

/// True when `phrase`'s words occur in `text`'s words, in order, together.
pub fn contains_phrase(text: &[String], phrase: &str) -> bool {
    let p = words(phrase);
    !p.is_empty() && text.windows(p.len()).any(|w| w == p.as_slice())
}

/// The members of a family name (`None` when the word names no family).
fn family_members(name: &str) -> Option<(Vec<&'static str>, Vec<&'static str>)> {
    let key = words(name).join(" ");
    let family = FAMILIES
        .iter()
        .find(|f| f.names.iter().any(|n| words(n).join(" ") == key))?;
    let (mut members, mut not) = (family.members.to_vec(), family.not.to_vec());
    let seafood = || [FISH, SHELLFISH, OTHER_SEAFOOD].concat();
    match family.names[0] {
        "seafood" => members = seafood(),
        "meat" => members = [POULTRY, PORK, RED_MEAT, MEAT_WORDS].concat(),
        _ => {}
    }
    if matches!(family.names[0], "seafood" | "fish") {
        not.extend(["fish sauce", "fish stock"]);
    }
    Some((members, not))
}

/// True when the word or phrase names an ingredient family ("fish",
/// "shellfish", "dairy").
pub fn is_family(name: &str) -> bool {
    family_members(name).is_some()
}

/// True when `name` names a member of a family ("cod", "prawns").
pub fn is_known_ingredient(name: &str) -> bool {
    let w = words(name);
    !w.is_empty()
        && FAMILIES.iter().any(|f| {
            f.members
                .iter()
                .chain(OTHER_SEAFOOD)
                .chain(MEAT_WORDS)
                .any(|m| words(m) == w)
        })
}

/// True when the ingredient named `ingredient` is, or belongs to, what
/// `name` names: "cod fillet" is cod and is fish; "fish sauce" is not fish;
/// "coconut milk" is not milk.
pub fn ingredient_matches(ingredient: &str, name: &str) -> bool {
    let text = words(ingredient);
    if let Some((members, not)) = family_members(name) {
        if not.iter().any(|n| contains_phrase(&text, n)) {
            return false;
        }
        return members.iter().any(|m| contains_phrase(&text, m)) || contains_phrase(&text, name);
    }
    let own_not: &[&str] = match words(name).join(" ").as_str() {
        "milk" | "cream" | "butter" => DAIRY_NOT,
        "nut" => NUTS_NOT,
        "egg" => &["eggplant"],
        "fish" => &["fish sauce"],
        _ => &[],
    };
    !own_not.iter().any(|n| contains_phrase(&text, n)) && contains_phrase(&text, name)
}

/// Cuisines a constraint can name.
const CUISINES: &[&str] = &[
    "indian",
    "thai",
    "chinese",
    "japanese",
    "korean",
    "vietnamese",
    "malaysian",
    "indonesian",
    "filipino",
    "mexican",
    "italian",
    "french",
    "spanish",
    "greek",
    "mediterranean",
    "middle eastern",
    "lebanese",
    "turkish",
    "moroccan",
    "ethiopian",
    "american",
    "british",
    "caribbean",
    "fusion",
];

/// The cuisine a word names ("thai" → "thai").
pub fn cuisine(word: &str) -> Option<&'static str> {
    let key = words(word).join(" ");
    CUISINES.iter().copied().find(|c| *c == key)
}

/// Kinds of dish a constraint can name, matched against a recipe's tags and
/// name ("no curry" covers every curry).
const DISH_KINDS: &[&str] = &[
    "curry",
    "stew",
    "soup",
    "salad",
    "breakfast",
    "dessert",
    "sweet",
    "noodle",
    "pasta",
    "stir fry",
    "fried",
    "spicy",
    "sandwich",
    "pizza",
    "burger",
    "taco",
    "pie",
    "roast",
    "bake",
    "casserole",
];

/// The dish kind a word names ("curries" → "curry").
pub fn dish_kind(word: &str) -> Option<&'static str> {
    let key = words(word).join(" ");
    // "no spice": what a spicy dish has.
    let key = if key == "spice" {
        "spicy".to_string()
    } else {
        key
    };
    DISH_KINDS.iter().copied().find(|k| *k == key)
}

/// Diets, each with the ingredient families it rules out.
const DIETS: &[(&str, &[&str], &[&str])] = &[
    (
        "vegetarian",
        &["veggie", "meat free"],
        &["meat", "seafood", "fish sauce", "gelatin", "anchovy"],
    ),
    (
        "vegan",
        &["plant based"],
        &[
            "meat",
            "seafood",
            "fish sauce",
            "gelatin",
            "dairy",
            "egg",
            "honey",
        ],
    ),
    ("pescatarian", &["pescetarian"], &["meat"]),
    ("dairy free", &["lactose free"], &["dairy"]),
    ("gluten free", &["coeliac", "celiac"], &["gluten"]),
    ("nut free", &[], &["nut"]),
];

/// The diet a word or phrase names ("veggie" → "vegetarian").
pub fn diet(word: &str) -> Option<&'static str> {
    let key = words(word).join(" ");
    DIETS
        .iter()
        .find(|(name, aliases, _)| {
            words(name).join(" ") == key || aliases.iter().any(|a| words(a).join(" ") == key)
        })
        .map(|(name, _, _)| *name)
}

/// The ingredient (or family) a diet forbids that `ingredient` is, if any.
pub fn diet_forbids(diet_name: &str, ingredient: &str) -> Option<&'static str> {
    let (_, _, forbidden) = DIETS.iter().find(|(name, _, _)| *name == diet_name)?;
    forbidden
        .iter()
        .copied()
        .find(|f| ingredient_matches(ingredient, f))
}

/// True when an ingredient makes a dish hot.
pub fn is_hot(ingredient: &str) -> bool {
    let text = words(ingredient);
    CHILI_HEAT.iter().any(|h| contains_phrase(&text, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_cover_their_members_and_not_their_lookalikes() {
        assert!(ingredient_matches("cod fillet", "fish"));
        assert!(ingredient_matches("cod fillet", "cod"));
        assert!(ingredient_matches("King Prawns", "shellfish"));
        assert!(ingredient_matches("squid rings", "seafood"));
        assert!(ingredient_matches("cod loin", "seafood"));
        assert!(!ingredient_matches("fish sauce", "fish"));
        assert!(!ingredient_matches("coconut milk", "dairy"));
        assert!(!ingredient_matches("coconut milk", "milk"));
        assert!(ingredient_matches("whole milk", "milk"));
        assert!(ingredient_matches("chicken thigh", "meat"));
        assert!(ingredient_matches("smoked bacon", "pork"));
        assert!(!ingredient_matches("nutmeg", "nuts"));
        assert!(!ingredient_matches("eggplant", "egg"));
        assert!(ingredient_matches("chicken wing", "wings"));
        assert!(!ingredient_matches("wide rice noodles", "gluten"));
        assert!(ingredient_matches("brioche", "gluten"));
    }

    #[test]
    fn words_are_classified() {
        assert!(is_family("Fish"));
        assert!(is_family("shellfish"));
        assert!(!is_family("cod"));
        assert!(is_known_ingredient("cod"));
        assert!(is_known_ingredient("prawns"));
        assert!(!is_known_ingredient("french toast"));
        assert_eq!(cuisine("Thai"), Some("thai"));
        assert_eq!(cuisine("toast"), None);
        assert_eq!(dish_kind("curries"), Some("curry"));
        assert_eq!(dish_kind("stir-fry"), Some("stir fry"));
        assert_eq!(diet("veggie"), Some("vegetarian"));
        assert_eq!(diet("gluten-free"), Some("gluten free"));
        assert_eq!(diet("cod"), None);
    }

    #[test]
    fn diets_forbid_families() {
        assert_eq!(diet_forbids("vegetarian", "chicken thigh"), Some("meat"));
        assert_eq!(diet_forbids("vegetarian", "cod fillet"), Some("seafood"));
        assert_eq!(diet_forbids("vegetarian", "paneer"), None);
        assert_eq!(diet_forbids("vegan", "paneer"), Some("dairy"));
        assert_eq!(diet_forbids("pescatarian", "cod fillet"), None);
        assert!(is_hot("dried red chili"));
        assert!(!is_hot("kashmiri chili powder"));
    }

    #[test]
    fn singular_handles_the_usual_endings() {
        assert_eq!(
            words("Curries, prawns & dishes"),
            ["curry", "prawn", "dish"]
        );
        assert_eq!(singular("glass"), "glass");
        assert_eq!(singular("cod"), "cod");
        assert_eq!(singular("chillies"), "chilli");
        assert_eq!(singular("chilies"), "chili");
        assert_eq!(singular("chilis"), "chili");
        assert_eq!(singular("leaves"), "leaf");
        assert_eq!(singular("olives"), "olive");
        assert_eq!(singular("knives"), "knife");
    }
}
