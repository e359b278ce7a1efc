#!/usr/bin/env python3
"""The Python baseline for bench/products.py: the same import as `ingest products import`, written
the way one would in Python: the csv module reads the tab-separated export, sqlite3's executemany
upserts 10,000 rows a transaction into a product table of the same columns.

    bench/products_baseline.py DUMP.csv DATABASE

Columns are found by name; a row with the wrong field count, a number that is not one or bad
UTF-8 is skipped; codes are normalised to GTIN-14 (digits, leading zeros dropped, padded to 14).
"""
import csv
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import gtin14  # noqa: E402

TEXTS = [("name", ["product_name", "product_name_en", "generic_name"]), ("brands", ["brands"]),
         ("quantity", ["quantity"]), ("serving_size", ["serving_size"]), ("nutriscore_grade", ["nutriscore_grade"]),
         ("categories", ["categories_en", "categories"])]
NUMBERS = [("energy_kcal", "energy-kcal_100g"), ("fat", "fat_100g"), ("saturated_fat", "saturated-fat_100g"),
           ("carbohydrates", "carbohydrates_100g"), ("sugars", "sugars_100g"), ("fiber", "fiber_100g"),
           ("proteins", "proteins_100g"), ("salt", "salt_100g"), ("nova_group", "nova_group"),
           ("last_modified", "last_modified_t")]
COLUMNS = ["gtin14", "code"] + [c for c, _ in TEXTS] + [c for c, _ in NUMBERS]


def main():
    dump, database = sys.argv[1:3]
    db = sqlite3.connect(database)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE IF NOT EXISTS product (gtin14 TEXT PRIMARY KEY, code TEXT, name TEXT, brands TEXT, "
               "quantity TEXT, serving_size TEXT, nutriscore_grade TEXT, categories TEXT, energy_kcal REAL, fat REAL, "
               "saturated_fat REAL, carbohydrates REAL, sugars REAL, fiber REAL, proteins REAL, salt REAL, "
               "nova_group INTEGER, last_modified INTEGER) WITHOUT ROWID")
    upsert = (f"INSERT INTO product ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
              f"ON CONFLICT (gtin14) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in COLUMNS[1:])}")
    read = stored = skipped = 0
    batch = []
    with open(dump, newline="", encoding="utf-8", errors="surrogateescape") as f:
        rows = csv.reader(f, delimiter="\t")
        header = next(rows)
        index = {name: i for i, name in reversed(list(enumerate(header)))}
        texts = [[index[n] for n in names if n in index] for _, names in TEXTS]
        numbers = [index.get(name) for _, name in NUMBERS]
        code_at = index["code"]
        for row in rows:
            read += 1
            if len(row) != len(header):
                skipped += 1
                continue
            key = gtin14(row[code_at])
            if key is None:
                skipped += 1
                continue
            try:
                values = [key, row[code_at]]
                for columns in texts:
                    values.append(next((row[i] for i in columns if row[i]), None))
                for i in numbers:
                    values.append(float(row[i]) if i is not None and row[i] else None)
                for text in values[2:8]:
                    if text is not None:
                        text.encode("utf-8")
            except (ValueError, UnicodeEncodeError):
                skipped += 1
                continue
            batch.append(values)
            if len(batch) == 10_000:
                with db:
                    db.executemany(upsert, batch)
                stored += len(batch)
                batch.clear()
    with db:
        db.executemany(upsert, batch)
    stored += len(batch)
    db.close()
    print(f"rows {read}, products stored {stored}, skipped {skipped}")


if __name__ == "__main__":
    main()
