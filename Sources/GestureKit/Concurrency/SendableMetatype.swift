#if !compiler(>=6.2)
/// Swift 6.2's marker for types whose metatype crosses isolation (SE-0470), for the compilers
/// before it (Debian 13's Swift 6.0), where every metatype may: nothing to require.
public typealias SendableMetatype = Any
#endif
