import QixDynamics
import QixScenes

/// Building, settling, flinging and dismissing pages.
extension CardDeck {
    func show(page: Int) {
        currentPage = page
        isSettled = false
        isFalling = false
        let cards = pages[page]
        let specs = deck.pages[page]
        let collision = CollisionBehavior(items: cards)
        collision.collisionMode = .items
        pageBehaviors = [collision]
        for i in 0..<cards.count {
            for j in (i + 1)..<max(cards.count, i + 1) where j < cards.count {
                let rope = AttachmentBehavior.limitAttachment(with: cards[i], attachedTo: cards[j])
                rope.length = (deck.restPoint(specs[j]) - deck.restPoint(specs[i])).length
                pageBehaviors.append(rope)
            }
        }
        restAttachments = Array(repeating: nil, count: cards.count)
        snaps = Array(repeating: nil, count: cards.count)
        for b in pageBehaviors { animator.addBehavior(b) }
        for c in 0..<cards.count {
            let snap = SnapBehavior(item: cards[c], snapTo: deck.restPoint(specs[c]))
            snaps[c] = snap
            animator.addBehavior(snap)
            modes[page][c] = .snapping
        }
        emit(.pageShown(page: page + 1))
    }

    /// Removes whatever ties card `c` to its rest point (snap or spring).
    func removeSpring(of c: Int) {
        if let s = snaps[c] { animator.removeBehavior(s) }
        if let r = restAttachments[c] { animator.removeBehavior(r) }
        snaps[c] = nil
        restAttachments[c] = nil
    }

    func snapBack(card c: Int, page: Int) {
        let snap = SnapBehavior(item: pages[page][c], snapTo: deck.restPoint(deck.pages[page][c]))
        snaps[c] = snap
        animator.addBehavior(snap)
        modes[page][c] = .snapping
    }

    func fall(page: Int) {
        isFalling = true
        isSettled = false
        for c in 0..<pages[page].count {
            removeSpring(of: c)
            modes[page][c] = .falling
        }
        let g = GravityBehavior(items: pages[page])
        g.setAngle(Double.pi / 2, magnitude: deck.gravity)
        gravity = g
        animator.addBehavior(g)
    }

    /// Whether a falling card has left the screen: entirely below its bottom edge (a card flung
    /// upward or sideways comes back down under gravity, so "below" is where every card ends).
    func isOffScreen(_ item: DynamicItem) -> Bool {
        item.center.y - 0.5 * item.size.length > deck.screen.y
    }

    func afterStep() {
        guard let page = currentPage else { return }
        let cards = pages[page]
        if isFalling {
            if cards.allSatisfy(isOffScreen) { dismiss(page: page) }
            return
        }
        // Snapped cards that arrived get their rest spring (a snap also straightened them).
        for c in 0..<cards.count where modes[page][c] == .snapping {
            let item = cards[c]
            let rest = deck.restPoint(deck.pages[page][c])
            if (item.center - rest).length < 1, item.velocity.length < 20, abs(item.angle) < 0.01, abs(item.angularVelocity) < 0.2 {
                removeSpring(of: c)
                let spring = AttachmentBehavior(item: item, attachedToAnchor: rest)
                spring.length = 0
                spring.frequency = deck.restFrequency
                spring.damping = deck.restDamping
                restAttachments[c] = spring
                animator.addBehavior(spring)
                modes[page][c] = .resting
            }
        }
        if !isSettled && modes[page].allSatisfy({ $0 == .resting }) {
            let still = (0..<cards.count).allSatisfy { c in
                (cards[c].center - deck.restPoint(deck.pages[page][c])).length < 2 && cards[c].velocity.length < 5
            }
            if still {
                isSettled = true
                emit(.settled(page: page + 1))
            }
        }
    }

    func dismiss(page: Int) {
        for b in pageBehaviors { animator.removeBehavior(b) }
        for c in 0..<pages[page].count { removeSpring(of: c) }
        if let gravity { animator.removeBehavior(gravity) }
        gravity = nil
        pageBehaviors = []
        for c in 0..<pages[page].count { modes[page][c] = .gone }
        emit(.pageDismissed(page: page + 1))
        if page + 1 < pages.count {
            show(page: page + 1)
        } else {
            currentPage = nil
            isFalling = false
            isFinished = true
            emit(.deckFinished)
        }
    }
}
