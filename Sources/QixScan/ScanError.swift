import QixAudio

/// Errors of scanning, the airings database and reports.
public typealias ScanError = QixError
