import RemixFormats

/// A fast form of the commonest conditions — an object of top-level attributes tested for text
/// equality, `$eq`/`$ne`, `$exists` or version order — evaluated against a context's index.
///
/// When an attribute is an ASCII string (the usual case) its test runs on the index's bytes
/// with trivially copyable data, no class dispatch and no reference counting; any other value
/// goes to the field's compiled `ValueMatcher`, so results are those of the `ConditionNode` tree.
final class FlatCondition: Sendable {
    /// A test on an ASCII string attribute. Trivially copyable.
    private struct Test: Sendable {
        enum Kind: UInt8, Sendable {
            /// Whether the bytes equal `expected` (`!=` when `flag`); bytes past 16 are
            /// `texts[start...]`.
            case text
            /// The padded version order against `units[start ..< start + count]`, with the
            /// operand's `SimpleVersion` keys at `versionKeys[keyStart ..< keyStart + keyCount]`
            /// (`keyCount < 0` when it has none).
            case version
            /// `flag`, whatever the string.
            case constant
        }

        let kind: Kind
        let flag: Bool
        let comparison: PaddedVersion.Comparison
        let expected: ShortBytes
        let start: Int32
        let count: Int32
        let keyStart: Int32
        let keyCount: Int32

        init(_ kind: Kind, flag: Bool = false, comparison: PaddedVersion.Comparison = .equal,
             expected: ShortBytes = ShortBytes([]), start: Int = 0, count: Int = 0,
             keyStart: Int = 0, keyCount: Int = -1) {
            self.kind = kind
            self.flag = flag
            self.comparison = comparison
            self.expected = expected
            self.start = Int32(truncatingIfNeeded: start)
            self.count = Int32(truncatingIfNeeded: count)
            self.keyStart = Int32(truncatingIfNeeded: keyStart)
            self.keyCount = Int32(truncatingIfNeeded: keyCount)
        }
    }

    /// One attribute's tests: `tests[testStart ..< testEnd]`, all of which must pass.
    private struct Field: Sendable {
        let name: HashedName
        let testStart: Int
        let testEnd: Int
    }

    private let fields: [Field]
    private let keys: [AttributeKey]
    private let fallbacks: [ValueMatcher]
    private let tests: [Test]
    private let texts: [UInt8]
    private let units: [UInt16]
    private let versionKeys: [UInt32]
    /// The quick form, when every field has one test it takes.
    private let quick: QuickCondition?

    /// The fast form of `root`, or `nil` when some part of it has none.
    init?(_ root: ConditionNode) {
        let nodes: [ConditionNode]
        switch root.kind {
        case .field: nodes = [root]
        case .every: nodes = root.children.all
        default: return nil
        }
        var fields: [(field: Field, key: AttributeKey, fallback: ValueMatcher, versions: Bool, quick: QuickCondition.Field?)] = []
        var tests: [Test] = []
        var texts: [UInt8] = []
        var units: [UInt16] = []
        var versionKeys: [UInt32] = []
        func addText(_ text: String, negated: Bool) {
            tests.append(Test(.text, flag: negated, expected: ShortBytes(text.utf8), start: texts.count))
            texts.append(contentsOf: text.utf8)
        }
        for node in nodes {
            guard node.kind == .field, node.path.tail.isEmpty, let test = node.test else { return nil }
            let testStart = tests.count
            let name = node.path.head.hashed
            var versions = false
            var quick: QuickCondition.Field?
            if let equality = test as? TextEquality {
                addText(equality.text, negated: false)
                quick = QuickCondition.Field(name: name, text: ShortBytes(equality.text.utf8), negated: false)
            } else if let conjunction = test as? OperatorConjunction {
                quick = Self.quickField(name: name, conjunction)
                for item in conjunction.operators {
                    if let version = item as? VersionOperator {
                        let simple = SimpleVersion.keys(ofPadded: version.expected)
                        tests.append(Test(.version, comparison: version.comparison, start: units.count,
                                          count: version.expected.count, keyStart: versionKeys.count,
                                          keyCount: simple?.count ?? -1))
                        units.append(contentsOf: version.expected)
                        versionKeys.append(contentsOf: simple ?? [])
                        versions = true
                    } else if let equality = item as? StrictEqualityOperator {
                        guard case .string(let text) = equality.operand else {
                            tests.append(Test(.constant, flag: equality.negated))
                            continue
                        }
                        addText(text, negated: equality.negated)
                    } else if let exists = item as? ExistsOperator {
                        tests.append(Test(.constant, flag: exists.wanted))
                    } else {
                        return nil
                    }
                }
            } else {
                return nil
            }
            // Offsets are stored as `Int32`.
            guard texts.count < Int32.max, units.count < Int32.max, versionKeys.count < Int32.max else {
                return nil
            }
            let field = Field(name: name, testStart: testStart, testEnd: tests.count)
            fields.append((field, node.path.head, test, versions, quick))
        }
        // A failing field decides whatever the others give (even a throw), so the order of the
        // fields does not matter: the cheap ones go first.
        let ordered = fields.filter { !$0.versions } + fields.filter(\.versions)
        self.fields = ordered.map(\.field)
        keys = ordered.map(\.key)
        fallbacks = ordered.map(\.fallback)
        self.tests = tests
        self.texts = texts
        self.units = units
        self.versionKeys = versionKeys
        let quickFields = ordered.compactMap(\.quick)
        quick = quickFields.count == ordered.count ? QuickCondition(quickFields) : nil
    }

