extension Array {
    /// `count` copies of `value`, as `Array(repeating:count:)` makes them, but allocated through
    /// the growth path the compiler specializes for `Element`. `Array(repeating:count:)` allocates
    /// through a standard-library entry that is never specialized, so every call looks up the
    /// storage class's metadata in the runtime's tables (about 700 instructions, more than filling
    /// a few dozen elements): it mattered for arrays built once per simulated session.
    @inlinable
    package init(filledWith value: Element, count: Int) {
        self.init()
        append(contentsOf: repeatElement(value, count: count))
    }
}
