/// What a mark is tuned for: how loud it may be against what it must survive. The detector
/// reads every profile without being told.
///
/// PEAQ (ITU-R BS.1387, GstPEAQ; `Benchmarks/quality/peaq_check.py`) on 15 hosts, format 3,
/// advanced ODG mean / worst: `broadcast` -0.00 / -0.04 at 24.6 dB SNR or more, `venue`
/// -0.17 / -0.30 at 20.2 dB (MP3 at 128 kbit/s: -0.37 / -1.40); basic -0.34 / -1.47 and
/// -0.85 / -2.61 (MP3: -1.02 / -2.19) (docs/watermark.md, section 2). Format 2's side-by-side
/// halves measured -0.12 / -0.23 advanced at level 0.6, when 0.6 was chosen as the level that
/// kept a margin to the -0.20 mean that transparency asks for.
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
