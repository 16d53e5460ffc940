//! The kitchen's tables in Postgres, exactly as Alfred's migrations 001-039
//! leave them (github jv92admin/alfredagain, `migrations/`): the same
//! columns in the same order, types, defaults, NOT NULLs, CHECKs, unique
//! keys and foreign keys, including `users`, which every user's rows
//! belong to (Alfred's sign-up fills it from `auth.users`). Written here
//! from those facts; `tests/fixtures/alfred_schema.txt` holds them as
//! `information_schema` shows them, and a test compares a database this
//! DDL built with it. Left out: the `embedding` columns (pgvector's
//! `vector(1536)`, which a plain Postgres lacks and alfred never reads),
//! the trigram and tag indexes, Alfred's functions and triggers, and
//! `conversations`' foreign key to Supabase's `auth.users`. Created only by
//! `alfred kitchen init`, in a database that has none of the tables yet;
//! alfred never alters an existing schema.
//!
//! Where the database has Supabase's `auth.uid()`, [`ROW_SECURITY`] turns
//! on row-level security with Alfred's policies (migration 025).
//!
//! Beside Alfred's tables, `alfred_turn_commits` holds the turn commit
//! stamps (what `turn_commits` is in `kitchen.db`). An Alfred database
//! without it still works; turns are then committed without a stamp.

/// The tables `kitchen init` creates, in dependency order.
pub const TABLES: &str = r#"
CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email text UNIQUE,
    created_at timestamptz DEFAULT now(),
    password_hash text,
    display_name text
);
CREATE TABLE ingredients (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL UNIQUE,
    aliases text[] DEFAULT '{}',
    category text,
    default_unit text,
    nutrition_per_100g jsonb,
    flavor_compounds text[],
    is_system boolean DEFAULT true,
    created_at timestamptz DEFAULT now(),
    parent_category text NOT NULL DEFAULT 'pantry'
        CONSTRAINT chk_parent_category CHECK (parent_category = ANY (ARRAY['produce',
        'protein', 'dairy', 'grains', 'pantry', 'spices', 'baking', 'specialty'])),
    family text NOT NULL,
    cuisines text[] DEFAULT '{}',
    tier integer DEFAULT 2 CONSTRAINT chk_tier CHECK (tier = ANY (ARRAY[1, 2, 3]))
);
CREATE INDEX idx_ingredients_family ON ingredients(family);
CREATE INDEX idx_ingredients_parent_category ON ingredients(parent_category);
CREATE TABLE inventory (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    ingredient_id uuid REFERENCES ingredients(id),
    name text NOT NULL,
    quantity numeric NOT NULL,
    unit text NOT NULL,
    location text,
    expiry_date date,
    purchase_date date,
    created_at timestamptz DEFAULT now(),
    updated_at timestamptz DEFAULT now(),
    category text,
    notes text
);
CREATE INDEX idx_inventory_user ON inventory(user_id);
CREATE TABLE recipes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    name text NOT NULL,
    description text,
    cuisine text,
    difficulty text,
    prep_time_minutes integer,
    cook_time_minutes integer,
    servings integer,
    instructions text[] NOT NULL,
    tags text[] DEFAULT '{}',
    source_url text,
    is_system boolean DEFAULT false,
    created_at timestamptz DEFAULT now(),
    parent_recipe_id uuid REFERENCES recipes(id),
    occasions text[],
    health_tags text[],
    flavor_tags text[],
    equipment_tags text[],
    CONSTRAINT valid_flavor_tags CHECK (flavor_tags IS NULL OR flavor_tags <@ ARRAY['spicy',
        'mild', 'savory', 'sweet', 'tangy', 'rich', 'light', 'umami', 'other'])
);
CREATE INDEX idx_recipes_user ON recipes(user_id);
CREATE TABLE recipe_ingredients (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    recipe_id uuid REFERENCES recipes(id) ON DELETE CASCADE,
    ingredient_id uuid REFERENCES ingredients(id),
    name text NOT NULL,
    quantity numeric,
    unit text,
    notes text,
    is_optional boolean DEFAULT false,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    category text
);
CREATE INDEX idx_recipe_ingredients_user ON recipe_ingredients(user_id);
CREATE TABLE meal_plans (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    date date NOT NULL,
    meal_type text NOT NULL CHECK (meal_type = ANY (ARRAY['breakfast', 'lunch', 'dinner',
        'snack', 'other'])),
    recipe_id uuid REFERENCES recipes(id) ON DELETE SET NULL,
    notes text,
    servings integer DEFAULT 1,
    created_at timestamptz DEFAULT now()
);
CREATE INDEX idx_meal_plans_user_date ON meal_plans(user_id, date);
CREATE TABLE shopping_list (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    ingredient_id uuid REFERENCES ingredients(id),
    name text NOT NULL,
    quantity numeric,
    unit text,
    category text,
    is_purchased boolean DEFAULT false,
    source text,
    created_at timestamptz DEFAULT now(),
    notes text
);
CREATE INDEX idx_shopping_list_user ON shopping_list(user_id);
CREATE TABLE tasks (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title text NOT NULL,
    due_date date,
    category text CHECK (category = ANY (ARRAY['prep', 'shopping', 'cleanup', 'other'])),
    completed boolean DEFAULT false,
    recipe_id uuid REFERENCES recipes(id) ON DELETE SET NULL,
    meal_plan_id uuid REFERENCES meal_plans(id) ON DELETE SET NULL,
    created_at timestamptz DEFAULT now(),
    updated_at timestamptz DEFAULT now()
);
CREATE INDEX idx_tasks_user_due ON tasks(user_id, due_date);
CREATE TABLE preferences (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    dietary_restrictions text[] DEFAULT '{}',
    allergies text[] DEFAULT '{}',
    favorite_cuisines text[] DEFAULT '{}',
    disliked_ingredients text[] DEFAULT '{}',
    cooking_skill_level text DEFAULT 'intermediate',
    updated_at timestamptz DEFAULT now(),
    nutrition_goals text[] DEFAULT '{}',
    cooking_frequency text,
    available_equipment text[] DEFAULT '{}',
    time_budget_minutes integer DEFAULT 30,
    preferred_complexity text DEFAULT 'moderate',
    planning_rhythm text[] DEFAULT '{}',
    current_vibes text[] DEFAULT '{}',
    subdomain_guidance jsonb DEFAULT '{}',
    assumed_staples uuid[] DEFAULT '{}',
    household_adults integer DEFAULT 1,
    household_kids integer DEFAULT 0,
    household_babies integer DEFAULT 0
);
CREATE TABLE conversations (
    user_id uuid PRIMARY KEY,
    state jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    last_active_at timestamptz NOT NULL DEFAULT now(),
    title text,
    is_archived boolean NOT NULL DEFAULT false
);
"#;

