import Foundation

/// Reads a JSON data file into a `Decodable` value, turning `DecodingError` into the field path
/// and a sentence (`zones[1].lines[0].increment_minutes: expected a number`).
///
/// Shared by the calendar and tariff files so that every data error reads the same way.
public enum DataFileDecoding {
    public struct Problem: Error, Hashable, Sendable {
        public var path: String
        public var message: String
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(Problem) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch let error as Problem {
            throw error
        } catch {
            throw Problem(path: "(file)", message: "\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> Problem {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return Problem(path: path(context.codingPath), message: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return Problem(path: path(context.codingPath), message: "missing \(describe(type))")
        case .keyNotFound(let key, let context):
            return Problem(path: path(context.codingPath + [key]), message: "required field is missing")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? Problem)?.message
            let message = underlying ?? context.debugDescription
            return Problem(
                path: path(context.codingPath),
                message: message.contains("JSON") || underlying != nil ? message : "not valid JSON: \(message)")
        @unknown default:
            return Problem(path: "(file)", message: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".lowercased().contains("array") ? "a list" : "an object"
        }
    }
}
