//! The cook's book: dish families (curry, stir fry, noodles, soup, salad,
//! smoothie, …), each a complete recipe for two with a slot for its main
//! ingredient, and the foods a request can name, with the amount two people
//! need and the kind of food each is.
//!
//! Data only. `build.rs` fills a family with what was asked for.

/// One ingredient line: name, quantity, unit.
pub type Line = (&'static str, f64, &'static str);

/// What a food is, which decides where it can go in a dish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    Protein,
    Veg,
    Fruit,
    /// Grains, nuts, dairy, flavourings: always extras.
    Other,
}

/// A food a request can name.
#[derive(Debug, Clone, Copy)]
pub struct Food {
    /// The words users give it (singular; matched as whole words, and
    /// one typo away in words of five letters or more).
    pub names: &'static [&'static str],
    /// Its ingredient line for two.
    pub line: Line,
    pub kind: Kind,
}

const fn food(names: &'static [&'static str], line: Line, kind: Kind) -> Food {
    Food { names, line, kind }
}

use Kind::{Fruit, Other, Protein, Veg};

/// Every food requests can name, longest names first where they overlap.
#[rustfmt::skip]
pub const FOODS: &[Food] = &[
    food(&["chicken breast"], ("chicken breast", 300.0, "g"), Protein),
    food(&["chicken thigh", "thigh"], ("chicken thigh", 400.0, "g"), Protein),
    food(&["chicken"], ("chicken thigh", 400.0, "g"), Protein),
    food(&["turkey"], ("turkey breast", 300.0, "g"), Protein),
    food(&["beef", "steak"], ("beef strips", 300.0, "g"), Protein),
    food(&["mince"], ("beef mince", 300.0, "g"), Protein),
    food(&["pork"], ("pork loin", 300.0, "g"), Protein),
    food(&["sausage"], ("sausages", 4.0, "pcs"), Protein),
    food(&["bacon"], ("bacon", 4.0, "rasher"), Protein),
    food(&["lamb"], ("lamb leg steak", 300.0, "g"), Protein),
    food(&["tofu"], ("firm tofu", 280.0, "g"), Protein),
    food(&["paneer"], ("paneer", 250.0, "g"), Protein),
    food(&["halloumi"], ("halloumi", 225.0, "g"), Protein),
    food(&["cod"], ("cod fillet", 2.0, "pcs"), Protein),
    food(&["salmon"], ("salmon fillet", 2.0, "pcs"), Protein),
    food(&["fish", "white fish"], ("white fish fillet", 2.0, "pcs"), Protein),
    food(&["tuna"], ("tuna", 1.0, "can"), Protein),
    food(&["prawn", "shrimp", "king prawn"], ("raw king prawns", 200.0, "g"), Protein),
    food(&["egg"], ("egg", 4.0, "pcs"), Protein),
    food(&["chickpea", "chick pea"], ("chickpeas", 1.0, "can"), Protein),
    food(&["lentil", "red lentil"], ("red lentils", 150.0, "g"), Protein),
    food(&["black bean", "bean"], ("black beans", 1.0, "can"), Protein),
    food(&["mushroom", "shroom"], ("mushrooms", 250.0, "g"), Veg),
    food(&["spinach"], ("spinach", 100.0, "g"), Veg),
    food(&["pea", "frozen pea"], ("frozen peas", 150.0, "g"), Veg),
    food(&["broccoli"], ("broccoli", 200.0, "g"), Veg),
    food(&["bell pepper", "pepper"], ("bell pepper", 1.0, "pcs"), Veg),
    food(&["carrot"], ("carrot", 2.0, "pcs"), Veg),
    food(&["courgette", "zucchini"], ("courgette", 1.0, "pcs"), Veg),
    food(&["sweet potato"], ("sweet potato", 1.0, "pcs"), Veg),
    food(&["potato", "spud"], ("potato", 2.0, "pcs"), Veg),
    food(&["tomato"], ("tomato", 3.0, "pcs"), Veg),
    food(&["cauliflower"], ("cauliflower", 300.0, "g"), Veg),
    food(&["kale"], ("kale", 100.0, "g"), Veg),
    food(&["aubergine", "eggplant"], ("aubergine", 1.0, "pcs"), Veg),
    food(&["leek"], ("leek", 1.0, "pcs"), Veg),
    food(&["sweetcorn", "corn"], ("sweetcorn", 150.0, "g"), Veg),
    food(&["cabbage"], ("cabbage", 200.0, "g"), Veg),
    food(&["butternut squash", "squash", "pumpkin"], ("butternut squash", 400.0, "g"), Veg),
    food(&["green bean"], ("green beans", 150.0, "g"), Veg),
    food(&["bok choy", "pak choi"], ("bok choy", 2.0, "pcs"), Veg),
    food(&["cucumber"], ("cucumber", 0.5, "pcs"), Veg),
    food(&["avocado"], ("avocado", 1.0, "pcs"), Veg),
    food(&["onion"], ("onion", 1.0, "pcs"), Veg),
    food(&["olive"], ("kalamata olives", 50.0, "g"), Other),
    food(&["feta"], ("feta", 100.0, "g"), Other),
    food(&["cheese", "cheddar"], ("cheddar", 80.0, "g"), Other),
    food(&["mozzarella"], ("mozzarella", 125.0, "g"), Other),
    food(&["banana"], ("banana", 2.0, "pcs"), Fruit),
    food(&["mango"], ("mango", 1.0, "pcs"), Fruit),
    food(&["berry", "mixed berry"], ("mixed berries", 150.0, "g"), Fruit),
    food(&["strawberry"], ("strawberries", 150.0, "g"), Fruit),
    food(&["blueberry"], ("blueberries", 100.0, "g"), Fruit),
    food(&["raspberry"], ("raspberries", 100.0, "g"), Fruit),
    food(&["apple"], ("apple", 2.0, "pcs"), Fruit),
    food(&["pear"], ("pear", 2.0, "pcs"), Fruit),
    food(&["pineapple"], ("pineapple", 200.0, "g"), Fruit),
    food(&["peach"], ("peach", 2.0, "pcs"), Fruit),
    food(&["cashew"], ("cashews", 50.0, "g"), Other),
    food(&["peanut"], ("peanuts", 50.0, "g"), Other),
    food(&["almond"], ("almonds", 50.0, "g"), Other),
    food(&["walnut"], ("walnuts", 50.0, "g"), Other),
    food(&["oat", "porridge oat", "rolled oat"], ("rolled oats", 80.0, "g"), Other),
    food(&["rice"], ("jasmine rice", 150.0, "g"), Other),
    food(&["noodle"], ("egg noodles", 200.0, "g"), Other),
    food(&["coconut milk", "coconut"], ("coconut milk", 400.0, "ml"), Other),
    food(&["yogurt", "yoghurt", "greek yogurt"], ("greek yogurt", 150.0, "g"), Other),
    food(&["honey"], ("honey", 1.0, "tbsp"), Other),
    food(&["garlic"], ("garlic", 2.0, "clove"), Other),
    food(&["ginger"], ("ginger", 10.0, "g"), Other),
    food(&["chilli flake", "chili flake", "chilli", "chili"], ("chilli flakes", 1.0, "tsp"), Other),
    food(&["lime"], ("lime", 1.0, "pcs"), Other),
    food(&["lemon"], ("lemon", 1.0, "pcs"), Other),
    food(&["coriander", "cilantro"], ("coriander", 10.0, "g"), Other),
    food(&["basil"], ("basil", 10.0, "g"), Other),
    food(&["cinnamon"], ("ground cinnamon", 1.0, "tsp"), Other),
];

