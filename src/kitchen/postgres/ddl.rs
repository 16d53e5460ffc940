//! The kitchen's tables in Postgres, as Alfred's database has them
//! (`reference §6.4`): uuid ids, every row but the ingredient catalog
//! scoped by `user_id`, lists as `text[]`, guidance as `jsonb`, real dates
//! and booleans. Created only by `alfred kitchen init`, in a database that
//! has none of the tables yet; alfred never alters an existing schema.
//!
//! Beside Alfred's tables, `alfred_turn_commits` holds the turn commit
//! stamps (what `turn_commits` is in `kitchen.db`). An Alfred database
//! without it still works; turns are then committed without a stamp.

/// The tables `kitchen init` creates, in dependency order.
pub const TABLES: &str = r#"
CREATE TABLE ingredients (
    id uuid PRIMARY KEY,
    name text NOT NULL UNIQUE,
    aliases text[] NOT NULL DEFAULT '{}',
    category text,
    default_unit text,
    parent_category text,
    family text,
    cuisines text[] NOT NULL DEFAULT '{}',
    tier integer,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE recipes (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    name text NOT NULL,
    description text,
    cuisine text,
    difficulty text CHECK (difficulty IN ('easy', 'medium', 'hard')),
    prep_time_minutes integer,
    cook_time_minutes integer,
    servings integer,
    instructions text[] NOT NULL DEFAULT '{}',
    tags text[] NOT NULL DEFAULT '{}',
    source_url text,
    parent_recipe_id uuid REFERENCES recipes(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX recipes_user ON recipes(user_id);
CREATE TABLE recipe_ingredients (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    recipe_id uuid NOT NULL REFERENCES recipes(id) ON DELETE CASCADE,
    ingredient_id uuid REFERENCES ingredients(id) ON DELETE SET NULL,
    name text NOT NULL,
    quantity numeric,
    unit text,
    notes text,
    is_optional boolean NOT NULL DEFAULT false,
    category text,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX recipe_ingredients_recipe ON recipe_ingredients(recipe_id);
CREATE TABLE inventory (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    ingredient_id uuid REFERENCES ingredients(id) ON DELETE SET NULL,
    name text NOT NULL,
    quantity numeric NOT NULL,
    unit text NOT NULL,
    location text CHECK (location IN ('pantry', 'fridge', 'freezer', 'counter', 'cabinet')),
    expiry_date date,
    purchase_date date,
    category text,
    notes text,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX inventory_user ON inventory(user_id);
CREATE TABLE meal_plans (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    date date NOT NULL,
    meal_type text NOT NULL
        CHECK (meal_type IN ('breakfast', 'lunch', 'dinner', 'snack', 'other')),
    recipe_id uuid REFERENCES recipes(id) ON DELETE SET NULL,
    notes text,
    servings integer,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (user_id, date, meal_type)
);
CREATE TABLE shopping_list (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    ingredient_id uuid REFERENCES ingredients(id) ON DELETE SET NULL,
    name text NOT NULL,
    quantity numeric,
    unit text,
    category text,
    is_purchased boolean NOT NULL DEFAULT false,
    source text,
    notes text,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX shopping_list_user ON shopping_list(user_id);
CREATE TABLE tasks (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    title text NOT NULL,
    due_date date,
    category text CHECK (category IN ('prep', 'shopping', 'cleanup', 'other')),
    completed boolean NOT NULL DEFAULT false,
    recipe_id uuid REFERENCES recipes(id) ON DELETE SET NULL,
    meal_plan_id uuid REFERENCES meal_plans(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE preferences (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL UNIQUE,
    dietary_restrictions text[] NOT NULL DEFAULT '{}',
    allergies text[] NOT NULL DEFAULT '{}',
    favorite_cuisines text[] NOT NULL DEFAULT '{}',
    disliked_ingredients text[] NOT NULL DEFAULT '{}',
    cooking_skill_level text,
    household_adults integer,
    household_kids integer,
    household_babies integer,
    nutrition_goals text[] NOT NULL DEFAULT '{}',
    cooking_frequency text,
    available_equipment text[] NOT NULL DEFAULT '{}',
    time_budget_minutes integer,
    preferred_complexity text,
    planning_rhythm text,
    current_vibes text[] NOT NULL DEFAULT '{}',
    units text,
    subdomain_guidance jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
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
