import GeoqFormats
import Testing

/// The quick reading of a flat object hands over the members with their bytes, and declines
/// (for the general parser to read) whatever it does not read exactly as that one does.
@Suite struct JSONFlatMembersTests {
    /// The members read, as text; nil when declined.
    func flat(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes in
            var members: [String] = []
            let read = JSONParser.parseFlatMembers(bytes) { name, value in
                let shown =
                    switch value {
                    case .string(let bytes): "\"" + String(decoding: bytes, as: UTF8.self) + "\""
                    case .number(let n): "\(n)"
                    case .null: "null"
                    case .other: "other"
                    }
                members.append(String(decoding: name, as: UTF8.self) + "=" + shown)
            }
            return read ? members : nil
        }
    }

    @Test func aFixLineIsReadWithItsMembersInOrder() {
        #expect(
            flat(
                #" {"device":"car-1", "time" : "2026-11-23T10:00:00Z","lat":42.81,"lon":-1.64e0,"x":[1,{"y":true}],"a":null} "#
            )
                == [
                    #"device="car-1""#, #"time="2026-11-23T10:00:00Z""#, "lat=42.81", "lon=-1.64", "x=other", "a=null",
                ])
        #expect(flat("{}") == [])
        #expect(flat(#"{"device":"ünï"}"#) == [#"device="ünï""#])
    }

    @Test func escapesAndBrokenSyntaxAreLeftToTheGeneralParser() {
        for text in [
            #"{"device":"a\"b"}"#, #"{"dev\u0069ce":"a"}"#, "{\"device\":\"a\tb\"}", "\u{FEFF}{\"a\":1}", #"{"a":1,}"#,
            #"{"a":01}"#, #"{"a":1} x"#, #"{"a" 1}"#, #"[{"a":1}]"#, #"{"a":tru}"#, #"{"a":1"#, "",
        ] {
            #expect(flat(text) == nil, "\(text)")
        }
    }
}
