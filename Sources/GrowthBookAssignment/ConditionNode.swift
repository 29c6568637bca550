// The compiled form of a condition is a tree of immutable classes whose data sit in `let`
// fields rather than enum payloads: evaluation then borrows them instead of copying them
// (copying means reference counting on every visit).
//
// Evaluation results are `Bool?`: `nil` stands for a JavaScript exception (for example on
// `{"$or": null}`), which makes the whole condition fail.

/// Children owned by a node, walked in order.
struct ChildList<Child: AnyObject & Sendable>: Sendable {
    private let owned: [Child]

    init(_ children: [Child]) {
        owned = children
    }

    /// The children in order.
    var all: [Child] { owned }

    /// `body` applied to the first child, if there is one.
    @inline(__always)
    func first<Result>(_ body: (Child) -> Result) -> Result? {
        owned.first.map(body)
    }

    /// Whether `body` holds for every child, visiting them in order and stopping at the
    /// first that fails.
    @inline(__always)
    func allSatisfy(_ body: (Child) -> Bool) -> Bool {
        owned.allSatisfy(body)
    }

    /// `true` when `body` gives `true` for every child, `false` as soon as one gives `false`,
    /// and otherwise (some child faulted) `nil`: the order-independent conjunction.
    @inline(__always)
    func passAll(_ body: (Child) -> Bool?) -> Bool? {
        var faulted = false
        let passed = allSatisfy { child in
            guard let result = body(child) else {
                faulted = true
                return true
            }
            return result
        }
        if !passed { return false }
        return faulted ? nil : true
    }

    /// Whether `body` holds for some child, visiting them in order and stopping at the first.
    @inline(__always)
    func contains(where body: (Child) -> Bool) -> Bool {
        !allSatisfy { !body($0) }
    }
}

/// A compiled condition object: GrowthBook's `evalCondition(obj, condition)`.
final class ConditionNode: Sendable {
    enum Kind: Sendable {
        /// Always passes.
        case pass
        /// Always fails.
        case fail
        /// Evaluating this would throw in JavaScript.
        case fault
        /// `$and`: every child must pass, checked in order (a throw stops the check).
        case all
        /// The entries of a condition object: every one must pass. Object keys have no order
        /// here, so a failing entry decides even where another would throw, which keeps the
        /// result independent of dictionary order.
        case every
        /// `$or`: at least one child must pass.
        case any
        /// `$nor`: no child may pass.
        case none
        /// `$not` at condition level (one child).
        case not
        /// `path`'s value must satisfy `test`.
        case field
    }

    let kind: Kind
    let children: ChildList<ConditionNode>
    /// The attribute path of a `.field` node.
    let path: AttributePath
    /// The test of a `.field` node.
    let test: ValueMatcher?

    init(_ kind: Kind, children: [ConditionNode] = []) {
        self.kind = kind
        self.children = ChildList(children)
        path = AttributePath("")
        test = nil
    }

    init(path: AttributePath, test: ValueMatcher) {
        kind = .field
        children = ChildList([])
        self.path = path
        self.test = test
    }

    /// A node that always gives `result`.
    static func constant(_ result: Bool) -> ConditionNode {
        ConditionNode(result ? .pass : .fail)
    }

    /// Whether `tested` satisfies this node; `nil` where JavaScript would throw.
    func evaluate<Tested: TestedObject>(_ tested: Tested, groups: [String: AttributeValue]) -> Bool? {
        switch kind {
        case .pass:
            return true
        case .fail:
            return false
        case .fault:
            return nil
        case .field:
            return test?.evaluate(path.resolve(in: tested), groups: groups)
        case .all:
            var faulted = false
            let passed = children.allSatisfy { child in
                guard let result = child.evaluate(tested, groups: groups) else {
                    faulted = true
                    return false
                }
                return result
            }
            return faulted ? nil : passed
        case .every:
            return children.passAll { child in child.evaluate(tested, groups: groups) }
        case .any, .none:
            var faulted = false
            let found = children.contains { child in
                guard let result = child.evaluate(tested, groups: groups) else {
                    faulted = true
                    return true
                }
                return result
            }
            if faulted { return nil }
            return kind == .any ? found : !found
        case .not:
            let inner = children.first { child in child.evaluate(tested, groups: groups) }
            return (inner ?? nil).map { !$0 }
        }
    }
}

/// A dot-separated attribute path, split once.
struct AttributePath: Sendable {
    /// The first segment, looked up directly in the tested object.
    let head: AttributeKey
    /// The remaining segments (usually none).
    let tail: [String]

    init(_ path: String) {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        head = AttributeKey(parts.first ?? "")
        tail = Array(parts.dropFirst())
    }

    /// GrowthBook's `getPath`: the value at the path, or `null` when any step is missing.
    @inline(__always)
    func resolve<Tested: TestedObject>(in tested: Tested) -> AttributeValue {
        guard let first = tested.member(head) else { return .null }
        if tail.isEmpty { return first }
        var current = first
        for part in tail {
            guard let next = current.member(named: part) else { return .null }
            current = next
        }
        return current
    }
}

/// What a condition is evaluated against: a context's attribute index, a plain attributes
/// dictionary, or (inside `$elemMatch`) any value.
protocol TestedObject {
    /// JavaScript's `object[key]` where `key in object` holds; `nil` otherwise.
    func member(_ key: AttributeKey) -> AttributeValue?
}

extension AttributeIndex: TestedObject {
    @inline(__always)
    func member(_ key: AttributeKey) -> AttributeValue? {
        value(for: key)
    }
}

extension Dictionary: TestedObject where Key == String, Value == AttributeValue {
    @inline(__always)
    func member(_ key: AttributeKey) -> AttributeValue? {
        self[key.name]
    }
}

extension AttributeValue: TestedObject {
    func member(_ key: AttributeKey) -> AttributeValue? {
        member(named: key.name)
    }

    /// JavaScript's `object[key]` where `key in object` holds: object members, and for arrays
    /// their canonical indices and `length`.
    func member(named key: String) -> AttributeValue? {
        switch self {
        case .object(let members):
            return members[key]
        case .array(let elements):
            if key == "length" { return .number(Double(elements.count)) }
            guard let index = Self.canonicalIndex(key), index < elements.count else { return nil }
            return elements[index]
        default:
            return nil
        }
    }

    private static func canonicalIndex(_ key: String) -> Int? {
        let units = key.utf8
        guard let first = units.first, units.count <= 15 else { return nil }
        if first == UInt8(ascii: "0") { return units.count == 1 ? 0 : nil }
        var value = 0
        for unit in units {
            guard unit >= UInt8(ascii: "0"), unit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(unit - UInt8(ascii: "0"))
        }
        return value
    }
}
