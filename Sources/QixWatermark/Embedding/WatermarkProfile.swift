/// What a mark is tuned for: how loud it may be against what it must survive. The detector
/// reads every profile without being told.
///
/// PEAQ (ITU-R BS.1387, GstPEAQ; `Benchmarks/quality/peaq_check.py`) on 15 hosts, advanced
/// ODG mean / worst: `broadcast` -0.12 / -0.23 at 24.6 dB SNR, `venue` -0.43 / -0.73 at 20.2 dB
/// (MP3 at 128 kbit/s: -0.37 / -1.40) (docs/watermark.md, section 2). Level 0.5 measured
/// -0.07 / -0.14 and level 0.7 -0.18 / -0.33: 0.6 keeps a margin to the -0.20 mean that
/// transparency asks for, with 1.6 dB more mark than 0.5.
public enum WatermarkProfile: String, CaseIterable, Sendable {
    /// TV, radio and streams: transparent by PEAQ's advanced model. The default.
    case broadcast
    /// Stadium and arena PA jingles, heard through a crowd and a long reverberation: 4.4 dB
    /// louder (the level every earlier release embedded at), perceptible by PEAQ on speech
    /// and crowd hosts.
    case venue

    /// The mark's amplitude relative to the tuned masking limits and SNR budget
    /// (`WatermarkParameters.targetSNR`): what `strength` 1 means in this profile.
    public var level: Double {
        switch self {
        case .broadcast: 0.6
        case .venue: 1
        }
    }
}
