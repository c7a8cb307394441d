/// The fixed geometry of the QixKit watermark (format version 1): rates, frame sizes,
/// the tile grid and the code. Embedder and detector must agree on every value here.
///
/// Everything happens on a 16 kHz mono view of the audio: every capture path (phone,
/// 16 kHz resampling, codecs) passes it, and it keeps detection cheap.
public enum WatermarkParameters {
    /// Internal sample rate in Hz.
    public static let sampleRate = 16_000
    /// STFT length in samples (32 ms).
    public static let fftSize = 512
    /// STFT hop in samples (16 ms).
    public static let hop = 256
    /// Hops per symbol slot: 8 hops = 128 ms, long enough that a room's tail does not
    /// smear consecutive slots into each other.
    public static let hopsPerSlot = 8
    /// Slots per watermark frame (24 x 128 ms = 3.072 s); the frame repeats through the file.
    public static let slotsPerFrame = 24
    /// Hops per frame (192).
    public static let hopsPerFrame = hopsPerSlot * slotsPerFrame
    /// Width of one half band in FFT bins (4 bins = 125 Hz): each band is an up half
    /// and a down half whose energy ratio carries the chip.
    public static let binsPerHalfBand = 4
    /// Width in bins of the up/down groups of formats 1 and 2 (`BandLayout.halves`);
    /// `BandLayout.binsPerGroup` gives every layout's.
    public static let binsPerGroup = 4
    /// Bands per slot: 22 bands x 250 Hz from 500 Hz to 6 kHz.
    public static let bandCount = 22
    /// First FFT bin of the lowest band (500 Hz).
    public static let firstBin = 16
    /// One past the last FFT bin of the highest band (6 kHz).
    public static var endBin: Int { firstBin + 2 * binsPerHalfBand * bandCount }
    /// Tiles per frame (one band in one slot).
    public static let tileCount = bandCount * slotsPerFrame
    /// Sync tiles in every slot (keyed bands); the other tiles carry coded payload bits.
    public static let syncTilesPerSlot = 4
    /// The ID's length in bits.
    public static let messageBits = 32
    /// Keyed check bits appended to the ID (HMAC-SHA-256 of key and ID): a random
    /// decode passes with probability 2^-24.
    public static let checkBits = 24
    /// Payload bits before coding.
    public static var payloadBits: Int { messageBits + checkBits }
    /// Host-to-watermark energy ratio in dB at scale 1 (the `venue` profile at strength 1),
    /// held exactly per 30 s segment over all channels at 16 kHz (so at least this over the
    /// full band); `broadcast` sits 4.4 dB further under, at 24.6 dB.
    public static let targetSNR = 20.2
    /// Playback speeds the detector searches, as a fraction (0.03 = +-3 %).
    public static let speedRange = 0.03
    /// Step of the coarse speed grid searched everywhere (5 speeds over +-3 %); windows
    /// whose best candidates fail are retried half a step to either side. 1.5 % decoded
    /// as well as 1 % at every speed tried (worst case 0.75 % off the grid) for 5/7 of the
    /// search cost.
    public static let speedStep = 0.015
}
