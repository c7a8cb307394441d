import QixDSP

/// Errors of the watermark codec (bad key, bad message, unusable audio).
public typealias WatermarkError = QixError
