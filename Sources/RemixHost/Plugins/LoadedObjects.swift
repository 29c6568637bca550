import RemixSystem

/// Which loaded shared object (or executable) holds an address, as `dladdr` tells.
///
/// Memory safety: `address` is only handed to `dladdr`, never read; the file name it gives points
/// into the dynamic loader's own tables and is copied into a `String` at once.
package enum LoadedObjects {
    /// The file of the loaded object whose image contains `address`, if any.
    package static func file(containing address: UnsafeRawPointer) -> String? {
        #if canImport(Darwin)
        var info = Dl_info()
        guard unsafe dladdr(address, &info) != 0, let name = unsafe info.dli_fname else { return nil }
        return unsafe String(cString: name)
        #else
        // Glibc's module map hides dladdr (it needs _GNU_SOURCE), so it is looked up at run time.
        // Its Dl_info is four pointers: file name, base, symbol name, symbol address.
        guard let dladdr = unsafe lookUpDladdr else { return nil }
        var info: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        let found = unsafe withUnsafeMutableBytes(of: &info) { unsafe dladdr(address, $0.baseAddress) }
        guard found != 0, let name = unsafe info.0 else { return nil }
        return unsafe String(cString: name.assumingMemoryBound(to: CChar.self))
        #endif
    }

    #if !canImport(Darwin)
    private typealias Dladdr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

    private static let lookUpDladdr: Dladdr? = {
        guard let symbol = unsafe dlsym(dlopen(nil, RTLD_NOW), "dladdr") else { return nil }
        return unsafe unsafeBitCast(symbol, to: Dladdr.self)
    }()
    #endif
}
