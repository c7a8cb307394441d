/// Runs behaviors on items (UIKit's `UIDynamicAnimator`), headless and deterministic: each
/// display frame of the given duration advances the world in fixed 1/120 s steps, carrying the
/// remainder to the next frame, then writes the items' state back and reports events.
///
/// What `advance` reads and writes in every step and frame skips the runtime's dynamic
/// exclusivity check (`@exclusivity(unchecked)`, as `World`'s properties): no two accesses of
/// one property overlap.
public final class DynamicAnimator {
    /// The reference coordinate space's bounds (the boundary of `translatesReferenceBoundsIntoBoundary`).
    public let referenceBounds: Rect?
    /// Behaviors in the order added.
    public private(set) var behaviors: [DynamicBehavior] = []
    /// Every behavior in effect: each added one followed by its child behaviors, depth first
    /// (UIKit's traversal of the behavior tree); what the world is built from.
    @exclusivity(unchecked) var activeBehaviors: [DynamicBehavior] = []
    /// The groups the behaviors in effect name, in the order first named.
    @exclusivity(unchecked) var groupBodies: [GroupBody] = []
    /// Simulated time so far (sum of the world steps taken).
    @exclusivity(unchecked) public private(set) var elapsedTime = 0.0
    /// False once every item rests (paused); true again when something changes.
    @exclusivity(unchecked) public private(set) var isRunning = true
    /// The divergence that stopped the simulation, if one did; from then on no step runs.
    @exclusivity(unchecked) public private(set) var divergence: Divergence?