/// A dish family: a complete recipe for two around one main ingredient.
#[derive(Debug, Clone, Copy)]
pub struct Dish {
    pub key: &'static str,
    /// The words a request names it with, longest first.
    pub names: &'static [&'static str],
    /// The title with a main ("{main} Stir Fry").
    pub title: &'static str,
    /// The title when no main is named or needed.
    pub plain: &'static str,
    /// The food names of the main it falls back to ("" for none).
    pub default_main: &'static str,
    /// The kinds of food that can be its main, best first.
    pub takes: &'static [Kind],
    pub cuisine: &'static str,
    /// The description: `{with}` is what it is made with.
    pub description: &'static str,
    /// What `{with}` says when there is no main and no extras.
    pub plain_with: &'static str,
    pub lines: &'static [Line],
    /// Steps; a step naming `{main}` is left out when there is no main.
    pub steps: &'static [&'static str],
    /// Where the step for named extras goes, and what it says (`{extras}`).
    pub extra_at: usize,
    pub extra_step: &'static str,
    pub prep: u32,
    pub cook: u32,
    /// dinner, breakfast, dessert, drink, side.
    pub meal: &'static str,
}

#[rustfmt::skip]
pub const DISHES: &[Dish] = &[
    Dish {
        key: "fried rice", names: &["fried rice"], title: "{main} Fried Rice", plain: "Egg Fried Rice",
        default_main: "", takes: &[Protein, Veg], cuisine: "chinese",
        description: "Day-old rice tossed in a smoking-hot wok with {with}, egg and soy — a quick, thrifty supper.",
        plain_with: "spring onion",
        lines: &[("jasmine rice", 150.0, "g"), ("egg", 2.0, "pcs"), ("carrot", 1.0, "pcs"), ("spring onion", 2.0, "pcs"),
            ("garlic", 2.0, "clove"), ("light soy sauce", 2.0, "tbsp"), ("sesame oil", 1.0, "tsp"), ("vegetable oil", 1.0, "tbsp")],
        steps: &[
            "Cook the rice ahead and let it cool completely (day-old rice fries best).",
            "Dice the {main} and the carrot, and slice the spring onions.",
            "Stir-fry the {main} in the oil in a very hot wok for 4–5 minutes until cooked through, then push it to one side.",
            "Scramble the eggs in the space, then add the garlic and carrot for 1 minute.",
            "Add the rice, soy sauce and sesame oil and toss over a high heat for 3 minutes.",
            "Stir through the spring onions and serve.",
        ],
        extra_at: 4, extra_step: "Add the {extras} and toss until hot.", prep: 10, cook: 15, meal: "dinner",
    },
    Dish {
        key: "stir fry", names: &["stir fry", "stirfry", "stir fried", "stir-fry", "wok"], title: "{main} Stir Fry",
        plain: "Vegetable Stir Fry", default_main: "tofu", takes: &[Protein, Veg], cuisine: "chinese",
        description: "A fast, glossy stir-fry of {with}, pepper and spring onion in a ginger-soy sauce, over jasmine rice.",
        plain_with: "crisp vegetables",
        lines: &[("bell pepper", 1.0, "pcs"), ("spring onion", 2.0, "pcs"), ("garlic", 2.0, "clove"), ("ginger", 10.0, "g"),
            ("light soy sauce", 2.0, "tbsp"), ("honey", 1.0, "tsp"), ("sesame oil", 1.0, "tsp"), ("vegetable oil", 1.0, "tbsp"),
            ("jasmine rice", 150.0, "g")],
        steps: &[
            "Put the rice on to cook.",
            "Cut the {main} into bite-sized pieces, and slice the pepper and spring onions.",
            "Heat the oil in a wok over a high heat and stir-fry the {main} for 4–5 minutes until golden and cooked through, then tip it out.",
            "Stir-fry the pepper, garlic and ginger for 2 minutes.",
            "Return the {main}, add the soy sauce, honey and sesame oil and toss for 1 minute.",
            "Scatter with the spring onions and serve over the rice.",
        ],
        extra_at: 4, extra_step: "Add the {extras} and stir-fry for 2 minutes.", prep: 10, cook: 12, meal: "dinner",
    },
    Dish {
        key: "noodles", names: &["noodle", "noodles", "ramen", "lo mein", "chow mein", "udon"], title: "{main} Noodles",
        plain: "Garlic Soy Noodles", default_main: "tofu", takes: &[Protein, Veg], cuisine: "chinese",
        description: "Springy noodles tossed in a hot wok with {with}, bok choy, garlic and soy — on the table in 20 minutes.",
        plain_with: "crisp vegetables",
        lines: &[("egg noodles", 200.0, "g"), ("bok choy", 2.0, "pcs"), ("spring onion", 2.0, "pcs"), ("garlic", 2.0, "clove"),
            ("ginger", 10.0, "g"), ("light soy sauce", 2.0, "tbsp"), ("dark soy sauce", 1.0, "tsp"), ("sesame oil", 1.0, "tsp"),
            ("vegetable oil", 1.0, "tbsp")],
        steps: &[
            "Cook the noodles for 1 minute less than the packet says, drain and toss with the sesame oil.",
            "Slice the {main} thinly, and cut the bok choy and spring onions.",
            "Stir-fry the {main} in the oil over a high heat for 4–5 minutes until cooked through.",
            "Add the garlic, ginger and bok choy and stir-fry for 1 minute.",
            "Add the noodles and both soy sauces and toss until glossy and hot.",
            "Serve scattered with the spring onions.",
        ],
        extra_at: 4, extra_step: "Add the {extras} and toss for 1 minute.", prep: 10, cook: 10, meal: "dinner",
    },
    Dish {
        key: "pasta bake", names: &["pasta bake", "baked pasta", "lasagna", "lasagne"], title: "{main} Pasta Bake", plain: "Tomato Pasta Bake",
        default_main: "", takes: &[Protein, Veg], cuisine: "italian",
        description: "Pasta in a rich tomato sauce with {with}, under a bubbling lid of mozzarella and cheddar.",
        plain_with: "onion and garlic",
        lines: &[("penne", 200.0, "g"), ("chopped tomatoes", 1.0, "can"), ("onion", 1.0, "pcs"), ("garlic", 2.0, "clove"),
            ("dried oregano", 1.0, "tsp"), ("olive oil", 1.0, "tbsp"), ("mozzarella", 125.0, "g"), ("cheddar", 50.0, "g")],
        steps: &[
            "Heat the oven to 200°C.",
            "Boil the pasta for 2 minutes less than the packet says, then drain.",
            "Soften the onion in the oil for 5 minutes, then add the garlic and oregano.",
            "Add the {main} and cook for 5 minutes.",
            "Add the tomatoes, simmer for 10 minutes, then stir through the pasta.",
            "Tip into a baking dish, top with the torn mozzarella and grated cheddar, and bake for 20 minutes until bubbling and golden.",
        ],
        extra_at: 4, extra_step: "Stir in the {extras}.", prep: 10, cook: 35, meal: "dinner",
    },
    Dish {
        key: "pasta", names: &["pasta", "spaghetti", "penne", "linguine", "fusilli", "tagliatelle"], title: "{main} Pasta",
        plain: "Garlic Tomato Pasta", default_main: "", takes: &[Protein, Veg], cuisine: "italian",
        description: "Spaghetti tossed through a garlicky tomato sauce with {with}, finished with parmesan and basil.",
        plain_with: "onion",
        lines: &[("spaghetti", 200.0, "g"), ("chopped tomatoes", 1.0, "can"), ("onion", 1.0, "pcs"), ("garlic", 2.0, "clove"),
            ("olive oil", 1.0, "tbsp"), ("parmesan", 30.0, "g"), ("basil", 10.0, "g")],
        steps: &[
            "Cook the spaghetti in well-salted boiling water until al dente, keeping a mugful of the water.",
            "Soften the onion in the oil for 5 minutes, then add the garlic for 1 minute.",
            "Add the {main} and cook for 5–6 minutes until done.",
            "Pour in the tomatoes and simmer for 10 minutes.",
            "Toss the pasta through the sauce with a splash of the cooking water.",
            "Serve with the parmesan and torn basil.",
        ],
        extra_at: 4, extra_step: "Stir in the {extras} and simmer for 2 more minutes.", prep: 5, cook: 20, meal: "dinner",
    },
    Dish {
        key: "risotto", names: &["risotto"], title: "{main} Risotto", plain: "Lemon Parmesan Risotto", default_main: "",
        takes: &[Veg, Protein], cuisine: "italian",
        description: "A creamy, slow-stirred risotto with {with}, butter and parmesan.",
        plain_with: "lemon",
        lines: &[("arborio rice", 150.0, "g"), ("onion", 1.0, "pcs"), ("garlic", 2.0, "clove"), ("vegetable stock", 750.0, "ml"),
            ("butter", 20.0, "g"), ("parmesan", 30.0, "g"), ("olive oil", 1.0, "tbsp")],
        steps: &[
            "Keep the stock hot in a small pan.",
            "Soften the onion in the oil and half the butter for 6 minutes, then add the garlic.",
            "Add the {main} and cook for 3–4 minutes.",
            "Stir in the rice for 1 minute, then add the stock a ladle at a time, stirring, for 18–20 minutes until creamy and just tender.",
            "Beat in the rest of the butter and the parmesan, and season.",
            "Rest for 2 minutes and serve.",
        ],
        extra_at: 4, extra_step: "Stir in the {extras} for the last 3 minutes.", prep: 10, cook: 30, meal: "dinner",
    },
    Dish {
        key: "curry", names: &["curry", "curries", "masala", "korma"], title: "{main} Curry", plain: "Vegetable Curry",
        default_main: "chickpea", takes: &[Protein, Veg], cuisine: "indian",
        description: "A warming curry of {with} in a spiced tomato and coconut sauce, with basmati rice.",
        plain_with: "vegetables",
        lines: &[("onion", 1.0, "pcs"), ("garlic", 3.0, "clove"), ("ginger", 10.0, "g"), ("garam masala", 2.0, "tsp"),
            ("ground cumin", 1.0, "tsp"), ("turmeric", 0.5, "tsp"), ("kashmiri chili powder", 1.0, "tsp"),
            ("chopped tomatoes", 1.0, "can"), ("coconut milk", 200.0, "ml"), ("vegetable oil", 1.0, "tbsp"),
            ("basmati rice", 150.0, "g"), ("coriander", 10.0, "g")],
        steps: &[
            "Rinse the basmati rice and put it on to cook.",
            "Soften the onion in the oil over a medium heat for 6–8 minutes, then add the garlic and ginger for 1 minute.",
            "Stir in the garam masala, cumin, turmeric and chili powder and cook for 30 seconds until fragrant.",
            "Add the {main} and turn it through the spices for 2–3 minutes.",
            "Pour in the tomatoes and coconut milk and simmer for 15 minutes until the sauce thickens.",
            "Scatter with coriander and serve with the rice.",
        ],
        extra_at: 5, extra_step: "Stir in the {extras} and simmer for 3 more minutes.", prep: 10, cook: 25, meal: "dinner",
    },
    Dish {
        key: "soup", names: &["soup", "broth", "chowder"], title: "{main} Soup", plain: "Vegetable Soup",
        default_main: "", takes: &[Protein, Veg], cuisine: "home-style",
        description: "A warm, cosy soup of {with}, carrot and potato — better the next day.",
        plain_with: "seasonal vegetables",
        lines: &[("onion", 1.0, "pcs"), ("carrot", 2.0, "pcs"), ("celery", 1.0, "stick"), ("garlic", 2.0, "clove"),
            ("potato", 1.0, "pcs"), ("vegetable stock", 1.0, "l"), ("olive oil", 1.0, "tbsp"), ("crusty bread", 2.0, "slice")],
        steps: &[
            "Chop the onion, carrots, celery and potato.",
            "Soften them in the oil in a large pot for 8 minutes, then add the garlic.",
            "Add the {main} and cook for 3 minutes.",
            "Pour in the stock and simmer for 20 minutes until everything is tender.",
            "Season well; blend half of it if you like it thicker.",
            "Serve hot with crusty bread.",
        ],
        extra_at: 4, extra_step: "Add the {extras} for the last 5 minutes.", prep: 10, cook: 30, meal: "dinner",
    },
    Dish {
        key: "stew", names: &["stew", "casserole"], title: "{main} Stew", plain: "Vegetable Stew", default_main: "",
        takes: &[Protein, Veg], cuisine: "home-style",
        description: "A slow, smoky stew of {with}, tomatoes and potatoes.",
        plain_with: "root vegetables",
        lines: &[("onion", 1.0, "pcs"), ("carrot", 2.0, "pcs"), ("garlic", 2.0, "clove"), ("potato", 2.0, "pcs"),
            ("chopped tomatoes", 1.0, "can"), ("vegetable stock", 500.0, "ml"), ("smoked paprika", 1.0, "tsp"),
            ("olive oil", 1.0, "tbsp")],
        steps: &[
            "Brown the {main} in the oil in a heavy pot, then lift it out.",
            "Soften the onion and carrots for 8 minutes, then add the garlic and paprika.",
            "Return the {main}, add the potatoes, tomatoes and stock and bring to a simmer.",
            "Cover and cook gently for 40 minutes until tender.",
            "Season and serve.",
        ],
        extra_at: 4, extra_step: "Stir in the {extras} for the last 10 minutes.", prep: 15, cook: 50, meal: "dinner",
    },
    Dish {
        key: "salad", names: &["salad"], title: "{main} Salad", plain: "Green Salad", default_main: "",
        takes: &[Protein, Veg], cuisine: "home-style",
        description: "A crisp salad of {with}, cucumber and tomatoes in a lemon dressing.",
        plain_with: "mixed leaves",
        lines: &[("mixed salad leaves", 100.0, "g"), ("cucumber", 0.5, "pcs"), ("cherry tomatoes", 150.0, "g"),
            ("red onion", 0.5, "pcs"), ("olive oil", 2.0, "tbsp"), ("lemon", 0.5, "pcs")],
        steps: &[
            "Cook the {main} if it needs it (pan-fry or air-fry for 8–10 minutes), then slice it.",
            "Whisk the oil with the lemon juice and a pinch of salt.",
            "Chop the cucumber and tomatoes and slice the onion thinly.",
            "Toss the leaves and vegetables with the dressing.",
            "Top with the {main}.",
            "Serve straight away.",
        ],
        extra_at: 4, extra_step: "Scatter over the {extras}.", prep: 10, cook: 10, meal: "side",
    },
    Dish {
        key: "traybake", names: &["traybake", "tray bake", "sheet pan", "one pan bake", "roast", "bake"],
        title: "{main} Traybake", plain: "Vegetable Traybake", default_main: "chicken", takes: &[Protein, Veg],
        cuisine: "home-style",
        description: "Everything roasted in one tin: {with} with potatoes, peppers and red onion, smoky with paprika.",
        plain_with: "vegetables",
        lines: &[("new potatoes", 400.0, "g"), ("red onion", 1.0, "pcs"), ("bell pepper", 1.0, "pcs"), ("garlic", 4.0, "clove"),
            ("olive oil", 2.0, "tbsp"), ("smoked paprika", 1.0, "tsp"), ("dried oregano", 1.0, "tsp"), ("lemon", 1.0, "pcs")],
        steps: &[
            "Heat the oven to 200°C.",
            "Halve the potatoes and cut the onion and pepper into wedges.",
            "Toss everything with the oil, paprika, oregano, salt and the whole garlic cloves in a large roasting tin.",
            "Roast for 15 minutes, then nestle in the {main} and roast for 25 minutes more until cooked through and golden.",
            "Squeeze over the lemon and serve from the tin.",
        ],
        extra_at: 4, extra_step: "Add the {extras} for the last 10 minutes.", prep: 15, cook: 40, meal: "dinner",
    },
    Dish {
        key: "smoothie", names: &["smoothie", "milkshake", "shake", "lassi", "drink"], title: "{main} Smoothie",
        plain: "Berry Smoothie", default_main: "berry", takes: &[Fruit], cuisine: "home-style",
        description: "A thick, cold smoothie of {with}, yogurt and milk, blended in a minute.",
        plain_with: "berries",
        lines: &[("greek yogurt", 150.0, "g"), ("milk", 200.0, "ml"), ("honey", 1.0, "tsp"), ("ice cubes", 4.0, "pcs")],
        steps: &[
            "Peel and chop the {main}.",
            "Put everything in a blender.",
            "Blend until smooth, about 1 minute, adding a splash more milk if it's too thick.",
            "Taste, add more honey if you like, and serve straight away.",
        ],
        extra_at: 1, extra_step: "Add the {extras} to the blender too.", prep: 5, cook: 0, meal: "breakfast",
    },
    Dish {
        key: "porridge", names: &["porridge", "oatmeal", "overnight oats"], title: "{main} Porridge",
        plain: "Creamy Oat Porridge", default_main: "", takes: &[Fruit], cuisine: "home-style",
        description: "Creamy oats simmered in milk, finished with {with} and a drizzle of honey.",
        plain_with: "a pinch of cinnamon",
        lines: &[("rolled oats", 80.0, "g"), ("milk", 400.0, "ml"), ("honey", 1.0, "tbsp"), ("ground cinnamon", 0.5, "tsp")],
        steps: &[
            "Put the oats and milk in a small pan with a pinch of salt.",
            "Bring to a simmer and cook, stirring, for 4–5 minutes until thick and creamy.",
            "Stir in the cinnamon.",
            "Top with the {main}.",
            "Drizzle with the honey and serve.",
        ],
        extra_at: 4, extra_step: "Scatter over the {extras}.", prep: 2, cook: 6, meal: "breakfast",
    },
    Dish {
        key: "dessert", names: &["dessert", "pudding", "crumble", "something sweet", "sweet treat"], title: "{main} Crumble",
        plain: "Apple Crumble", default_main: "apple", takes: &[Fruit], cuisine: "british",
        description: "Soft, warm {with} under a buttery oat crumble — serve with yogurt or cream.",
        plain_with: "apple",
        lines: &[("plain flour", 100.0, "g"), ("cold butter", 60.0, "g"), ("brown sugar", 50.0, "g"), ("rolled oats", 40.0, "g"),
            ("ground cinnamon", 1.0, "tsp"), ("vanilla extract", 0.5, "tsp")],
        steps: &[
            "Heat the oven to 190°C.",
            "Slice the {main} into a small baking dish and toss with half the sugar, the cinnamon and the vanilla.",
            "Rub the butter into the flour until it looks like breadcrumbs, then stir in the oats and the rest of the sugar.",
            "Scatter the crumble over the fruit.",
            "Bake for 25–30 minutes until golden and bubbling at the edges.",
            "Rest for 5 minutes and serve.",
        ],
        extra_at: 2, extra_step: "Add the {extras} to the fruit.", prep: 15, cook: 30, meal: "dessert",
    },
    Dish {
        key: "pancakes", names: &["pancake", "pancakes"], title: "{main} Pancakes", plain: "Fluffy Pancakes",
        default_main: "", takes: &[Fruit], cuisine: "american",
        description: "Thick, fluffy pancakes with {with} and a drizzle of maple syrup.",
        plain_with: "a knob of butter",
        lines: &[("plain flour", 100.0, "g"), ("egg", 1.0, "pcs"), ("milk", 150.0, "ml"), ("baking powder", 1.0, "tsp"),
            ("brown sugar", 1.0, "tbsp"), ("butter", 10.0, "g"), ("maple syrup", 2.0, "tbsp")],
        steps: &[
            "Whisk the flour, baking powder and sugar, then beat in the egg and milk to a thick batter.",
            "Melt a little butter in a frying pan over a medium heat.",
            "Cook ladlefuls of batter for 2 minutes a side until golden and risen.",
            "Top with the {main}.",
            "Serve with the maple syrup.",
        ],
        extra_at: 4, extra_step: "Add the {extras}.", prep: 5, cook: 15, meal: "breakfast",
    },
    Dish {
        key: "omelette", names: &["omelette", "omelet", "frittata", "scrambled egg"], title: "{main} Omelette",
        plain: "Cheese Omelette", default_main: "", takes: &[Veg, Protein], cuisine: "french",
        description: "A soft, folded omelette with {with} and cheddar, done in 10 minutes.",
        plain_with: "spring onion",
        lines: &[("egg", 4.0, "pcs"), ("butter", 10.0, "g"), ("cheddar", 40.0, "g"), ("spring onion", 1.0, "pcs")],
        steps: &[
            "Cook the {main} in half the butter for 3–4 minutes, then tip it out.",
            "Beat the eggs with a pinch of salt.",
            "Melt the rest of the butter in a non-stick pan, pour in the eggs and stir gently until just set underneath.",
            "Scatter over the {main}, the cheese and the spring onion, then fold.",
            "Slide onto a plate and serve.",
        ],
        extra_at: 3, extra_step: "Add the {extras} with the cheese.", prep: 5, cook: 8, meal: "breakfast",
    },
    Dish {
        key: "tacos", names: &["taco", "tacos", "wrap", "wraps", "burrito"], title: "{main} Tacos", plain: "Black Bean Tacos",
        default_main: "black bean", takes: &[Protein, Veg], cuisine: "mexican",
        description: "Warm tortillas filled with smoky {with}, avocado, red onion and lime.",
        plain_with: "black beans",
        lines: &[("small tortillas", 6.0, "pcs"), ("red onion", 0.5, "pcs"), ("avocado", 1.0, "pcs"), ("lime", 1.0, "pcs"),
            ("smoked paprika", 1.0, "tsp"), ("ground cumin", 1.0, "tsp"), ("vegetable oil", 1.0, "tbsp"), ("coriander", 10.0, "g")],
        steps: &[
            "Cook the {main} in the oil with the paprika and cumin for 6–8 minutes until done.",
            "Finely chop the red onion and squeeze over half the lime.",
            "Mash the avocado with the rest of the lime and a pinch of salt.",
            "Warm the tortillas in a dry pan.",
            "Fill with the {main}, avocado, onion and coriander, and serve.",
        ],
        extra_at: 4, extra_step: "Add the {extras} to the filling.", prep: 10, cook: 10, meal: "dinner",
    },
];

