// libFuzzer harness for RawPCMReader (the headerless PCM of `qix listen` and
// `qix info --raw`), built with ASan by Tests/Fuzz/run.sh. Byte 0 picks the sample format,
// byte 1 the channels (1-64), byte 2 the read block size; the rest is the stream, fed
// through a pipe and read to its end. Any trap or memory error is a finding; errors thrown
// for bad input are the reader's job.
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func rawPCMFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 3, size <= 60_000 else { return 0 }
    let formats: [RawSampleFormat] = [.s16le, .s24le, .s32le, .f32le]
    let format = formats[Int(data[0]) % formats.count]
    let channels = 1 + Int(data[1]) % 64
    let blockFrames = 1 + Int(data[2]) % 300
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return 0 }
    // A pipe holds 64 KB: the whole stream fits before anything is read.
    var offset = 3
    while offset < size {
        let put = write(ends[1], data + offset, size - offset)
        if put <= 0 { break }
        offset += put
    }
    close(ends[1])
    defer { close(ends[0]) }
    guard let reader = try? RawPCMReader(fd: ends[0], format: format, channels: channels, sampleRate: 48_000,
                                         subject: "fuzz", bufferFrames: 1 + Int(data[2]) % 97) else { return 0 }
    let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames * channels)
    defer { block.deallocate() }
    var total = 0
    while let frames = try? reader.read(into: block), frames > 0 {
        precondition(frames <= blockFrames, "more frames than room")
        total += frames
    }
    precondition(total * channels * format.bytesPerSample + reader.droppedBytes == size - 3, "bytes lost or invented")
    return 0
}
