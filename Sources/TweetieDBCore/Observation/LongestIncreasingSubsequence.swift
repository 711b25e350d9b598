/// Longest strictly increasing subsequence (patience sorting), O(m log m).
enum LongestIncreasingSubsequence {
    /// For each element of `sequence`, whether it belongs to one fixed longest strictly
    /// increasing subsequence.
    static func membership(_ sequence: [Int]) -> [Bool] {
        var tails: [Int] = []  // tails[l]: offset of the smallest tail of an increasing run of length l + 1
        var previous = [Int](repeating: -1, count: sequence.count)
        for (offset, value) in sequence.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) >> 1
                if sequence[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            previous[offset] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(offset) } else { tails[low] = offset }
        }
        var members = [Bool](repeating: false, count: sequence.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            members[cursor] = true
            cursor = previous[cursor]
        }
        return members
    }
}
