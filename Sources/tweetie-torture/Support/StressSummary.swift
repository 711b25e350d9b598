/// What a stress run measured and found.
struct StressSummary: Codable, Sendable {
    var seconds: Double
    var writers: Int
    var observers: Int
    var commits: UInt64 = 0
    var commitsPerWriter: [Int] = []
    var sharedOverwrites = 0
    var records = 0
    var fileSizeBefore = 0
    var fileSizeAfter = 0
    /// The bytes of data.mdb up to its last committed page (`StoreInfo.usedBytes`): what LMDB
    /// wrote. The file itself is longer by the zeros the store writes ahead of LMDB (up to an
    /// eighth of the file, at most 1 MiB), which the file-size bound does not count.
    var usedSizeAfter = 0
    var compactedSize = 0
    var mapSizeBefore = 0
    var mapSizeAfter = 0
    /// Each writer's map size when it finished (above the initial size: it grew or adopted a grown map).
    var writerMapSizes: [Int] = []
    var maxFileRatio: Double
    /// data.mdb's size, LMDB's page counts and the readers' lag over the run.
    var growth: GrowthSummary?
    var observersChecked: [String] = []
    var failures: [String] = []
}
