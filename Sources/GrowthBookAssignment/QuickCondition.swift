import RemixFormats

/// The quickest form of a ``FlatCondition`` whose every field has one test, text equality (or
/// inequality) with at most 16 bytes or the order of simple versions, on a name of at most 16
/// bytes: `{"platform": "tablet", "appVersion": {"$vgte": "2.0"}}`.
///
/// Each field is one trivially copyable record, and a version test compares the context's
/// packed version keys with the operand's in a few word operations. It decides only when every
/// attribute it reads is an ASCII string (a simple version for a version test); otherwise the
/// flat condition decides as before.
struct QuickCondition: Sendable {
    /// One field's test.
    struct Field: Sendable {
        let name: HashedName
        let isVersion: Bool
        /// For a text test: the expected text, and whether the test is `$ne`.
        let expected: ShortBytes
        let negated: Bool
        /// For a version test: the operand's keys (``SimpleVersion/packedKeys(_:)``), and the
        /// orderings that pass (bit `ordering + 1`).
        let operand: UInt64
        let passingOrders: UInt8

        /// A text equality test (`$ne` when `negated`); `nil` past 16 bytes.
        init?(name: HashedName, text: ShortBytes, negated: Bool) {
            guard name.bytes.count <= 16, text.count <= 16 else { return nil }
            self.name = name
            isVersion = false
            expected = text
            self.negated = negated
            operand = 0
            passingOrders = 0
        }

        /// A version order test against an operand of simple version `keys`; `nil` past four parts.
        init?(name: HashedName, keys: [UInt32], comparison: PaddedVersion.Comparison) {
            guard name.bytes.count <= 16, (1...4).contains(keys.count) else { return nil }
            self.name = name
            isVersion = true
            expected = ShortBytes(low: 0, high: 0, count: 0)
            negated = false
            operand = keys.enumerated().reduce(0) { $0 | UInt64($1.element) << (16 * UInt64($1.offset)) }
            passingOrders = (-1...1).reduce(0) { comparison.holds(ordering: $1) ? $0 | 1 << ($1 + 1) : $0 }
        }
    }

    private let fields: [Field]

    init(_ fields: [Field]) {
        self.fields = fields
    }

    /// What the condition gives on `index`: 0 when it fails, 1 when it passes, 2 when an attribute
    /// is missing or not what the quick tests read (the flat condition decides then).
    @inline(__always)
    func evaluate(_ index: AttributeIndex) -> UInt8 {
        unsafe fields.withUnsafeBufferPointer { fields in
            var outcome: UInt8 = 1
            for unsafe field in unsafe fields {
                let entry = index.entry(for: field.name)
                guard entry >= 0, let text = index.shortText(at: entry) else {
                    outcome = 2
                    continue
                }
                if field.isVersion {
                    let packed = index.versionKeys(at: entry)
                    guard packed != 0 else {
                        outcome = 2
                        continue
                    }
                    let ordering = SimpleVersion.order(packed: packed, packedOperand: field.operand)
                    if field.passingOrders >> UInt8(ordering + 1) & 1 == 0 { return 0 }
                } else if text.prefixMatches(field.expected) == field.negated {
                    // The expected text has at most 16 bytes, so a longer text differs in length.
                    return 0
                }
            }
            return outcome
        }
    }
}

extension SimpleVersion {
    /// ``order(_:_:)`` of two simple versions of at most four parts from their packed keys
    /// (``packedKeys(_:)``): the first part in which they differ decides, and when one has fewer
    /// parts, what follows the shorter one does.
    @inline(__always)
    static func order(packed: UInt64, packedOperand operand: UInt64) -> Int {
        let difference = packed ^ operand
        if difference == 0 { return 0 }
        let shift = UInt64(difference.trailingZeroBitCount & ~15)
        let key = packed >> shift & 0xFFFF
        let operandKey = operand >> shift & 0xFFFF
        if key != 0, operandKey != 0 { return key < operandKey ? -1 : 1 }
        // One of them ends after `shift / 16` equal parts: three parts pad to a `-~` that
        // sorts after any fourth part.
        let equalParts = shift / 16
        if key == 0 { return equalParts == 3 ? 1 : -1 }
        return equalParts == 3 ? -1 : 1
    }
}
