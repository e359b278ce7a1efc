#!/usr/bin/env python3
"""Writes an Open Food Facts CSV export of made-up products, as the real one is laid out.

    bench/off_dump.py OUT.csv [--rows 500000] [--seed 13] [--codes FILE] [--malformed 0.001]

The header has the real export's ~200 columns in its order (code, url, creator, created_t, …,
product_name, …, ingredients_text, …, energy-kcal_100g, …, salt_100g, …); rows are tab-separated
and unquoted, most fields empty as in the real dump, with long ingredient lists, URLs, tags and
the usual ~15 nutrients. Codes come in the forms Open Food Facts stores: EAN-13, UPC-A with and
without its leading 0, EAN-8, stray leading zeros, and a few that are not GTINs. A `--malformed`
share of lines is broken (a field missing, a number that is not one, bad UTF-8), and the last line
is cut short. `--codes FILE` puts these codes (one per line) in first, so a catalogue's captures
find products.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import check_digit  # noqa: E402

META = ("code url creator created_t created_datetime last_modified_t last_modified_datetime last_modified_by "
        "last_updated_t last_updated_datetime product_name abbreviated_product_name generic_name quantity "
        "packaging packaging_tags packaging_en packaging_text brands brands_tags brands_en categories "
        "categories_tags categories_en origins origins_tags origins_en manufacturing_places "
        "manufacturing_places_tags labels labels_tags labels_en emb_codes emb_codes_tags "
        "first_packaging_code_geo cities cities_tags purchase_places stores countries countries_tags "
        "countries_en ingredients_text ingredients_tags ingredients_analysis_tags allergens allergens_en "
        "traces traces_tags traces_en serving_size serving_quantity no_nutrition_data additives_n additives "
        "additives_tags additives_en nutriscore_score nutriscore_grade nova_group pnns_groups_1 pnns_groups_2 "
        "food_groups food_groups_tags food_groups_en states states_tags states_en brand_owner "
        "environmental_score_score environmental_score_grade nutrient_levels_tags product_quantity owner "
        "data_quality_errors_tags unique_scans_n popularity_tags completeness last_image_t last_image_datetime "
        "main_category main_category_en image_url image_small_url image_ingredients_url "
        "image_ingredients_small_url image_nutrition_url image_nutrition_small_url").split()
NUTRIENTS = ("energy-kj energy-kcal energy energy-from-fat fat saturated-fat butyric-acid caproic-acid "
             "caprylic-acid capric-acid lauric-acid myristic-acid palmitic-acid stearic-acid arachidic-acid "
             "behenic-acid lignoceric-acid cerotic-acid montanic-acid melissic-acid unsaturated-fat "
             "monounsaturated-fat omega-9-fat oleic-acid elaidic-acid gondoic-acid mead-acid erucic-acid "
             "nervonic-acid polyunsaturated-fat omega-3-fat alpha-linolenic-acid eicosapentaenoic-acid "
             "docosahexaenoic-acid omega-6-fat linoleic-acid arachidonic-acid gamma-linolenic-acid "
             "dihomo-gamma-linolenic-acid trans-fat cholesterol carbohydrates sugars added-sugars sucrose "
             "glucose fructose galactose lactose maltose maltodextrins starch polyols erythritol fiber "
             "soluble-fiber insoluble-fiber proteins casein serum-proteins nucleotides salt added-salt sodium "
             "alcohol vitamin-a beta-carotene vitamin-d vitamin-e vitamin-k vitamin-c vitamin-b1 vitamin-b2 "
             "vitamin-pp vitamin-b6 vitamin-b9 folates vitamin-b12 biotin pantothenic-acid silica bicarbonate "
             "potassium chloride calcium phosphorus iron magnesium zinc copper manganese fluoride selenium "
             "chromium molybdenum iodine caffeine taurine ph fruits-vegetables-nuts "
             "fruits-vegetables-nuts-estimate fruits-vegetables-legumes-estimate-from-ingredients "
             "collagen-meat-protein-ratio cocoa chlorophyl carbon-footprint carbon-footprint-from-meat-or-fish "
             "nutrition-score-fr nutrition-score-uk glycemic-index water-hardness choline phylloquinone "
             "beta-glucan inositol carnitine sulphate nitrate acidity").split()
HEADER = META + [n + "_100g" for n in NUTRIENTS]
COLUMN = {name: i for i, name in enumerate(HEADER)}
FILLED = {"energy-kj": (100, 3000), "energy-kcal": (20, 900), "fat": (0, 100), "saturated-fat": (0, 50),
          "carbohydrates": (0, 100), "sugars": (0, 90), "fiber": (0, 30), "proteins": (0, 60),
          "salt": (0, 5), "sodium": (0, 2), "nutrition-score-fr": (-10, 30)}
WORDS = ("sugar wheat flour palm oil hazelnuts skimmed milk powder cocoa whey lecithins soy vanillin salt water "
         "tomato concentrate vinegar spices natural flavouring rapeseed yeast barley malt extract emulsifier "
         "acidity regulator citric acid preservative potassium sorbate maize starch glucose syrup").split()
NAMES = "Crunchy Classic Organic Light Original Dark Whole Wholegrain Spicy Sweet Smoked Mini Family".split()
THINGS = "Peanut butter|Hazelnut spread|Oat bars|Tomato soup|Crème fraîche|Müsli|Rice crackers|Green tea".split("|")
BRANDS = "Acme,Ferrero,Barly,Łaciate,Heinz,Nestlé,Carrefour,Auchan,Lidl,Señor Postre".split(",")


def random_code(rng):
    kind = rng.random()
    if kind < 0.70:
        body = "".join(rng.choice("0123456789") for _ in range(12))
        return body + check_digit(body)
    if kind < 0.85:
        body = "0" + "".join(rng.choice("0123456789") for _ in range(10))
        code = body + check_digit(body)
        return code if rng.random() < 0.5 else "0" + code
    if kind < 0.93:
        body = "".join(rng.choice("0123456789") for _ in range(7))
        return body + check_digit(body)
    if kind < 0.98:
        body = "".join(rng.choice("0123456789") for _ in range(12))
        return "000" + body + check_digit(body)
    return rng.choice(["abc-%d" % rng.randrange(10**6), "2%011d" % rng.randrange(10**11), ""])


def row(rng, code, time):
    fields = [""] * len(HEADER)
    name = f"{rng.choice(NAMES)} {rng.choice(THINGS)}"
    brand = rng.choice(BRANDS)
    values = {
        "code": code, "url": f"http://world-en.openfoodfacts.org/product/{code}/{name.lower().replace(' ', '-')}",
        "creator": "openfoodfacts-contributors", "created_t": str(time - 10**7), "last_modified_t": str(time),
        "last_modified_datetime": "2024-05-01T10:00:00Z", "product_name": name, "quantity": f"{rng.randrange(50, 1000)} g",
        "brands": brand, "brands_tags": brand.lower(), "categories": "Snacks,Spreads",
        "categories_tags": "en:snacks,en:spreads", "categories_en": "Snacks,Spreads", "countries_en": "France,Poland",
        "ingredients_text": ", ".join(rng.choice(WORDS) for _ in range(rng.randrange(20, 200))),
        "serving_size": "15 g", "nutriscore_grade": rng.choice("abcde"), "nova_group": str(rng.randrange(1, 5)),
        "states": "en:to-be-completed, en:nutrition-facts-completed", "completeness": f"{rng.random():.4f}",
        "image_url": f"https://images.openfoodfacts.org/images/products/{code}/front_en.3.400.jpg",
        "image_small_url": f"https://images.openfoodfacts.org/images/products/{code}/front_en.3.200.jpg",
    }
    for column, text in values.items():
        fields[COLUMN[column]] = text
    for nutrient, (low, high) in FILLED.items():
        if rng.random() < 0.85:
            value = rng.uniform(low, high)
            fields[COLUMN[nutrient + "_100g"]] = str(round(value)) if rng.random() < 0.3 else f"{value:.3g}"
    return fields


def broken(rng, fields):
    """One of the ways real lines go wrong, as bytes."""
    kind = rng.randrange(3)
    if kind == 0:
        return "\t".join(fields[:-3]).encode()
    if kind == 1:
        fields[COLUMN["fat_100g"]] = "n/a"
        return "\t".join(fields).encode()
    fields[COLUMN["product_name"]] = "\udcc3("
    return "\t".join(fields).encode("utf-8", "surrogateescape")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--codes", help="codes to include first, one per line")
    ap.add_argument("--malformed", type=float, default=0.001)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    given = [line.strip() for line in open(args.codes)] if args.codes else []
    with open(args.out, "wb") as out:
        out.write(("\t".join(HEADER) + "\n").encode())
        for index in range(args.rows):
            code = given[index] if index < len(given) else random_code(rng)
            fields = row(rng, code, 1_700_000_000 + index)
            line = broken(rng, fields) if rng.random() < args.malformed else "\t".join(fields).encode()
            out.write(line[: len(line) // 2] if index == args.rows - 1 else line + b"\n")


if __name__ == "__main__":
    main()
