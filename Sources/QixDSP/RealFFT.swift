import CFFTW
import Foundation

/// A planned real-to-complex FFT of one size, with its own aligned work buffers.
///
/// Plan once, reuse for every frame: write the frame into `input`, call `forward()`,
/// read `n/2 + 1` complex bins from `spectrum` (interleaved re, im). `inverse()` runs
/// the unnormalised complex-to-real transform back from `spectrum` into `input`.
/// Plans use FFTW_ESTIMATE so that the same input gives the same bits on every run.
/// One instance is not to be shared between threads; make one per thread.
public final class RealFFT {
    /// Transform length in samples.
    public let size: Int
    /// Real time-domain buffer (`size` values).
    public let input: UnsafeMutableBufferPointer<Float>
    /// Complex spectrum, `size/2 + 1` bins, interleaved (re, im).
    public let spectrum: UnsafeMutableBufferPointer<Float>

    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// FFTW's planner is not thread-safe: every plan creation and destruction goes through this lock.
    private static let plannerLock = NSLock()

    /// Plans transforms of length `size` (any size; powers of two and small primes are fastest).
    public init(size: Int) {
        precondition(size >= 2, "FFT size must be at least 2")
        self.size = size
        let bins = size / 2 + 1
        let realStorage = fftwf_alloc_real(size)!
        let complexStorage = fftwf_alloc_complex(bins)!
        input = UnsafeMutableBufferPointer(start: realStorage, count: size)
        let complexFloats = UnsafeMutableRawPointer(complexStorage).bindMemory(to: Float.self, capacity: 2 * bins)
        spectrum = UnsafeMutableBufferPointer(start: complexFloats, count: 2 * bins)
        input.initialize(repeating: 0)
        spectrum.initialize(repeating: 0)
        Self.plannerLock.lock()
        forwardPlan = fftwf_plan_dft_r2c_1d(Int32(size), realStorage, complexStorage, UInt32(FFTW_ESTIMATE))
        inversePlan = fftwf_plan_dft_c2r_1d(Int32(size), complexStorage, realStorage,
                                            UInt32(FFTW_ESTIMATE))
        Self.plannerLock.unlock()
    }

    deinit {
        Self.plannerLock.lock()
        fftwf_destroy_plan(forwardPlan)
        fftwf_destroy_plan(inversePlan)
        Self.plannerLock.unlock()
        fftwf_free(input.baseAddress)
        fftwf_free(spectrum.baseAddress)
    }

    /// Number of complex bins, `size/2 + 1`.
    public var binCount: Int { size / 2 + 1 }

    /// Transforms `input` into `spectrum`.
    @inline(__always)
    public func forward() { fftwf_execute(forwardPlan) }

    /// Transforms `spectrum` back into `input`, scaled by `size` (FFTW does not normalise).
    /// The spectrum may be overwritten.
    @inline(__always)
    public func inverse() { fftwf_execute(inversePlan) }
}
