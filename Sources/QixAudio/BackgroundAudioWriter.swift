import Foundation

/// Hands blocks to an `AudioFileWriter` on a thread of its own, so that encoding (FLAC,
/// MP3, ...) runs beside the work that produces the audio instead of after it.
///
/// `write` copies the block into a short queue (at most `depth` blocks, so memory stays
/// bounded; a full queue makes the producer wait) and returns. The first error of the
/// encoding thread comes back from the next `write` or from `finish`. Until `finish`
/// succeeds nothing is at the path, as with the writer itself.
public final class BackgroundAudioWriter: @unchecked Sendable {
    /// The writer the blocks go to; touched only by the encoding thread until `finish`.
    public let writer: AudioFileWriter
    /// Blocks that may wait in the queue.
    public let depth: Int

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [[Float]] = []
    private var closed = false
    private var running = true
    private var failure: Error?

    /// Starts the encoding thread for `writer`.
    public init(_ writer: AudioFileWriter, depth: Int = 8) {
        self.writer = writer
        self.depth = max(1, depth)
        let thread = Thread { [self] in drain() }
        thread.name = "qix audio writer"
        thread.start()
    }

    /// Queues interleaved frames (copied); throws the encoding thread's first error.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        let block = Array(samples)
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(block)
        condition.broadcast()
    }

    /// Waits until every queued block is written, then completes the file.
    public func finish() throws {
        try stop()
        try writer.finish()
    }

    /// Waits for the encoding thread to end and drops the partial file.
    public func abandon() {
        try? stop()
        writer.abandon()
    }

    private func stop() throws {
        condition.lock()
        closed = true
        condition.broadcast()
        while running { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// The encoding thread: writes blocks in order until closed and empty, or an error.
    private func drain() {
        condition.lock()
        while true {
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty || failure != nil { break }
            let block = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do { try writer.write(block) } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                condition.broadcast()
                continue
            }
            condition.lock()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
