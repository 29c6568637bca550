/// A string compared and hashed by its code units, like a JavaScript string (Swift's own
/// `String` equality treats canonically equivalent texts as equal).
struct CodeUnitText: Hashable, Sendable {
    let text: String

    static func == (left: CodeUnitText, right: CodeUnitText) -> Bool {
        JavaScript.sameCodeUnits(left.text, right.text)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = unsafe text.utf8.withContiguousStorageIfAvailable { bytes in
            unsafe hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
        hasher.combine(text.utf8.count)
    }
}

/// The operand of `$in`, `$nin`, `$ini` or `$nini`, indexed for constant-time lookups with
/// JavaScript's `Array.prototype.includes` semantics (SameValueZero; arrays and objects in
/// the operand never match, being distinct objects).
struct MembershipList: Sendable {
    private let texts: Set<CodeUnitText>
    private let numbers: Set<Double>
    private let hasNaN: Bool
    private let hasNull: Bool
    private let hasTrue: Bool
    private let hasFalse: Bool
    private let caseInsensitive: Bool

    init(_ elements: [AttributeValue], caseInsensitive: Bool) {
        var texts = Set<CodeUnitText>()
        var numbers = Set<Double>()
        var hasNaN = false, hasNull = false, hasTrue = false, hasFalse = false
        for element in elements {
            switch element {
            case .string(let text):
                texts.insert(CodeUnitText(text: caseInsensitive ? text.lowercased() : text))
            case .number(let value):
                if value.isNaN { hasNaN = true } else { numbers.insert(value) }
            case .null: hasNull = true
            case .bool(let flag):
                if flag { hasTrue = true } else { hasFalse = true }
            case .array, .object:
                continue
            }
        }
        self.texts = texts
        self.numbers = numbers
        self.hasNaN = hasNaN
        self.hasNull = hasNull
        self.hasTrue = hasTrue
        self.hasFalse = hasFalse
        self.caseInsensitive = caseInsensitive
    }

    /// GrowthBook's `isIn`: for an array attribute, whether any element is listed; otherwise
    /// whether the attribute itself is.
    func matches(_ actual: AttributeValue) -> Bool {
        if case .array(let elements) = actual {
            return elements.contains(where: contains)
        }
        return contains(actual)
    }

    private func contains(_ value: AttributeValue) -> Bool {
        switch value {
        case .string(let text):
            return texts.contains(CodeUnitText(text: caseInsensitive ? text.lowercased() : text))
        case .number(let number):
            return number.isNaN ? hasNaN : numbers.contains(number)
        case .null: return hasNull
        case .bool(let flag): return flag ? hasTrue : hasFalse
        case .array, .object: return false
        }
    }
}

extension AttributeValue {
    /// JavaScript's SameValueZero, as `Array.prototype.includes` uses it.
    func isSameValueZero(_ other: AttributeValue) -> Bool {
        if case .number(let a) = self, case .number(let b) = other, a.isNaN, b.isNaN {
            return true
        }
        return isStrictlyEqual(to: other)
    }
}