/// The family a main goes to when the request names no dish ("something
/// with the paneer").
pub fn usual_dish(main: &Food) -> &'static str {
    let name = main.line.0;
    match main.kind {
        Kind::Fruit => "smoothie",
        Kind::Veg if name.contains("mushroom") => "risotto",
        Kind::Veg => "soup",
        _ if name.contains("paneer") || name.contains("chickpea") => "curry",
        _ if name.contains("lentil") => "soup",
        _ if name.contains("egg") => "omelette",
        _ if name.contains("bean") => "tacos",
        _ if name.contains("tofu") || name.contains("beef") || name.contains("prawn") => "stir fry",
        _ if name.contains("lamb") || name.contains("sausage") => "stew",
        _ if name.contains("halloumi") => "salad",
        _ => "traybake",
    }
}

/// Flavours a named cuisine brings to any dish ("thai noodles").
pub fn cuisine_lines(cuisine: &str) -> &'static [Line] {
    match cuisine {
        "thai" => &[
            ("fish sauce", 1.0, "tbsp"),
            ("lime", 1.0, "pcs"),
            ("thai basil", 10.0, "g"),
            ("red chili", 1.0, "pcs"),
        ],
        "indian" => &[
            ("garam masala", 1.0, "tsp"),
            ("ground cumin", 1.0, "tsp"),
            ("coriander", 10.0, "g"),
        ],
        "greek" => &[
            ("feta", 100.0, "g"),
            ("kalamata olives", 50.0, "g"),
            ("dried oregano", 1.0, "tsp"),
        ],
        "mexican" => &[
            ("smoked paprika", 1.0, "tsp"),
            ("lime", 1.0, "pcs"),
            ("coriander", 10.0, "g"),
        ],
        "italian" => &[("basil", 10.0, "g"), ("parmesan", 30.0, "g")],
        "japanese" => &[("white miso paste", 1.0, "tbsp"), ("mirin", 1.0, "tbsp")],
        "korean" => &[("gochujang", 1.0, "tbsp"), ("sesame seeds", 1.0, "tsp")],
        "chinese" => &[("light soy sauce", 1.0, "tbsp"), ("ginger", 10.0, "g")],
        "mediterranean" => &[
            ("olive oil", 1.0, "tbsp"),
            ("lemon", 1.0, "pcs"),
            ("dried oregano", 1.0, "tsp"),
        ],
        _ => &[],
    }
}

/// What stands in for a main the user cannot or will not eat, best first.
pub fn stand_ins(main: &Food) -> &'static [&'static str] {
    match main.kind {
        Kind::Fruit => &["banana", "berry", "apple"],
        Kind::Veg => &["courgette", "butternut squash", "spinach"],
        _ => &["chicken", "tofu", "chickpea"],
    }
}
