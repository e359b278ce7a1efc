-- index barcode_hit_on_photo_id
CREATE INDEX barcode_hit_on_photo_id ON barcode_hit(photo_id);

-- index capture_on_agent_id_captured_utc_id
CREATE INDEX capture_on_agent_id_captured_utc_id ON capture(agent_id, captured_utc, id);

-- index capture_on_barcode_captured_utc_id
CREATE INDEX capture_on_barcode_captured_utc_id ON capture(barcode, captured_utc, id);

-- index capture_on_captured_utc_id
CREATE INDEX capture_on_captured_utc_id ON capture(captured_utc, id);

-- index capture_on_gtin13_captured_utc_id
CREATE INDEX capture_on_gtin13_captured_utc_id ON capture(gtin13, captured_utc, id);

-- index capture_on_photo_count_captured_utc_id
CREATE INDEX capture_on_photo_count_captured_utc_id ON capture(photo_count, captured_utc, id);

-- index capture_on_rating_captured_utc_id
CREATE INDEX capture_on_rating_captured_utc_id ON capture(rating, captured_utc, id);

-- index capture_on_run_id
CREATE INDEX capture_on_run_id ON capture(run_id);

-- index capture_on_set_name_captured_utc_id
CREATE INDEX capture_on_set_name_captured_utc_id ON capture(set_name, captured_utc, id);

-- index capture_text_on_captured_utc_capture_id
CREATE INDEX capture_text_on_captured_utc_capture_id ON capture_text(captured_utc, capture_id, text);

-- index capture_text_unfolded
CREATE INDEX capture_text_unfolded ON capture_text(capture_id) WHERE unfolded;

-- index held_file_on_edit_id
CREATE INDEX held_file_on_edit_id ON held_file(edit_id);

-- index photo_on_capture_id_file_time
CREATE INDEX photo_on_capture_id_file_time ON photo(capture_id) WHERE time_source = 'file-time';

-- index photo_on_capture_id_position
CREATE UNIQUE INDEX photo_on_capture_id_position ON photo(capture_id, position);

-- index photo_on_thumb_path
CREATE INDEX photo_on_thumb_path ON photo(thumb_path);

-- index photo_text_with_nutrition
CREATE INDEX photo_text_with_nutrition ON photo_text(photo_id) WHERE nutrition IS NOT NULL;

-- index set_claim_on_worker_id
CREATE INDEX set_claim_on_worker_id ON set_claim(worker_id);

-- table agent
CREATE TABLE agent (
    id TEXT NOT NULL PRIMARY KEY CHECK (length(id) >= 1),
    name TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
);

-- table agent_name
CREATE TABLE agent_name (
    agent_id TEXT NOT NULL REFERENCES agent(id),
    name TEXT NOT NULL,
    PRIMARY KEY (agent_id, name)
) WITHOUT ROWID;

-- table barcode_hit
CREATE TABLE barcode_hit (
    id INTEGER PRIMARY KEY,
    photo_id TEXT NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    symbology TEXT NOT NULL,
    text TEXT NOT NULL,
    gtin13 TEXT CHECK (gtin13 IS NULL OR length(gtin13) = 13),
    quality INTEGER NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    width INTEGER NOT NULL CHECK (width >= 0),
    height INTEGER NOT NULL CHECK (height >= 0)
, addon TEXT CHECK (addon IS NULL OR length(addon) IN (2, 5)));

-- table capture
CREATE TABLE capture (
    id TEXT NOT NULL PRIMARY KEY,
    run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
    set_name TEXT NOT NULL,
    barcode TEXT,
    symbology TEXT,
    gtin13 TEXT CHECK (gtin13 IS NULL OR length(gtin13) = 13),
    captured_at TEXT NOT NULL,
    captured_utc REAL NOT NULL,
    time_source TEXT NOT NULL,
    photo_count INTEGER NOT NULL CHECK (photo_count >= 1),
    quality REAL NOT NULL CHECK (quality BETWEEN 0 AND 1),
    rating TEXT NOT NULL CHECK (rating IN ('Excellent', 'Good', 'Fair', 'Poor')),
    created_at TEXT NOT NULL
, agent_id TEXT REFERENCES agent(id), agent_name TEXT, request_id TEXT, note TEXT, context_path TEXT, addon TEXT CHECK (addon IS NULL OR length(addon) IN (2, 5)));