    let world = World()
    var bodyIndexByItem: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) var itemByBody: [DynamicItem?] = [nil]
    /// The names of the boundary bodies that have one (a few among thousands of item bodies: a
    /// map, not an optional string per body, 16 bytes each).
    var boundaryNameByBody: [Int: String] = [:]
    var needsRebuild = true
    var anchorsMoved = false
    @exclusivity(unchecked) private var accumulator = 0.0
    @exclusivity(unchecked) private var pendingEvents: [AnimatorEvent] = []
    @exclusivity(unchecked) private var previousTouching: [UInt64] = []

    /// An animator over a reference space with the given bounds.
    public init(referenceBounds: Rect? = nil) {
        self.referenceBounds = referenceBounds
    }

    /// Sub-steps per 1/120 s world step (default 6, `PhysicsConstants.substepCount`).
    public var substepCount: Int {
        get { world.substepCount }
        set { world.substepCount = max(1, newValue) }
    }

    /// Items currently simulated, in the order they joined.
    public var items: [DynamicItem] {
        (1..<itemByBody.count).compactMap { i in world.bodies[i].enabled ? itemByBody[i] : nil }
    }

    /// The simulated items whose `frame` meets `rect` (edges touching count), in the order they
    /// joined (UIKit's `items(in:)`).
    public func items(in rect: Rect) -> [DynamicItem] {
        let x1 = rect.origin.x + rect.size.x, y1 = rect.origin.y + rect.size.y
        return items.filter { item in
            let f = item.frame
            return f.origin.x <= x1 && rect.origin.x <= f.origin.x + f.size.x
                && f.origin.y <= y1 && rect.origin.y <= f.origin.y + f.size.y
        }
    }

    /// Adds a behavior (ignored if it is already added, also as a child); wakes the animator.
    public func addBehavior(_ behavior: DynamicBehavior) {
        if behavior.dynamicAnimator === self { return }
        if let parent = behavior.parentBehavior { parent.removeChildBehavior(behavior) }
        if let previous = behavior.dynamicAnimator { previous.removeBehavior(behavior) }
        behaviors.append(behavior)
        behaviorTreeDidChange()
    }

    /// Removes a behavior and its children; wakes the animator.
    public func removeBehavior(_ behavior: DynamicBehavior) {
        guard let k = behaviors.firstIndex(where: { $0 === behavior }) else { return }
        behaviors.remove(at: k)
        behaviorTreeDidChange()
    }

    /// Removes every behavior.
    public func removeAllBehaviors() {
        for b in behaviors { removeBehavior(b) }
    }

    /// Re-reads an item's centre, angle and velocities after you moved it yourself.
    public func updateItem(usingCurrentState item: DynamicItem) {
        if let group = item as? DynamicItemGroup, let record = groupRecord(of: group) {
            placeItems(of: record)
            tickle()
            return
        }
        guard let index = bodyIndexByItem[ObjectIdentifier(item)] else { return }
        world.setPlacement(index, origin: item.center, angle: item.angle)
        if world.bodies[index].invMass > 0 {
            world.states[index].v = item.velocity
            world.states[index].w = world.bodies[index].invInertia > 0 ? item.angularVelocity : 0
        }
        tickle()
    }

    func behaviorsDidChange() {
        needsRebuild = true
        tickle()
    }

    func anchorsDidMove() {
        anchorsMoved = true
        tickle()
    }

    private func tickle() {
        if !isRunning {
            isRunning = true
            pendingEvents.append(.resumed)
        }
        for i in 0..<world.bodies.count { world.bodies[i].restTime = 0 }
    }

    /// Adds linear and angular velocity to an item at once (UIKit's `addLinearVelocity` and
    /// `addAngularVelocity`), waking the animator; anchored and static items do not move.
    public func addVelocity(_ v: Vector2, angular: Double, to item: DynamicItem) {
        if let group = item as? DynamicItemGroup, let record = groupRecord(of: group) {
            addGroupVelocity(record, v, angular: angular)
            tickle()
            return
        }
        if let index = bodyIndexByItem[ObjectIdentifier(item)], world.bodies[index].enabled {
            if world.bodies[index].invMass > 0 {
                world.states[index].v += v
                if world.bodies[index].invInertia > 0 { world.states[index].w += angular }
            }
            item.velocity = world.states[index].v
            item.angularVelocity = world.states[index].w
        } else {
            item.velocity += v
            item.angularVelocity += angular
        }
        tickle()
    }

    /// Advances one display frame of `duration` seconds and returns its events in order.
    public func advance(by duration: Double) -> [AnimatorEvent] {
        var events = pendingEvents
        pendingEvents.removeAll()
        if needsRebuild { rebuild() }
        if anchorsMoved { updateAnchors() }
        applyImpulses()
        world.trackTouching = true
        // Released rather than emptied: kept, its room for every step of a busy frame (240 kB on
        // the pyramid's first frame) would stay allocated through every later step's solve.
        world.touchingKeys = []
        world.touchingStepCounts.removeAll(keepingCapacity: true)
        world.touchingChanged = false
        var stepped = false
        if isRunning && divergence == nil {
            accumulator += duration
            let step = PhysicsConstants.stepDuration
            while accumulator >= step * (1 - 1e-9) {
                applyForces()
                world.step(step)
                if !groupBodies.isEmpty { rigidifyGroups() }
                accumulator -= step
                elapsedTime += step
                stepped = true
                if let diverged = firstDivergence() {
                    divergence = diverged
                    events.append(.diverged(diverged))
                    break
                }
            }
        }
        if stepped { contactEvents(into: &events) }
        if isRunning && divergence == nil && everythingRests() {
            isRunning = false
            accumulator = 0
            // Resting items are asleep, as Box2D's `SetAwake(false)` (UIKit's pause) leaves them:
            // no leftover solver velocity is reported or carried into the next resume.
            world.stopMovableBodies()
            events.append(.paused)
        }
        writeBack()
        for b in activeBehaviors { b.action?() }
        return events
    }

    /// The first item body (in body order) whose state left its bounds after the last step.
    private func firstDivergence() -> Divergence? {
        let world = self.world
        for i32 in world.itemBodies where !world.isInsideLimits(Int(i32)) {
            let i = Int(i32)
            guard let (quantity, value) = Divergence.check(center: world.bodies[i].origin, velocity: world.states[i].v,
                                                           angle: world.bodies[i].angle, angularVelocity: world.states[i].w),
                  let item = itemByBody[i] else { continue }
            return Divergence(item: item, time: elapsedTime, quantity: quantity, value: value)
        }
        return nil
    }

    private func everythingRests() -> Bool {
        for i in world.itemBodies {
            let b = world.bodies[Int(i)]
            if b.invMass > 0 && b.restTime < PhysicsConstants.timeToRest { return false }
        }
        return true
    }

    private func writeBack() {
        for i in 1..<itemByBody.count {
            guard let item = itemByBody[i], world.bodies[i].enabled else { continue }
            let b = world.bodies[i]
            item.center = b.origin
            item.angle = b.angle
            item.velocity = world.states[i].v
            item.angularVelocity = world.states[i].w
        }
    }

    private func contactEvents(into events: inout [AnimatorEvent]) {
        // Every step found the touching keys of the step before, in the same order (the world
        // tells, from its contact keys and touching bits): the touching set is the same
        // throughout (no event), and `previousTouching` stays what it is.
        if !world.touchingChanged { return }
        let (began, ended) = touchingChanges()
        let found = began.isEmpty ? [] : contactIndices(of: began)
        events.reserveCapacity(events.count + began.count + ended.count)
        for (k, key) in began.enumerated() {
            if let c = contact(key, at: place(ofContact: found[k])) { events.append(.contactBegan(c)) }
        }
        for key in ended { if let c = contact(key, at: nil) { events.append(.contactEnded(c)) } }
    }

    /// The keys that began and that ended touching in this frame (sorted), with
    /// `previousTouching` set to the last step's. What only this needs (the frame's keys, the
    /// keys before) is given back before the events are made: 0.5 MB when the pyramid lands,
    /// whose first frame begins 15 000 contacts.
    private func touchingChanges() -> (began: [UInt64], ended: [UInt64]) {
        let (earlier, atEnd) = frameTouching()
        world.touchingKeys = []
        // Began: touched in the frame (earlier or at its end), not before it. Ended: touched
        // before or earlier in the frame, not at its end. One walk over the three lists (the
        // frame's union and two set operations over it walked 195 000 keys a frame on the
        // base-100 pyramid).
        let changes = SortedKeys.changes(previous: previousTouching, earlier: earlier, last: atEnd)
        previousTouching = atEnd
        return changes
    }

    /// The touching keys of the frame's steps before its last (sorted, without repeats) and of
    /// its last step (sorted, `atEnd`): each step's keys are sorted once (or not at all when
    /// they are the step before's, whose sorted keys are at hand), then merged.
    private func frameTouching() -> (earlier: [UInt64], atEnd: [UInt64]) {
        var earlier: [UInt64] = []
        var atEnd: [UInt64] = []
        var lastRaw: ArraySlice<UInt64>?
        let all = world.touchingKeys
        var start = 0
        for count in world.touchingStepCounts {
            let raw = all[start..<(start + count)]
            start += count
            if let lastRaw, raw.elementsEqual(lastRaw) { continue }  // merging it again adds only repeats
            if lastRaw != nil { earlier = SortedKeys.union(earlier, atEnd) }
            atEnd = Array(raw)
            PairKeySort.sort(&atEnd)
            lastRaw = raw
        }
        return (earlier, atEnd)
    }

    /// The index in the frame's last step's contact records of each of the sorted, distinct
    /// `keys` (the last record with that key), -1 for keys without one. Four bytes a key: a
    /// frame in which a 5050-box pyramid first lands begins 15 000 contacts. One pass over the
    /// records, each looked up in `keys`: by a binary search for a few keys, else in
    /// `KeyPositions` (the binary search cost 540 000 instructions a frame while that pyramid
    /// settles; for a few keys it is cheaper than making the table).
    private func contactIndices(of keys: [UInt64]) -> [Int32] {
        var found = [Int32](repeating: -1, count: keys.count)
        let positions = keys.count >= 16 ? KeyPositions(keys) : nil
        let count = min(world.contactKeys.count, world.contacts.count)
        world.contactKeys.withUnsafeBufferPointer { ck in found.withUnsafeMutableBufferPointer { out in
            keys.withUnsafeBufferPointer { keys in
                for n in 0..<count {
                    let key = ck[n]
                    if let positions {
                        if let at = positions.position(of: key) { out[at] = Int32(truncatingIfNeeded: n) }
                        continue
                    }
                    var low = 0, high = keys.count
                    while low < high {
                        let mid = (low + high) / 2
                        if keys[mid] < key { low = mid + 1 } else { high = mid }
                    }
                    if low < keys.count, keys[low] == key { out[low] = Int32(truncatingIfNeeded: n) }
                }
            }
        } }
        return found
    }

    /// Where contact record `n` of the frame's last step touches: the mean of its points, and
    /// its normal; nil for -1.
    private func place(ofContact n: Int32) -> (point: Vector2, normal: Vector2)? {
        if n < 0 { return nil }
        let c = world.contacts[Int(n)]
        let center = world.bodies[c.a].center0
        // Through the anchor (point - centre), as when the record kept anchors: the same bits.
        var point = center + (c.p0.point - center)
        if c.pointCount > 1 { point = 0.5 * (point + (center + (c.p1.point - center))) }
        return (point, c.normal)
    }

    private func contact(_ key: UInt64, at place: (point: Vector2, normal: Vector2)?) -> Contact? {
        let a = Int(key >> 32), b = Int(key & 0xFFFF_FFFF)
        guard let first = itemByBody[a] else { return nil }
        if let second = itemByBody[b] {
            return Contact(item: first, otherItem: second, isBoundary: false, boundaryIdentifier: nil,
                           point: place?.point, normal: place?.normal)
        }
        return Contact(item: first, otherItem: nil, isBoundary: true, boundaryIdentifier: boundaryNameByBody[b],
                       point: place?.point, normal: place?.normal)
    }

    // MARK: Building the world from behaviors

    func bodyIndex(of item: DynamicItem) -> Int? { bodyIndexByItem[ObjectIdentifier(item)] }

    func itemByBodyAt(_ index: Int) -> DynamicItem? { index < itemByBody.count ? itemByBody[index] : nil }

    func needsRebuildCleared() { needsRebuild = false }

    func anchorsMovedCleared() { anchorsMoved = false }

    /// The body of `item`, created from the item's state on first use.
    func ensureBody(_ item: DynamicItem) -> Int {
        if let index = bodyIndexByItem[ObjectIdentifier(item)] { return index }
        let index = world.addBody(item.geometry, origin: item.center, angle: item.angle, density: 1, isStatic: false)
        world.states[index].v = item.velocity
        world.states[index].w = item.angularVelocity
        world.bodies[index].enabled = false
        bodyIndexByItem[ObjectIdentifier(item)] = index
        register(index, item: item, boundary: nil)
        return index
    }

    /// Re-reads a re-enabled body's placement and velocity from its item.
    func reload(_ index: Int, from item: DynamicItem) {
        world.setPlacement(index, origin: item.center, angle: item.angle)
        world.states[index].v = item.velocity
        world.states[index].w = item.angularVelocity
        world.bodies[index].restTime = 0
    }

    func registerBoundary(_ index: Int, name: String?) { register(index, item: nil, boundary: name) }

    private func register(_ index: Int, item: DynamicItem?, boundary: String?) {
        // As much room as the world reserved for its bodies: one allocation at the scene's
        // size, not doubling one slot at a time (up to half of it unused).
        if itemByBody.capacity <= index { itemByBody.reserveCapacity(max(index + 1, world.bodies.capacity)) }
        while itemByBody.count <= index { itemByBody.append(nil) }
        itemByBody[index] = item
        boundaryNameByBody[index] = boundary
    }

    func prepareAdded(_ behavior: DynamicBehavior) {
        guard let attachment = behavior as? AttachmentBehavior else { return }
        let (p1, p2) = attachment.attachmentPoints()
        if attachment.length == nil, attachment.kind == .distance || attachment.kind == .limit {
            let distance = (p2 - p1).length
            attachment.length = distance
            if attachment.kind == .distance, attachment.items.count == 1, attachment.frequency == 0, distance < 1 {
                attachment.actsAsPin = true
            }
        }
        if attachment.kind == .pin || attachment.kind == .fixed || attachment.kind == .sliding || attachment.actsAsPin {
            let anchor = attachment.actsAsPin ? p2 : attachment.anchorPoint
            let a = attachment.items[0]
            let localFirst = Rotation(angle: a.angle).inverseRotate(anchor - a.center)
            if attachment.items.count == 2 {
                let b = attachment.items[1]
                attachment.frozenLocalA = localFirst
                attachment.frozenLocalB = Rotation(angle: b.angle).inverseRotate(anchor - b.center)
                attachment.referenceAngle = b.angle - a.angle
            } else {
                attachment.frozenLocalA = nil
                attachment.frozenLocalB = localFirst
                attachment.referenceAngle = a.angle
            }
        }
    }
}
