/// The SQL of the layer tables in a schema `S`: `S.geoq_layers` (one row per layer), the sequence
/// `S.geoq_version`, the function `S.geoq_layer_changed(name)` and the trigger function every
/// layer table calls after each statement that changes it.
///
/// `geoq_layer_changed` is the one place a change is announced: it recomputes the layer's
/// feature count and extent, takes the next version into its row and sends the version on the
/// channel `<S>_changes` (delivered when the transaction commits). geoq's own writes set
/// `geoq.bulk_write` for their transaction so that the trigger stays quiet and they call it once.
enum LayerTablesSQL {
    /// `name` quoted as a PostgreSQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `name` as a string literal (for names written into function bodies).
    static func literal(_ name: String) -> String {
        "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The statements that create the tables and functions of schema `schema` (a plain
    /// identifier), each idempotent.
    static func setup(schema s: String, channel: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(s).geoq_layers (
              name text PRIMARY KEY,
              title text NOT NULL,
              geometry_type text NOT NULL,
              feature_count bigint NOT NULL DEFAULT 0,
              min_x double precision, min_y double precision, max_x double precision, max_y double precision,
              source text NOT NULL DEFAULT '',
              source_crs text NOT NULL DEFAULT '',
              imported_at text NOT NULL,
              approximate text,
              notes jsonb NOT NULL DEFAULT '[]'::jsonb,
              version bigint NOT NULL DEFAULT 0)
            """,
            "CREATE SEQUENCE IF NOT EXISTS \(s).geoq_version",
            """
            CREATE OR REPLACE FUNCTION \(s).geoq_layer_changed(layer text) RETURNS bigint
            LANGUAGE plpgsql AS $geoq$
            DECLARE
              v bigint;
              n bigint;
              box box2d;
            BEGIN
              IF NOT EXISTS (SELECT 1 FROM \(s).geoq_layers WHERE name = layer) THEN
                RAISE EXCEPTION 'geoq: no layer % in \(s).geoq_layers', layer;
              END IF;
              EXECUTE format('SELECT count(*), ST_Extent(geom) FROM %I.%I', \(literal(s)), layer) INTO n, box;
              v := nextval('\(s).geoq_version');
              UPDATE \(s).geoq_layers
                 SET version = v, feature_count = n,
                     min_x = ST_XMin(box), min_y = ST_YMin(box), max_x = ST_XMax(box), max_y = ST_YMax(box)
               WHERE name = layer;
              PERFORM pg_notify(\(literal(channel)), v::text);
              RETURN v;
            END
            $geoq$
            """,
            """
            CREATE OR REPLACE FUNCTION \(s).geoq_layer_table_changed() RETURNS trigger
            LANGUAGE plpgsql AS $geoq$
            BEGIN
              IF coalesce(current_setting('geoq.bulk_write', true), '') <> 'on' THEN
                PERFORM \(s).geoq_layer_changed(TG_TABLE_NAME);
              END IF;
              RETURN NULL;
            END
            $geoq$
            """,
        ]
    }

    /// The statement-level trigger that announces any change of layer table `table`.
    static func trigger(schema s: String, table: String) -> String {
        """
        CREATE TRIGGER geoq_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(s).\(quoted(table))
        FOR EACH STATEMENT EXECUTE FUNCTION \(s).geoq_layer_table_changed()
        """
    }
}
