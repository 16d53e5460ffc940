#!/bin/sh
# The rows of a seeded kitchen.db as markdown tables, for blind-set writers
# and graders: rows.sh kitchen.db > ROWS.md
db="$1"
q() { echo; echo "## $1"; echo; sqlite3 -markdown "$db" "$2" | grep -v '^$'; }
echo "# The kitchen every conversation starts from (today: Tuesday 2026-01-13)"
q inventory "select name, quantity, unit, location, expiry_date, category, notes from inventory order by location, name"
q "shopping list" "select name, quantity, unit, category, is_purchased, notes from shopping_list"
q recipes "select name, description, cuisine, prep_time_minutes as prep, cook_time_minutes as cook, servings, tags from recipes"
q "recipe ingredients" "select r.name as recipe, i.name, i.quantity, i.unit, i.notes, i.is_optional from recipe_ingredients i join recipes r on r.id = i.recipe_id order by r.name"
q "recipe instructions" "select name, instructions from recipes"
q "meal plan" "select m.date, m.meal_type, coalesce(r.name, '') as recipe, m.notes, m.servings from meal_plans m left join recipes r on r.id = m.recipe_id order by m.date"
q tasks "select title, due_date, category, completed from tasks"
q preferences "select dietary_restrictions, allergies, favorite_cuisines, disliked_ingredients, cooking_skill_level, household_adults, household_kids, available_equipment, time_budget_minutes from preferences"