-- table capture_text
CREATE TABLE capture_text (
    id INTEGER PRIMARY KEY,
    capture_id TEXT NOT NULL UNIQUE,
    captured_utc REAL NOT NULL,
    text TEXT NOT NULL
, unfolded INTEGER NOT NULL DEFAULT 0);

-- table capture_text_index
CREATE VIRTUAL TABLE capture_text_index USING fts5(
    text, content = 'capture_text', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);

-- table capture_text_index_config
CREATE TABLE 'capture_text_index_config'(k PRIMARY KEY, v) WITHOUT ROWID;

-- table capture_text_index_data
CREATE TABLE 'capture_text_index_data'(id INTEGER PRIMARY KEY, block BLOB);

-- table capture_text_index_docsize
CREATE TABLE 'capture_text_index_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

-- table capture_text_index_idx
CREATE TABLE 'capture_text_index_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

-- table edit
CREATE TABLE edit (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('merge', 'split', 'move', 'set-barcode', 'delete', 'undo')),
    made_at TEXT NOT NULL,
    origin TEXT NOT NULL,
    summary TEXT NOT NULL,
    before_state TEXT NOT NULL,
    after_state TEXT NOT NULL,
    undoes INTEGER REFERENCES edit(id),
    undone_by INTEGER REFERENCES edit(id) DEFERRABLE INITIALLY DEFERRED,
    purged_at TEXT
);

-- table edit_capture
CREATE TABLE edit_capture (
    capture_id TEXT NOT NULL,
    edit_id INTEGER NOT NULL REFERENCES edit(id),
    PRIMARY KEY (capture_id, edit_id)
);

-- table grdb_migrations
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);

-- table held_file
CREATE TABLE held_file (
    path TEXT NOT NULL PRIMARY KEY,
    edit_id INTEGER NOT NULL REFERENCES edit(id)
);

-- table photo
CREATE TABLE photo (
    id TEXT NOT NULL PRIMARY KEY,
    capture_id TEXT NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    original_name TEXT NOT NULL,
    source_path TEXT NOT NULL,
    original_path TEXT NOT NULL UNIQUE,
    thumb_path TEXT NOT NULL,
    thumb_width INTEGER NOT NULL CHECK (thumb_width > 0),
    thumb_height INTEGER NOT NULL CHECK (thumb_height > 0),
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
    format TEXT NOT NULL,
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    orientation INTEGER NOT NULL,
    make TEXT,
    model TEXT,
    taken_at TEXT NOT NULL,
    taken_utc REAL NOT NULL,
    time_source TEXT NOT NULL,
    sharpness REAL NOT NULL,
    contrast REAL NOT NULL,
    brightness REAL NOT NULL,
    decode_confidence REAL,
    quality REAL NOT NULL CHECK (quality BETWEEN 0 AND 1),
    rating TEXT NOT NULL CHECK (rating IN ('Excellent', 'Good', 'Fair', 'Poor'))
, original_modified INTEGER);

-- table photo_text
CREATE TABLE photo_text (
    photo_id TEXT NOT NULL PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    state TEXT NOT NULL CHECK (state IN ('read', 'given-up')),
    reason TEXT,
    languages TEXT NOT NULL,
    quarter_turns INTEGER NOT NULL CHECK (quarter_turns BETWEEN 0 AND 3),
    text TEXT NOT NULL,
    headline TEXT,
    nutrition TEXT,
    seconds REAL NOT NULL CHECK (seconds >= 0),
    read_at TEXT NOT NULL
);

