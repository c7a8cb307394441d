// libFuzzer harness for the audio file front end (AudioFileReader: libsndfile, libFLAC and
// the own FLAC frame decoder, FFmpeg's libraries, the content sniffer, the damage checks),
// built with ASan by Tests/Fuzz/run.sh. The input is written to a file and read to its end
// twice: block by block (interleaved, then mixed to mono) and whole. Any trap or memory
// error is a finding; an AudioError for a bad file is the reader's job.
import QixAudio
#if canImport(Glibc)
import Glibc
#endif

/// The file each input is written to, one per fuzzing process.
private let path: String = {
    let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(folder)/qix-audio-file-fuzz-\(getpid())"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func audioFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size <= 200_000, write(data, size) else { return 0 }
    defer { unlink(path) }
    readBlocks(mono: false)
    readBlocks(mono: true)
    if let reader = try? AudioFileReader(path: path), let buffer = try? reader.readAll() {
        precondition(buffer.samples.count % max(1, reader.info.channels) == 0, "a partial frame")
        _ = reader.damageReport
    }
    return 0
}

/// Reads the file to its end in small blocks, checking that no block overflows.
private func readBlocks(mono: Bool) {
    guard let reader = try? AudioFileReader(path: path) else { return }
    let channels = reader.info.channels
    precondition(channels > 0 && reader.info.sampleRate > 0, "a reader without channels or rate")
    let blockFrames = 997
    var total = 0
    let visit = { (block: UnsafeBufferPointer<Float>) in
        precondition(block.count <= blockFrames * (mono ? 1 : channels), "a block larger than asked")
        total += block.count
    }
    if mono {
        try? reader.forEachMonoBlock(blockFrames: blockFrames, visit)
    } else {
        try? reader.forEachBlock(blockFrames: blockFrames, visit)
    }
    _ = reader.damageReport
}

/// Writes the input to `path`, replacing what was there.
private func write(_ data: UnsafePointer<UInt8>, _ size: Int) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var offset = 0
    while offset < size {
        let put = Glibc.write(fd, data + offset, size - offset)
        if put <= 0 { return false }
        offset += put
    }
    return true
}
