/// What a mark is tuned for: how loud it may be against what it must survive. The detector
/// reads every profile without being told.
///
/// PEAQ (ITU-R BS.1387, GstPEAQ; `Benchmarks/quality/peaq_check.py`) on 15 hosts, advanced
/// ODG mean / worst: `broadcast` -0.07 / -0.14 at 26.2 dB SNR, `venue` -0.43 / -0.73 at 20.2 dB
/// (MP3 at 128 kbit/s: -0.37 / -1.40) (docs/watermark.md, section 2).
public enum WatermarkProfile: String, CaseIterable, Sendable {
    /// TV, radio and streams: transparent by PEAQ's advanced model. The default.
    case broadcast
    /// Stadium and arena PA jingles, heard through a crowd and a long reverberation: 6 dB
    /// louder (the level every earlier release embedded at), perceptible by PEAQ on speech
    /// and crowd hosts.
    case venue

    /// The mark's amplitude relative to the tuned masking limits and SNR budget
    /// (`WatermarkParameters.targetSNR`): what `strength` 1 means in this profile.
    public var level: Double {
        switch self {
        case .broadcast: 0.5
        case .venue: 1
        }
    }
}
