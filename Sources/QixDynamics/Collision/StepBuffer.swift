/// Scratch memory that a stage of the step owns and keeps from step to step. Its hot loops
/// read and write through `base` with no closure per array and no uniqueness or bounds check
/// per access (what `withUnsafeMutableBufferPointer` pyramids gave), and `setCount` allocates
/// only when the buffer grows. A class: the memory belongs to one owner, never copied.
final class StepBuffer<Element> {
    /// The first element; valid until a `setCount` or `append` that grows the buffer.
    private(set) var base: UnsafeMutablePointer<Element>
    /// How many elements are in use.
    private(set) var count = 0
    private var capacity = 0

    init() { base = .allocate(capacity: 0) }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Element `i` (below `count`, unchecked).
    @inline(__always)
    subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }

    /// The last element, or nil when empty.
    var last: Element? { count > 0 ? base[count - 1] : nil }

    /// Sets the count to `n`, keeping the first elements and filling new ones with `filler`;
    /// callers overwrite the contents (as `Array.setCount`).
    func setCount(_ n: Int, filler: Element) {
        if n > capacity { grow(to: Swift.max(n, 2 * capacity)) }
        if n > count {
            (base + count).initialize(repeating: filler, count: n - count)
        } else {
            (base + n).deinitialize(count: count - n)
        }
        count = n
    }

    /// Sets the count to `n`, leaving new elements unset: for a caller that writes every element
    /// it later reads (filling them first cost one or two instructions an element, 150 000 a
    /// step for the 5050-box pyramid's placed shapes and boxes). Trivial elements only, whose
    /// memory needs no initialization before it is assigned.
    func setCountUnset(_ n: Int) where Element: BitwiseCopyable {
        if n > capacity { grow(to: Swift.max(n, 2 * capacity)) }
        count = n
    }

    /// The largest buffer `release` keeps (16 kB).
    static var keptBytes: Int { 16 << 10 }

    /// Empties the buffer, keeping its memory.
    func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Empties the buffer and gives its memory back, for a buffer that only one stage of the
    /// step uses: the stages after it then reuse that memory instead of adding their own. A
    /// buffer of at most `keptBytes` keeps its memory (emptied): a small scene's stages would
    /// otherwise allocate it anew every step (14 of the base-10 pyramid's allocations a step),
    /// and it is too small to matter to the memory peak.
    func release() {
        if capacity * MemoryLayout<Element>.stride <= StepBuffer.keptBytes {
            removeAll()
            return
        }
        base.deinitialize(count: count)
        base.deallocate()
        base = .allocate(capacity: 0)
        count = 0
        capacity = 0
    }

    /// Gives back the room beyond `count`, for a buffer kept for many steps after it was filled
    /// by appending (doubling leaves up to half of it unused).
    func trim() {
        if capacity > count { grow(to: count) }
    }

    /// Appends `x`, doubling the memory when full.
    @inline(__always)
    func append(_ x: Element) {
        if count == capacity { grow(to: Swift.max(16, 2 * capacity)) }
        (base + count).initialize(to: x)
        count += 1
    }

    /// The elements in use, as a buffer (valid while the buffer does not grow).
    var elements: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
