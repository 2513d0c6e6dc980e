import GeoqSchedule

/// One value for each language, read without hashing (a request reads several of them).
struct ByLanguage<Value: Sendable>: Sendable {
    private let es: Value
    private let eu: Value
    private let en: Value

    init(_ make: (Language) -> Value) {
        es = make(.es)
        eu = make(.eu)
        en = make(.en)
    }

    subscript(language: Language) -> Value {
        switch language {
        case .es: es
        case .eu: eu
        case .en: en
        }
    }
}