/// The tables whose rows are each a user's (`user_id`).
const OWNED: [&str; 8] = [
    "inventory",
    "recipes",
    "recipe_ingredients",
    "meal_plans",
    "shopping_list",
    "tasks",
    "preferences",
    "conversations",
];

/// Alfred's row-level security (migrations 024, 025): each user's rows
/// show and take only where `user_id` is `auth.uid()` (a recipe marked
/// `is_system` shows to all); `users` shows and updates only the user's own
/// row; the catalog shows and takes rows for any signed-in user. Run by
/// `kitchen init` only where `auth.uid()` exists.
pub fn row_security() -> String {
    const OWN: &str = "user_id = (SELECT auth.uid())";
    const SIGNED_IN: &str = "(SELECT auth.uid()) IS NOT NULL";
    let mut sql = String::new();
    let mut policy = |table: &str, cmd: &str, using: Option<&str>, check: Option<&str>| {
        let using = using.map(|u| format!(" USING ({u})")).unwrap_or_default();
        let check = check
            .map(|c| format!(" WITH CHECK ({c})"))
            .unwrap_or_default();
        let name = cmd.to_lowercase();
        sql.push_str(&format!(
            "CREATE POLICY {table}_{name}_policy ON {table} FOR {cmd}{using}{check};\n"
        ));
    };
    policy("ingredients", "SELECT", Some(SIGNED_IN), None);
    policy("ingredients", "INSERT", None, Some(SIGNED_IN));
    policy("users", "SELECT", Some("id = (SELECT auth.uid())"), None);
    let me = "id = (SELECT auth.uid())";
    policy("users", "UPDATE", Some(me), Some(me));
    for t in OWNED {
        let shown = if t == "recipes" {
            "user_id = (SELECT auth.uid()) OR is_system = true"
        } else {
            OWN
        };
        policy(t, "SELECT", Some(shown), None);
        policy(t, "INSERT", None, Some(OWN));
        let check = (t != "conversations").then_some(OWN);
        policy(t, "UPDATE", Some(OWN), check);
        policy(t, "DELETE", Some(OWN), None);
    }
    for t in ["users", "ingredients"].into_iter().chain(OWNED) {
        sql.push_str(&format!("ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;\n"));
    }
    sql
}

/// The turn commit stamps (alfred's own table).
pub const TURN_COMMITS: &str = r#"
CREATE TABLE alfred_turn_commits (
    commit_id text PRIMARY KEY,
    user_id uuid NOT NULL,
    session_id text NOT NULL,
    turn integer NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now()
);
"#;
