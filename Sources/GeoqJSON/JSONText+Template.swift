extension JSONText {
    /// JSON text written once with holes where numbers go, then filled for each use: an answer
    /// that repeats word for word from one request to the next, except for a few numbers (a
    /// point, its distances), is copied from its template and only the numbers are written.
    public struct Template: Sendable {
        /// The text without its numbers, UTF-8.
        public let bytes: [UInt8]
        /// Where each number goes in ``bytes``, in order.
        public let holes: [Int]

        /// The whole of `text`, whose ``JSONText/hole()`` calls gave `holes`.
        public init(_ text: JSONText, holes: [Int]) {
            precondition(
                zip(holes, holes.dropFirst()).allSatisfy { $0 <= $1 } && (holes.last ?? 0) <= text.storage.count)
            // A copy of exactly the text's size: a template is kept, the writer's buffer was
            // reserved for any answer.
            bytes = Array(text.storage[...])
            self.holes = holes
        }

        /// The text with `numbers` in its holes, in order, each written as ``JSONText/number(_:)``
        /// writes it (so the result is the text written at once with those numbers).
        /// - Precondition: as many numbers as holes.
        public func filled(_ numbers: [Double], reservingCapacity extra: Int = 96) -> [UInt8] {
            precondition(numbers.count == holes.count, "one number for each hole")
            var text = JSONText(reservingCapacity: bytes.count + extra)
            var start = 0
            for (hole, number) in zip(holes, numbers) {
                text.storage.append(contentsOf: bytes[start..<hole])
                // A hole is always a value's place after its key or its comma.
                text.needsComma = false
                text.number(number)
                start = hole
            }
            text.storage.append(contentsOf: bytes[start...])
            return text.storage
        }

        /// The same text as ``filled(_:reservingCapacity:)``, handed to `append` piece by piece
        /// (for a buffer that is not an array, without making the array first).
        public func write(_ numbers: [Double], to append: (UnsafeRawBufferPointer) -> Void) {
            precondition(numbers.count == holes.count, "one number for each hole")
            bytes.withUnsafeBytes { text in
                var start = 0
                for (hole, number) in zip(holes, numbers) {
                    append(UnsafeRawBufferPointer(rebasing: text[start..<hole]))
                    JSONText.withNumberText(number, append)
                    start = hole
                }
                append(UnsafeRawBufferPointer(rebasing: text[start...]))
            }
        }

        /// The most bytes the text takes with its numbers.
        public var maximumCount: Int { bytes.count + 32 * holes.count }
    }

    /// The text ``number(_:)`` writes for `value`, handed to `body` (without making an array).
    static func withNumberText(_ value: Double, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard value.isFinite else {
            let null: StaticString = "null"
            body(UnsafeRawBufferPointer(start: null.utf8Start, count: null.utf8CodeUnitCount))
            return
        }
        var text = value.description
        text.withUTF8 { bytes in
            let count = bytes.count
            // A whole number without its ".0", as number(_:) writes it.
            let whole = count >= 2 && bytes[count - 1] == UInt8(ascii: "0") && bytes[count - 2] == UInt8(ascii: ".")
            body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<(whole ? count - 2 : count)])))
        }
    }

    /// Leaves the place of one number empty, as if it had been written (the comma before it
    /// included), for a ``Template``; returns where the number goes.
    public mutating func hole() -> Int {
        startValue()
        needsComma = true
        return storage.count
    }
}