-- table photo_word
CREATE TABLE photo_word (
    photo_id TEXT NOT NULL REFERENCES photo_text(photo_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    text TEXT NOT NULL,
    line INTEGER NOT NULL CHECK (line >= 0),
    block INTEGER NOT NULL CHECK (block >= 0),
    x REAL NOT NULL,
    y REAL NOT NULL,
    width REAL NOT NULL,
    height REAL NOT NULL,
    confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 100),
    PRIMARY KEY (photo_id, position)
);

-- table product
CREATE TABLE product (
    id INTEGER PRIMARY KEY,
    gtin14 TEXT NOT NULL UNIQUE CHECK (length(gtin14) = 14),
    code TEXT NOT NULL,
    name TEXT,
    brands TEXT,
    quantity TEXT,
    serving_size TEXT,
    nutriscore_grade TEXT,
    nova_group INTEGER,
    categories TEXT,
    energy_kcal REAL,
    fat REAL,
    saturated_fat REAL,
    carbohydrates REAL,
    sugars REAL,
    fiber REAL,
    proteins REAL,
    salt REAL,
    last_modified INTEGER,
    source TEXT NOT NULL CHECK (source IN ('off', 'manual')),
    alias_of TEXT
);

-- table run
CREATE TABLE run (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    inbox TEXT NOT NULL,
    sets INTEGER NOT NULL DEFAULT 0 CHECK (sets >= 0),
    captures INTEGER NOT NULL DEFAULT 0 CHECK (captures >= 0),
    photos INTEGER NOT NULL DEFAULT 0 CHECK (photos >= 0),
    duplicates INTEGER NOT NULL DEFAULT 0 CHECK (duplicates >= 0),
    quarantined INTEGER NOT NULL DEFAULT 0 CHECK (quarantined >= 0),
    failed INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0)
);

-- table set_claim
CREATE TABLE set_claim (
    set_name TEXT NOT NULL PRIMARY KEY,
    worker_id TEXT NOT NULL,
    claimed_utc REAL NOT NULL,
    lease_until REAL NOT NULL
);

-- table worker
CREATE TABLE worker (
    id TEXT NOT NULL PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    lease_until REAL NOT NULL
);

-- trigger capture_deleted_search
CREATE TRIGGER capture_deleted_search AFTER DELETE ON capture BEGIN
    DELETE FROM capture_text WHERE capture_id = old.id;
END;

-- trigger capture_inserted_search
CREATE TRIGGER capture_inserted_search AFTER INSERT ON capture BEGIN
    INSERT INTO capture_text (capture_id, captured_utc, text) VALUES (new.id, new.captured_utc, lower(new.set_name) || char(31) || coalesce(lower(new.barcode), '') || char(31)
    || coalesce(new.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || new.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = new.id AND t.text <> ''), ''));
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = new.id AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger capture_text_deleted
CREATE TRIGGER capture_text_deleted AFTER DELETE ON capture_text BEGIN
    INSERT INTO capture_text_index (capture_text_index, rowid, text) VALUES ('delete', old.id, old.text);
END;

-- trigger capture_text_inserted
CREATE TRIGGER capture_text_inserted AFTER INSERT ON capture_text BEGIN
    INSERT INTO capture_text_index (rowid, text) VALUES (new.id, new.text);
END;

