import Foundation
import GeoqLayers
import GeoqQuery
import GeoqSchedule
import GeoqTestSupport
import Testing

/// An approximate layer's note in the answer's language: both catalog spellings, the
/// repository's translations, and the note of a layer read back from the store.
@Suite struct ApproximationNoteTests {
    func catalog(approximate: String) throws -> URL {
        try writeTemporary(
            "layers.json",
            #"{"layers": [{"name": "x", "title": "X", "source": "a.json", "approximate": \#(approximate)}]}"#)
    }

    func note(_ approximate: String) throws -> ApproximationNote? {
        let file = try catalog(approximate: approximate)
        return try LayerCatalog.load(from: file, dataDirectory: file.deletingLastPathComponent()).layers[0].approximate
    }

    @Test func aPlainStringIsTheEnglishNoteForEveryLanguage() throws {
        let plain = try #require(try note(#""Roughly the old town.""#))
        #expect(plain == ApproximationNote(en: "Roughly the old town."))
        #expect(Language.allCases.map { plain[$0] } == Array(repeating: "Roughly the old town.", count: 3))
        // Written back the way it was read.
        #expect(String(decoding: try JSONEncoder().encode(plain), as: UTF8.self) == #""Roughly the old town.""#)
    }

    @Test func anObjectGivesEachLanguage() throws {
        let note = try #require(try note(#"{"en": "Roughly.", "es": "Aproximadamente.", "eu": "Gutxi gorabehera."}"#))
        #expect(note[.en] == "Roughly." && note[.es] == "Aproximadamente." && note[.eu] == "Gutxi gorabehera.")
        let reread = try JSONDecoder().decode(ApproximationNote.self, from: JSONEncoder().encode(note))
        #expect(reread == note)
        // A missing translation falls back to English.
        let partial = try #require(try self.note(#"{"en": "Roughly.", "es": "Aproximadamente."}"#))
        #expect(partial[.eu] == "Roughly.")
    }

    @Test func malformedNotesNameTheField() throws {
        for (approximate, expected) in [
            (#"{"es": "Aproximadamente."}"#, "layers[0].approximate: missing field 'en'"),
            ("3", #"layers[0].approximate: expected a string (the English note) or an object {"en", "es", "eu"}"#),
        ] {
            let file = try catalog(approximate: approximate)
            #expect(throws: LayerError.catalogMalformed(path: file.path, reason: expected)) {
                try LayerCatalog.load(from: file, dataDirectory: file.deletingLastPathComponent())
            }
        }
    }

    @Test func theRepositoryNoteIsTranslated() throws {
        let note = try #require(try sharedCatalog().spec(named: LayerCatalog.defaultLayerName).approximate)
        let es = try #require(note.es), eu = try #require(note.eu)
        #expect(Set([note.en, es, eu]).count == 3)
        // Names that are not translated stay the same in every language.
        for text in [note.en, es, eu] { #expect(text.contains("SEGU_Pol_EsRegSector"), "\(text)") }
    }

    /// The store keeps the English note; a stored layer gets the catalog's translations only
    /// when the catalog's English note is the stored one.
    @Test func aStoredLayerTakesTheTranslationsOfTheSameNote() throws {
        let directory = try temporaryDirectory()
        let store = directory.appendingPathComponent("store.gpkg")
        let shared = try sharedCatalog()
        let spec = try shared.spec(named: LayerCatalog.defaultLayerName)
        _ = try LayerImporter().importLayer(spec, from: shared.sourceURL(of: spec), into: store)
        func stored(catalog: URL) throws -> ApproximationNote? {
            let library = try LayerLibrary(
                locations: DataLocations(catalogFile: catalog, dataDirectory: TestData.directory, storeFile: store))
            let layer = try library.layer(named: spec.name)
            #expect(layer.source.hasPrefix(store.path))
            return layer.approximation
        }
        #expect(try stored(catalog: shared.file) == spec.approximate)
        // A catalog whose note has changed since the import: the stored English only.
        var changed = spec
        changed.approximate = ApproximationNote(en: "Another note.", es: "Otra nota.", eu: "Beste ohar bat.")
        let file = directory.appendingPathComponent("layers.json")
        struct Document: Encodable { var layers: [LayerSpec] }
        try JSONEncoder().encode(Document(layers: [changed])).write(to: file)
        #expect(try stored(catalog: file) == ApproximationNote(en: spec.approximate!.en))
    }
}
