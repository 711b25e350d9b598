/// A sample at a given fraction of the run.
struct GrowthMilestone: Codable, Sendable {
    var percent: Int
    var sample: GrowthSample
}
