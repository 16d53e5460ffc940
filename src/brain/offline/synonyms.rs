//! The synonyms of each intent: the phrases (lowercase, apostrophes removed,
//! as `text::Words` produces them) that signal it. Data only; `lexicon.rs`
//! and `intent_rules.rs` decide what they mean and in which order.

#[rustfmt::skip]
pub(super) const CLEAR_ALL: &[&str] = &[
    "start fresh", "start over", "start again", "fresh start", "clear everything", "clear all",
    "clear it all", "clear the context", "clear your memory", "clear memory", "reset everything",
    "wipe everything", "wipe it all", "forget everything", "forget all of it", "forget all that",
    "from scratch", "clean slate", "blank slate", "new start", "scrap everything",
    "scrap it all", "ditch everything",
];
#[rustfmt::skip]
pub(super) const FORGET: &[&str] = &[
    "forget", "never mind", "nevermind", "nvm", "scratch that", "scrap that", "disregard",
    "ignore that", "ignore it", "bin that", "throw that away", "ditch it", "ditch that",
    "bin it", "scrap it", "lose it", "lose that", "drop it", "drop that one",
];
#[rustfmt::skip]
pub(super) const UNSAVED: &[&str] = &[
    "unsaved", "not saved", "isnt saved", "havent we saved", "have we not saved", "arent saved",
    "havent saved", "not been saved", "havent been saved", "still need to save", "need saving",
    "needs saving", "whats pending", "what is pending", "anything pending", "still pending",
    "everything saved", "all saved", "yet to save", "not yet saved", "left to save",
    "is it saved", "is that saved", "is this saved", "saved yet", "still saved", "havent i saved",
    "have i saved", "did it save", "did that save", "did it get saved", "is it in my recipes",
];
#[rustfmt::skip]
pub(super) const RECALL: &[&str] = &[
    "just added", "did i add", "did we add", "did i just add", "did you add", "have i added",
    "have we added", "did i just save", "did we just save", "did you just add", "was added",
    "did i put", "what i added", "what we added", "did you just save", "did i create",
    "did we create", "did we just create",
];
/// Questions about the world outside the kitchen.
#[rustfmt::skip]
pub(super) const OFF_TOPIC: &[&str] = &[
    "weather", "forecast", "the news", "football", "the score", "traffic", "stock market",
    "what time is it",
];
#[rustfmt::skip]
pub(super) const HELP: &[&str] = &[
    "what can you do", "what do you do", "how does this work", "who are you", "what are you",
    "what can i ask", "what can i say", "how do i use", "what should i ask", "help me out",
];
#[rustfmt::skip]
pub(super) const SAVE: &[&str] = &[
    "save", "saving", "keep it", "keep that", "keep this", "keep them", "keep both", "store it",
    "add it to my recipes", "add that to my recipes", "add to my recipes", "put it in my recipes",
    "thats a keeper", "lock it in", "make it permanent",
];
#[rustfmt::skip]
pub(super) const SHOPPING: &[&str] = &[
    "shopping list", "shopping", "grocery list", "groceries", "grocery", "to buy", "buy list",
];
#[rustfmt::skip]
pub(super) const REMOVE_STOCK: &[&str] = &[
    "used up", "ran out of", "run out of", "out of", "finished the", "used the last", "threw out",
    "throw out", "thrown out", "all gone", "no more left",
];
#[rustfmt::skip]
pub(super) const PANTRY_ASK: &[&str] = &[
    "whats in", "what is in", "what do i have", "what have i got", "what do we have",
    "what have we got", "whats there", "show me", "show my", "list my", "list the", "check",
    "in stock", "look in", "whats left in", "what is left in", "see my", "see the",
];
#[rustfmt::skip]
pub(super) const SHOW_PLAN: &[&str] = &[
    "back to the meal plan", "back to the plan", "back to planning", "back to meal planning",
    "back to the week", "back to our plan", "back to my plan", "back to the meals",
    "where were we", "whats the plan", "what is the plan", "show me the plan", "show the plan",
    "show me the meal plan", "show my meal plan", "show me my meal plan", "my meal plan",
    "our meal plan", "the meal plan", "our plan", "my plan", "what did we plan", "whats planned",
    "what is planned", "what are we cooking", "this weeks plan", "resume", "the weekly plan",
    "continue planning", "carry on planning", "the plan", "whats for dinner", "whats on for",
    "the week look", "whole week", "plan looking", "plan look", "the plan now", "week looking",
    "have planned", "we planned", "anything planned", "got planned", "on the plan",
];
#[rustfmt::skip]
pub(super) const PLAN_MEALS: &[&str] = &[
    "plan some meals", "plan meals", "plan my meals", "plan our meals", "plan the week",
    "plan my week", "plan our week", "plan this week", "plan the meals", "meal plan",
    "meal planning", "plan dinners", "plan some dinners", "plan my dinners", "plan for the week",
    "meal prep", "what should i cook", "what should we cook", "what should i make",
    "what should we make", "what should i eat", "what should we eat", "what to cook",
    "what to eat", "weekly plan", "plan the weekend", "plan a few meals", "plan a week",
    "figure out dinners", "figure out meals", "figure out what to eat", "sort out dinners",
    "sort out meals", "dinners this week", "dinners for the week", "dinner ideas this week",
    "plan next week", "plan food",
];
#[rustfmt::skip]
pub(super) const INCLUDE: &[&str] = &[
    "bring back", "add back", "put back", "back in", "changed my mind about",
    "change my mind about", "is fine", "are fine", "actually keep", "include the", "reinstate",
    "bring the", "un exclude", "is ok after all", "are ok after all",
];
#[rustfmt::skip]
pub(super) const PICK: &[&str] = &[
    "lets go with", "go with", "ill take", "well take", "lets do the", "lets have the", "pick the",
    "choose the", "ill have the", "well have the", "lets pick", "we will do", "well do the",
    "lets cook the", "put the", "schedule the", "book the",
];
#[rustfmt::skip]
pub(super) const WHAT_CAN_I_MAKE: &[&str] = &[
    "what can i make", "what can i cook", "what can we make", "what can we cook",
    "what could i make", "what could i cook", "what could we make", "cook with what i have",
    "make with what i have", "use what i have", "what can i do with",
];
#[rustfmt::skip]
pub(super) const WITH_WORDS: &[&str] = &[
    "with", "using", "use", "uses", "contain", "contains", "containing", "have", "has", "include",
    "includes", "including", "need", "needs",
];
#[rustfmt::skip]
pub(super) const GENERATE_VERBS: &[&str] = &[
    "give me", "make me", "create", "suggest", "come up with", "invent", "write me", "write a",
    "share a", "got a", "got any", "have a", "how about", "i want a", "i want an", "i want some",
    "id like a", "id like an", "id like some", "can you make", "could you make", "new recipe",
    "new recipes", "cook me", "whip up", "dream up", "recommend", "find me", "need a", "need an",
    "need some", "generate",
];
#[rustfmt::skip]
pub(super) const LIST_RECIPES: &[&str] = &[
    "my recipes", "saved recipes", "recipes do i have", "what recipes", "all recipes",
    "all my recipes", "recipe list", "list recipes", "list my recipes", "show recipes",
    "show me recipes", "my options", "the options", "what are the options", "remaining options",
    "whats left", "what is left", "what do we have left", "whats still on the table", "my saved",
    "saved ones", "from my recipes", "from saved", "pick from", "existing recipes",
    "the ones i have", "use my recipes", "my own recipes", "what i have", "what weve got",
    "list the options", "show the options", "show me the options", "recipes i have",
];
#[rustfmt::skip]
pub(super) const ANSWER_NEW: &[&str] = &[
    "something new", "try something new", "new ideas", "new stuff", "surprise me", "inspire me",
    "something different", "new things", "fresh ideas",
];
#[rustfmt::skip]
pub(super) const SHOW: &[&str] = &[
    "show me", "show", "open", "pull up", "let me see", "see the", "display", "view",
    "whats in the", "what goes in", "ingredients for", "ingredients in", "how do i make",
    "how do you make", "tell me about", "details", "full recipe", "the recipe for", "read me",
    "remind me how", "look at", "what was in", "whats in that", "whats in it",
];
#[rustfmt::skip]
pub(super) const AFFIRM: &[&str] = &[
    "yes", "yeah", "yep", "yup", "sure", "ok", "okay", "go ahead", "do it", "sounds good",
    "sounds great", "please do", "absolutely", "lets do it", "why not", "alright", "looks good",
    "looks great", "go for it", "definitely", "of course", "yes please", "ya", "yah", "yea",
    "yeh", "ye", "yh", "yas", "k", "kk", "okie", "go on", "sure thing", "mhm", "uh huh",
];
#[rustfmt::skip]
pub(super) const DECLINE: &[&str] = &[
    "no", "nope", "not yet", "no thanks", "nah", "not now", "maybe later", "no need", "not really",
    "no thank you",
];
#[rustfmt::skip]
pub(super) const THANKS: &[&str] = &[
    "thanks", "thank you", "thx", "ty", "cheers", "great", "perfect", "awesome", "nice", "cool",
    "lovely", "brilliant", "excellent", "wonderful", "amazing", "fantastic",
];
#[rustfmt::skip]
pub(super) const GREETING: &[&str] = &[
    "hi", "hello", "hey", "heya", "hiya", "yo", "morning", "evening", "howdy", "greetings",
    "good morning", "good afternoon", "good evening", "sup", "hola", "you there", "are you there",
    "you still there", "still there", "anyone there",
];
#[rustfmt::skip]
pub(super) const NOT_DISH: &[&str] = &[
    "give", "me", "make", "create", "suggest", "come", "up", "with", "invent", "write", "share",
    "got", "have", "how", "about", "i", "want", "id", "like", "can", "you", "could", "new",
    "recipe", "recipes", "cook", "whip", "dream", "recommend", "find", "need", "idea", "ideas",
    "suggestions", "inspiration", "something", "dish", "some", "please", "for", "generate",
    "quick", "easy", "simple", "nice", "good", "tasty", "another", "different", "few", "couple",
    "of", "us", "to", "try", "the", "this", "week", "tonight", "lets", "let", "do", "would",
    "love", "dishes", "thing", "things", "meal",
];
#[rustfmt::skip]
pub(super) const SHOPPING_MISSING: &[&str] = &[
    "missing", "what i need for", "what we need for", "ingredients for the",
];
#[rustfmt::skip]
pub(super) const STORE_REMOVE_VERBS: &[&str] = &["remove", "delete", "take out", "throw away", "toss"];
#[rustfmt::skip]
pub(super) const STOCK_REMOVE_VERBS: &[&str] = &[
    "used up", "ran out of", "run out of", "out of", "finished the", "used the last", "threw out",
    "throw out", "remove", "delete", "take out", "throw away", "toss",
];
#[rustfmt::skip]
pub(super) const BOUGHT: &[&str] = &[
    "i bought", "i got", "picked up", "just bought", "just got", "we bought", "got a", "got some",
    "grabbed",
];
#[rustfmt::skip]
pub(super) const STORE_ADD_VERBS: &[&str] = &["add", "put", "stock", "store", "place"];
#[rustfmt::skip]
pub(super) const STOCK_ADD_VERBS: &[&str] = &[
    "add", "put", "stock", "store", "place", "bought", "got", "picked up", "grabbed",
];
#[rustfmt::skip]
pub(super) const HAVE_ASK: &[&str] = &[
    "do i have", "do we have", "have i got", "is there any", "are there any", "got any",
];
#[rustfmt::skip]
pub(super) const ASKING_WITH: &[&str] = &[
    "recipes with", "options with", "ones with", "recipes that", "ones that",
];
#[rustfmt::skip]
pub(super) const RECIPE_WORDS: &[&str] = &[
    "recipe", "recipes", "ideas", "idea", "suggestions", "dinner", "lunch", "something", "dish",
    "thing", "meal",
];
#[rustfmt::skip]
pub(super) const MAKE_ME: &[&str] = &[
    "make me", "cook me", "whip up", "can you make", "could you make",
];
