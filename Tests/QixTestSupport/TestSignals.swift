import Foundation
import QixDSP

/// Signals, measurements and folders shared by the QixDSP and QixAudio tests.
public enum TestSignals {
    /// A sine of `frequency` Hz and `amplitude`, identical on every channel.
    public static func sine(frequency: Double, amplitude: Float, seconds: Double, sampleRate: Int, channels: Int) -> AudioBuffer {
        let frames = Int(seconds * Double(sampleRate))
        var samples = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * frequency * Double(i) / Double(sampleRate)))
            for c in 0..<channels { samples[i * channels + c] = value }
        }
        return AudioBuffer(samples: samples, channels: channels, sampleRate: sampleRate)
    }

    /// Frequency (Hz) of the strongest bin and the amplitude of a steady sine in `mono`,
    /// measured over a Hann-windowed power-of-two stretch from its middle.
    public static func dominantTone(_ mono: [Float], sampleRate: Int) -> (frequency: Double, amplitude: Double) {
        var size = 1
        while size * 2 <= min(mono.count, 1 << 15) { size *= 2 }
        let fft = RealFFT(size: size)
        let start = (mono.count - size) / 2
        var windowSum = 0.0
        for i in 0..<size {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))
            windowSum += w
            fft.input[i] = mono[start + i] * Float(w)
        }
        fft.forward()
        var best = 1, bestPower: Float = 0
        for k in 1..<(fft.binCount - 1) {
            let re = fft.spectrum[2 * k], im = fft.spectrum[2 * k + 1]
            let power = re * re + im * im
            if power > bestPower { bestPower = power; best = k }
        }
        // Sum the main lobe's energy so the amplitude does not depend on where the tone
        // falls between bins.
        var lobe = 0.0
        for k in max(1, best - 3)...min(fft.binCount - 1, best + 3) {
            let re = Double(fft.spectrum[2 * k]), im = Double(fft.spectrum[2 * k + 1])
            lobe += re * re + im * im
        }
        // Hann: the energy over the lobe is 1.5x the centred peak's.
        let amplitude = 2 * (lobe / 1.5).squareRoot() / windowSum
        return (Double(best) * Double(sampleRate) / Double(size), amplitude)
    }

    /// A fresh empty directory for one test.
    public static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "qix-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The path of the corpus clip corpus/clips/<prefix>*.flac (the first by name); throws a
    /// one-line error naming the prefix when there is none.
    public static func corpusClip(_ prefix: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpusClips).sorted()
        guard let name = names.first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".flac") }) else {
            throw QixError("missing clip", parameter: prefix, "not in corpus/clips")
        }
        return corpusClips + "/" + name
    }

    /// The repository's corpus/clips folder.
    public static var corpusClips: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("corpus/clips").path
    }
}