-- trigger capture_text_updated
CREATE TRIGGER capture_text_updated AFTER UPDATE OF text ON capture_text BEGIN
    INSERT INTO capture_text_index (capture_text_index, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO capture_text_index (rowid, text) VALUES (new.id, new.text);
END;

-- trigger capture_updated_search
CREATE TRIGGER capture_updated_search AFTER UPDATE OF id, set_name, barcode, gtin13, captured_utc ON capture BEGIN
    UPDATE capture_text SET capture_id = new.id, captured_utc = new.captured_utc, text = lower(new.set_name) || char(31) || coalesce(lower(new.barcode), '') || char(31)
    || coalesce(new.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || new.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = new.id AND t.text <> ''), '')
        WHERE capture_id = old.id;
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = new.id AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger photo_moved_search
CREATE TRIGGER photo_moved_search AFTER UPDATE OF capture_id ON photo
    WHEN EXISTS (SELECT 1 FROM photo_text WHERE photo_id = new.id AND text <> '') BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
        WHERE capture_id = old.capture_id;
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = old.capture_id AND length(text) <> length(CAST(text AS BLOB));
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
        WHERE capture_id = new.capture_id;
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = new.capture_id AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger photo_text_deleted_search
CREATE TRIGGER photo_text_deleted_search AFTER DELETE ON photo_text BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
        WHERE capture_id = (SELECT capture_id FROM photo WHERE id = old.photo_id);
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = (SELECT capture_id FROM photo WHERE id = old.photo_id) AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger photo_text_inserted_search
CREATE TRIGGER photo_text_inserted_search AFTER INSERT ON photo_text BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
        WHERE capture_id = (SELECT capture_id FROM photo WHERE id = new.photo_id);
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = (SELECT capture_id FROM photo WHERE id = new.photo_id) AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger photo_text_updated_search
CREATE TRIGGER photo_text_updated_search AFTER UPDATE OF text ON photo_text BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
        WHERE capture_id = (SELECT capture_id FROM photo WHERE id = new.photo_id);
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id = (SELECT capture_id FROM photo WHERE id = new.photo_id) AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger product_deleted_search
CREATE TRIGGER product_deleted_search AFTER DELETE ON product WHEN (substr(old.gtin14, 1, 1) = '0' AND EXISTS (SELECT 1 FROM capture WHERE gtin13 = substr(old.gtin14, 2))) BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(old.gtin14, 2) AND substr(old.gtin14, 1, 1) = '0');
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(old.gtin14, 2) AND substr(old.gtin14, 1, 1) = '0') AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger product_inserted_search
CREATE TRIGGER product_inserted_search AFTER INSERT ON product WHEN (substr(new.gtin14, 1, 1) = '0' AND EXISTS (SELECT 1 FROM capture WHERE gtin13 = substr(new.gtin14, 2))) BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(new.gtin14, 2) AND substr(new.gtin14, 1, 1) = '0');
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(new.gtin14, 2) AND substr(new.gtin14, 1, 1) = '0') AND length(text) <> length(CAST(text AS BLOB));
END;

-- trigger product_updated_search
CREATE TRIGGER product_updated_search AFTER UPDATE OF gtin14, name, brands ON product
    WHEN (substr(old.gtin14, 1, 1) = '0' AND EXISTS (SELECT 1 FROM capture WHERE gtin13 = substr(old.gtin14, 2))) OR (substr(new.gtin14, 1, 1) = '0' AND EXISTS (SELECT 1 FROM capture WHERE gtin13 = substr(new.gtin14, 2))) BEGIN
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(old.gtin14, 2) AND substr(old.gtin14, 1, 1) = '0');
    UPDATE capture_text SET text = (SELECT lower(c.set_name) || char(31) || coalesce(lower(c.barcode), '') || char(31)
    || coalesce(c.gtin13, '') || coalesce((
        SELECT char(31) || coalesce(lower(p.name), '') || char(31) || coalesce(lower(p.brands), '')
        FROM product p WHERE p.gtin14 = '0' || c.gtin13), '') || coalesce((
        SELECT char(31) || group_concat(lower(t.text), char(31)) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
        WHERE ph.capture_id = c.id AND t.text <> ''), '') FROM capture c WHERE c.id = capture_text.capture_id)
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(new.gtin14, 2) AND substr(new.gtin14, 1, 1) = '0');
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(old.gtin14, 2) AND substr(old.gtin14, 1, 1) = '0') AND length(text) <> length(CAST(text AS BLOB));
    UPDATE capture_text SET unfolded = 1
    WHERE capture_id IN (SELECT id FROM capture WHERE gtin13 = substr(new.gtin14, 2) AND substr(new.gtin14, 1, 1) = '0') AND length(text) <> length(CAST(text AS BLOB));
END;

