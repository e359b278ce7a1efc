// Migration `v11-text`: the words read on each photo (Tesseract, after the photo's set was
// committed). `photo_text` says whether a photo was read and how: `read`, or `given-up` with the
// reason (a photo over `textSeconds`, a reader failure), so that a photo is never read again and
// again; `languages` are those it was read in (`ingest text --redo` reads photos read in others);
// `text` is its words in reading order, lines apart, which the search index holds; `headline` its
// most prominent line(s), a capture's name from the package; `nutrition` the nutrition table read
// on it (`LabelNutrition` as JSON), where it has one. `photo_word`
// has each word with its box, as fractions of the upright photo, and Tesseract's confidence.
// Both go with their photo (`ON DELETE CASCADE`); the text is derived, and a photo without it is
// simply read again.

enum TextSchema {
    /// SQLite's tables.
    static let sqlite = """
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

        """

    /// PostgreSQL's tables, in its types.
    static let postgres = """
        CREATE TABLE photo_text (
            photo_id TEXT COLLATE "C" NOT NULL PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
            state TEXT COLLATE "C" NOT NULL CHECK (state IN ('read', 'given-up')),
            reason TEXT COLLATE "C",
            languages TEXT COLLATE "C" NOT NULL,
            quarter_turns BIGINT NOT NULL CHECK (quarter_turns BETWEEN 0 AND 3),
            text TEXT COLLATE "C" NOT NULL,
            headline TEXT COLLATE "C",
            nutrition TEXT COLLATE "C",
            seconds DOUBLE PRECISION NOT NULL CHECK (seconds >= 0),
            read_at TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE photo_word (
            photo_id TEXT COLLATE "C" NOT NULL REFERENCES photo_text(photo_id) ON DELETE CASCADE,
            position BIGINT NOT NULL CHECK (position >= 0),
            text TEXT COLLATE "C" NOT NULL,
            line BIGINT NOT NULL CHECK (line >= 0),
            block BIGINT NOT NULL CHECK (block >= 0),
            x DOUBLE PRECISION NOT NULL,
            y DOUBLE PRECISION NOT NULL,
            width DOUBLE PRECISION NOT NULL,
            height DOUBLE PRECISION NOT NULL,
            confidence DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN 0 AND 100),
            PRIMARY KEY (photo_id, position)
        );

        """

    /// Migration `v12-label-check`: the photos that hold a nutrition table, which the review queue
    /// compares with their product's data ("label and database disagree"): a few of the photos
    /// read, so the queue reads those, not every photo's text. The same SQL on both backends.
    static let nutritionIndex = """
        CREATE INDEX photo_text_with_nutrition ON photo_text(photo_id) WHERE nutrition IS NOT NULL;

        """
}
