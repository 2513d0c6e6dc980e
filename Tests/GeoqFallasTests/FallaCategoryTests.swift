import GeoqFallas
import Testing

@Suite struct FallaCategoryTests {
    /// SPEC §2: E = Especial, 1A = Primera A, …, IE = Infantil Especial, FC = out of competition.
    @Test(arguments: [
        ("E", false, "Especial"), ("1A", false, "Primera A"), ("1B", false, "Primera B"), ("2A", false, "Segunda A"),
        ("8C", false, "Octava C"), ("FC", false, "Fuera de concurso"), ("IE", true, "Infantil Especial"),
        ("1", true, "Infantil Primera"), ("22", true, "Infantil Vigesimosegunda"), ("FC", true, "Fuera de concurso"),
        (" 5c ", false, "Quinta C"),
    ])
    func words(code: String, infantil: Bool, expected: String) {
        #expect(FallaCategory(code: code, infantil: infantil).words == expected)
    }

    /// Competition order: Especial, Primera A, Primera B, Segunda A, …, Octava C, then FC.
    @Test func competitionOrder() {
        let shuffled = ["FC", "2A", "1B", "E", "8C", "1A", "3C", "10A"].map { FallaCategory(code: $0) }
        #expect(shuffled.sorted().map(\.code) == ["E", "1A", "1B", "2A", "3C", "8C", "10A", "FC"])
        let children = ["FC", "12", "IE", "2", "1"].map { FallaCategory(code: $0, infantil: true) }
        #expect(children.sorted().map(\.code) == ["IE", "1", "2", "12", "FC"])
    }

    @Test func unknownCodesKeepTheirTextBeforeFC() {
        let odd = FallaCategory(code: "Experimental")
        #expect(odd.words == "Experimental")
        #expect(odd > FallaCategory(code: "8C") && odd < FallaCategory(code: "FC"))
    }

    @Test func filtersAndPins() {
        let e = FallaCategory(code: "E")
        #expect(e.matches("Especial") && e.matches("especial") && e.matches("E") && !e.matches("Primera A"))
        #expect(FallaCategory(code: "1A").matches("primera a"))
        #expect(e.pinColour() == "red" && FallaCategory(code: "1A").pinColour() == "green")
        #expect(
            FallaCategory(code: "3B").pinColour() == "default"
                && FallaCategory(code: "FC").pinColour(isMunicipal: true) == "purple")
    }
}
