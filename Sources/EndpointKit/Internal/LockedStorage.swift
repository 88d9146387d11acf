#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#elseif os(Windows)
    import WinSDK
#endif

#if os(Windows)
    @usableFromInline typealias PlatformMutex = SRWLOCK
#else
    @usableFromInline typealias PlatformMutex = pthread_mutex_t
#endif

/// What a ``Locked`` holds, in one allocation: the value, and after it the mutex that guards
/// it (tail-allocated, so that it keeps one address for its life and costs no allocation of
/// its own, where `NSLock` on Linux costs two). Every access to the value holds the mutex.
@usableFromInline final class LockedStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
    /// A storage holding `value`, its mutex ready.
    @inlinable static func holding(_ value: Value) -> LockedStorage<Value> {
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            #if os(Windows)
                InitializeSRWLock(mutex)
            #else
                let status = pthread_mutex_init(mutex, nil)
                precondition(status == 0, "pthread_mutex_init failed: \(status)")
            #endif
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            #if !os(Windows)
                pthread_mutex_destroy(mutex)
            #endif
            mutex.deinitialize(count: 1)
        }
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            #if os(Windows)
                AcquireSRWLockExclusive(mutex)
                defer { ReleaseSRWLockExclusive(mutex) }
            #else
                let status = pthread_mutex_lock(mutex)
                precondition(status == 0, "pthread_mutex_lock failed: \(status)")
                defer { pthread_mutex_unlock(mutex) }
            #endif
            return try body(&value.pointee)
        }
    }
}
