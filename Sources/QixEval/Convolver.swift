import QixAudio

/// Convolution of a mono signal with an impulse response by FFT overlap-add
/// (QixAudio.RealFFT): how the eval puts audio through a loudspeaker or a room.
public struct Convolver {
    /// Convolves `signal` with `response`; the output keeps `signal`'s length (the tail
    /// past the end is dropped, as a recording that stops).
    public static func convolve(_ signal: [Float], with response: [Float]) -> [Float] {
        guard !signal.isEmpty, !response.isEmpty else { return signal }
        var size = 1
        while size < 2 * response.count { size *= 2 }
        size = max(size, 1024)
        let block = size - response.count + 1
        let fft = RealFFT(size: size)
        let bins = fft.binCount
        for i in 0..<size { fft.input[i] = i < response.count ? response[i] : 0 }
        fft.forward()
        let responseSpectrum = Array(fft.spectrum)
        var output = [Float](repeating: 0, count: signal.count)
        let scale = 1 / Float(size)
        var start = 0
        while start < signal.count {
            let count = min(block, signal.count - start)
            for i in 0..<size { fft.input[i] = i < count ? signal[start + i] : 0 }
            fft.forward()
            let s = fft.spectrum
            for k in 0..<bins {
                let re = s[2 * k], im = s[2 * k + 1]
                let hre = responseSpectrum[2 * k], him = responseSpectrum[2 * k + 1]
                s[2 * k] = re * hre - im * him
                s[2 * k + 1] = re * him + im * hre
            }
            fft.inverse()
            let end = min(signal.count, start + size)
            for i in start..<end { output[i] += fft.input[i - start] * scale }
            start += block
        }
        return output
    }
}
