import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that appears at its path complete or not at all: the bytes go to a hidden
/// partial file beside it (`.<name>.partial-<pid>`), which `commit()` syncs to disk and
/// renames into place. Every file QixKit writes goes through here.
///
/// The partial file is created with `O_CREAT|O_EXCL|O_NOFOLLOW`, so a file or link planted
/// at its name is never written through. It is removed when the writer is abandoned or
/// dropped, when SIGINT/SIGTERM/SIGHUP ends the process, and, if the process was killed
/// outright, by the next writer into the same folder (`PartialFileName.sweepStale`).
public final class AtomicFile {
    /// Where the file appears on `commit()`.
    public let path: String
    /// The hidden file being written.
    public let partialPath: String
    /// What failed, for error lines ("cannot write audio").
    public let what: String
    /// The open descriptor of the partial file; -1 once committed or abandoned.
    public private(set) var descriptor: Int32 = -1
    private var slot: Int?

    /// Creates the partial file with mode `permissions` (less the umask).
    public init(path: String, permissions: mode_t = 0o644, what: String = "cannot write") throws {
        self.path = path
        self.what = what
        let name = PartialFileName(destination: path)
        partialPath = name.partialPath
        PartialFileName.sweepStale(in: name.directory)
        if PartialFileRegistry.contains(partialPath) {
            throw QixError(what, path, "already being written by this process")
        }
        slot = PartialFileRegistry.register(partialPath)
        descriptor = Self.create(partialPath, permissions: permissions)
        if descriptor < 0 && errno == EEXIST {
            // Our pid, not ours to keep: a leftover of a dead process that had this pid, or
            // something planted. Unlinking removes a link, never what it points to.
            unlink(partialPath)
            descriptor = Self.create(partialPath, permissions: permissions)
        }
        guard descriptor >= 0 else {
            let reason = errnoText()
            PartialFileRegistry.unregister(slot)
            throw QixError(what, path, reason)
        }
    }

    private static func create(_ path: String, permissions: mode_t) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
    }

    deinit { abandon() }

    /// Appends bytes.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard descriptor >= 0 else { throw QixError(what, path, "file already closed") }
        var offset = 0
        while offset < bytes.count {
            let put = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if put < 0 && errno == EINTR { continue }
            guard put > 0 else {
                let reason = errnoText()
                abandon()
                throw QixError(what, path, reason)
            }
            offset += put
        }
    }

    /// Syncs the file to disk, closes it and renames it into place, then syncs the folder
    /// so the new name survives a power cut too.
    public func commit() throws {
        guard descriptor >= 0 else { throw QixError(what, path, "file already closed") }
        let synced = fsync(descriptor) == 0
        var reason = synced ? "" : errnoText()
        let closed = close(descriptor) == 0
        if reason.isEmpty && !closed { reason = errnoText() }
        descriptor = -1
        if reason.isEmpty && rename(partialPath, path) != 0 { reason = errnoText() }
        guard reason.isEmpty else {
            unlink(partialPath)
            PartialFileRegistry.unregister(slot)
            slot = nil
            throw QixError(what, path, reason)
        }
        PartialFileRegistry.unregister(slot)
        slot = nil
        let folder = open(PartialFileName(destination: path).directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Closes and removes the partial file; nothing appears at `path`.
    public func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(partialPath)
        PartialFileRegistry.unregister(slot)
        slot = nil
    }
}