    /// The quick form of a field's single operator, when it has one.
    private static func quickField(name: HashedName, _ conjunction: OperatorConjunction) -> QuickCondition.Field? {
        guard conjunction.operators.count == 1 else { return nil }
        let item = conjunction.operators[0]
        if let version = item as? VersionOperator, let keys = SimpleVersion.keys(ofPadded: version.expected) {
            return QuickCondition.Field(name: name, keys: keys, comparison: version.comparison)
        }
        if let equality = item as? StrictEqualityOperator, case .string(let text) = equality.operand {
            return QuickCondition.Field(name: name, text: ShortBytes(text.utf8), negated: equality.negated)
        }
        return nil
    }

    /// Same as the tree's `evaluate` on `index`: `nil` where JavaScript would throw.
    @inline(__always)
    func evaluate(_ index: AttributeIndex, groups: [String: AttributeValue]) -> Bool? {
        if let quick {
            switch quick.evaluate(index) {
            case 0: return false
            case 1: return true
            default: break
            }
        }
        var faulted = false
        for number in fields.indices {
            let field = unsafe fields.withUnsafeBufferPointer { unsafe $0[number] }
            let entry = field.name.bytes.count > 16 ? index.entry(for: keys[number]) : index.entry(for: field.name)
            if entry >= 0, let text = index.shortText(at: entry) {
                switch passes(field, text: text, entry: entry, index: index) {
                case 0: return false
                case 1: continue
                default: break
                }
            }
            let value = entry < 0 ? AttributeValue.null : index.value(at: entry)
            guard let passed = fallbacks[number].evaluate(value, groups: groups) else {
                faulted = true
                continue
            }
            if !passed { return false }
        }
        return faulted ? nil : true
    }

    /// Whether entry `entry`, an ASCII string starting with `text`, passes every test of
    /// `field`: 1 when it does, 0 when it does not, 2 when the fallback must decide.
    @inline(__always)
    private func passes(_ field: Field, text: ShortBytes, entry: Int, index: AttributeIndex) -> UInt8 {
        unsafe tests.withUnsafeBufferPointer { tests in
            for number in field.testStart..<field.testEnd {
                let test = unsafe tests[number]
                switch test.kind {
                case .text:
                    var equal = text.prefixMatches(test.expected)
                    if equal, text.count > 16 {
                        equal = sameTail(entry: entry, text, index: index, start: Int(test.start))
                    }
                    if equal == test.flag { return 0 }
                case .version:
                    // An empty string reads as "0"; the fallback handles it.
                    if text.count == 0 { return 2 }
                    if !test.comparison.holds(ordering: versionOrder(text, entry: entry, index: index, test)) {
                        return 0
                    }
                case .constant:
                    if !test.flag { return 0 }
                }
            }
            return 1
        }
    }

    /// Whether entry `entry`'s bytes past 16 equal `texts[start + 16 ...]`.
    @inline(never)
    private func sameTail(entry: Int, _ text: ShortBytes, index: AttributeIndex, start: Int) -> Bool {
        unsafe index.withASCIIText(at: entry, text) { bytes in
            unsafe texts.withUnsafeBufferPointer { all in
                (16..<bytes.count).allSatisfy { unsafe bytes[$0] == all[start + $0] }
            }
        }
    }

    /// `PaddedVersion.compare` of entry `entry` (an ASCII string starting with `text`) with a
    /// version test's operand, through `SimpleVersion` when both sides are simple.
    @inline(__always)
    private func versionOrder(_ text: ShortBytes, entry: Int, index: AttributeIndex, _ test: Test) -> Int {
        if test.keyCount >= 0 {
            // The attribute's keys, prepared with the context's index when it is a short simple
            // version; else its text read here.
            let packed = index.versionKeys(at: entry)
            if let ordering = unsafe versionKeys.withUnsafeBufferPointer({ all -> Int? in
                let keys = unsafe UnsafeBufferPointer(rebasing: all[Int(test.keyStart)..<Int(test.keyStart + test.keyCount)])
                if packed != 0 { return unsafe SimpleVersion.order(packed: packed, keys) }
                return unsafe text.count <= 16 ? SimpleVersion.order(text, keys) : nil
            }) {
                return ordering
            }
        }
        return paddedOrder(text, entry: entry, index: index, start: Int(test.start), count: Int(test.count))
    }

    @inline(never)
    private func paddedOrder(_ text: ShortBytes, entry: Int, index: AttributeIndex, start: Int, count: Int) -> Int {
        unsafe index.withASCIIText(at: entry, text) { bytes in
            unsafe units.withUnsafeBufferPointer { all in
                unsafe PaddedVersion.compare(ascii: bytes, to: UnsafeBufferPointer(rebasing: all[start..<start + count]))
            }
        }
    }
}
