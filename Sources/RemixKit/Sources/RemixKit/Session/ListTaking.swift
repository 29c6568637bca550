extension Array {
    /// Empties the array and returns what it held, its storage with it.
    ///
    /// RemixKit changes the lists its objects keep in a copy taken out of the object and put back
    /// (`var list = views.taken(); list.append(view); views = list`), rather than in place: then
    /// no access to a list can overlap another (an element released while the list changes could
    /// otherwise run code that reads it), the compiler proves it, and the list's exclusive access
    /// is checked when the module is compiled instead of at every access at run time.
    mutating func taken() -> [Element] {
        var taken: [Element] = []
        swap(&taken, &self)
        return taken
    }
}
