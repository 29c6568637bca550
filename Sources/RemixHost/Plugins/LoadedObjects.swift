import RemixSystem

/// Which loaded shared object (or executable) holds an address, as `dladdr` tells.
package enum LoadedObjects {
    /// The file of the loaded object whose image contains `address`, if any.
    package static func file(containing address: UnsafeRawPointer) -> String? {
        #if canImport(Darwin)
        var info = Dl_info()
        guard dladdr(address, &info) != 0, let name = info.dli_fname else { return nil }
        return String(cString: name)
        #else
        // Glibc's module map hides dladdr (it needs _GNU_SOURCE), so it is looked up at run time.
        // Its Dl_info is four pointers: file name, base, symbol name, symbol address.
        guard let dladdr = lookUpDladdr else { return nil }
        var info: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        let found = withUnsafeMutableBytes(of: &info) { dladdr(address, $0.baseAddress) }
        guard found != 0, let name = info.0 else { return nil }
        return String(cString: name.assumingMemoryBound(to: CChar.self))
        #endif
    }

    #if !canImport(Darwin)
    private typealias Dladdr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

    private static let lookUpDladdr: Dladdr? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "dladdr") else { return nil }
        return unsafeBitCast(symbol, to: Dladdr.self)
    }()
    #endif
}
